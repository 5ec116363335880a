/**
 * The candidate scan behind the exact-kNN plan (`ORDER BY vector.similarity.*(n.p, $q) DESC
 * LIMIT k`, docs/PERFORMANCE.md "Exact kNN through Cypher"): one pass over a collection's float32
 * slots that returns every node whose exact score might be among the `k` best, ties with the
 * k-th included. The caller re-scores those few nodes with the Cypher function itself, so the
 * answer is the one the row-by-row plan gives.
 *
 * Why it is exact: a stored cosine vector is `fl32(fl32(x) / |fl32(x)|)` and a query is prepared
 * the same way, so each component is off by at most about 3 * 2^-24 relative and the float32 dot
 * product is within about 3.6e-7 of the cosine the function computes in float64 (the products of
 * float32 values are exact in float64; the summation adds d * 2^-53). A euclidean vector is
 * `fl32(x)`, so the distance is within 2^-24 * (|x| + |q|) of the true one. Each slot therefore
 * gets an interval [lo, hi] holding its exact value with a wide margin (COSINE_MARGIN, twice the
 * distance bound, a relative slack for the function's own rounding). With T the k-th largest
 * `lo`, a slot whose `hi` is below T is strictly worse than at least k slots, so it can be neither
 * in the top k nor tied with its last member. Those bounds hold only for components that convert
 * to normal float32 numbers and whose squares neither overflow nor underflow in float64:
 * {@link exactlyServable} checks that for every stored vector and query.
 */
import { dotF32, type SimilarityFunction } from './similarity.js';
import type { SlotStore } from './slot-store.js';
import { TopK } from './top-k.js';

/** Absolute bound on |float32 cosine - float64 cosine| used for candidates (about 5x the error bound). */
const COSINE_MARGIN = 2e-6;
/** Relative slack on euclidean scores for the function's float64 rounding. */
const EUCLIDEAN_SLACK = 1e-11;
/** Twice float32's unit roundoff: the euclidean distance bound per unit of |x| + |q|, doubled. */
const EUCLIDEAN_ROUNDING = 2 ** -22;
/** Smallest and largest component magnitudes (besides 0) whose bounds above hold. */
const MIN_MAGNITUDE = 1e-30;
const MAX_MAGNITUDE = 1e30;

/**
 * True when the candidate bounds hold for `vector`: finite components, each 0 or of magnitude in
 * [1e-30, 1e30], and (cosine) not all zero, since the function answers null for a zero vector.
 */
export function exactlyServable(vector: ArrayLike<number>, similarity: SimilarityFunction): boolean {
  let nonZero = false;
  for (let i = 0; i < vector.length; i++) {
    const x = vector[i]!;
    if (x === 0) continue;
    const magnitude = Math.abs(x);
    if (!(magnitude >= MIN_MAGNITUDE && magnitude <= MAX_MAGNITUDE)) return false;
    nonZero = true;
  }
  return nonZero || similarity === 'euclidean';
}

/** A scan in progress over one store; `step` runs it a slice at a time. */
export class ExactCandidateScan {
  private slot = 0;
  private readonly end: number;
  private readonly top: TopK<number>;
  /** Slots that may still be candidates, with their upper bound (pairs: slot, hi). */
  private readonly kept: number[] = [];
  private readonly queryNorm: number;

  /**
   * @param store the collection's store when the scan began (later writes go to it or to a new one;
   *   the caller checks the collection's content version instead)
   * @param query the query as the collection prepares it (unit length for cosine)
   */
  constructor(
    private readonly store: SlotStore,
    private readonly similarity: SimilarityFunction,
    private readonly query: Float32Array,
    k: number,
  ) {
    if (!Number.isInteger(k) || k < 1) throw new RangeError(`the candidate scan needs k >= 1, got ${k}`);
    this.end = store.slotCount;
    this.top = new TopK<number>(k);
    let sum = 0;
    for (let i = 0; i < query.length; i++) sum += query[i]! * query[i]!;
    this.queryNorm = Math.sqrt(sum);
  }

  /** Scans up to `slots` more slots; true when the whole store has been scanned. */
  step(slots: number): boolean {
    const stop = Math.min(this.end, this.slot + slots);
    const data = this.store.raw;
    const d = this.store.dimensions;
    const query = this.query;
    const cosine = this.similarity === 'cosine';
    for (let slot = this.slot; slot < stop; slot++) {
      if (!this.store.isAlive(slot)) continue;
      const offset = slot * d;
      let lo: number;
      let hi: number;
      if (cosine) {
        const value = dotF32(query, data, offset, d);
        lo = value - COSINE_MARGIN;
        hi = value + COSINE_MARGIN;
      } else {
        let sum = 0;
        let norm = 0;
        for (let i = 0; i < d; i++) {
          const x = data[offset + i]!;
          const diff = query[i]! - x;
          sum += diff * diff;
          norm += x * x;
        }
        const distance = Math.sqrt(sum);
        const error = EUCLIDEAN_ROUNDING * (Math.sqrt(norm) + this.queryNorm);
        const far = distance + error;
        const near = Math.max(0, distance - error);
        lo = (1 / (1 + far * far)) * (1 - EUCLIDEAN_SLACK);
        hi = (1 / (1 + near * near)) * (1 + EUCLIDEAN_SLACK);
      }
      this.top.push(lo, slot);
      if (hi >= this.top.threshold) this.kept.push(slot, hi);
    }
    this.slot = stop;
    return stop >= this.end;
  }

  /** Node ids of the candidates (call once `step` returned true), in slot order. */
  candidates(): bigint[] {
    const threshold = this.top.threshold;
    const out: bigint[] = [];
    for (let i = 0; i < this.kept.length; i += 2) {
      if (this.kept[i + 1]! >= threshold) out.push(this.store.ownerOf(this.kept[i]!));
    }
    return out;
  }
}
