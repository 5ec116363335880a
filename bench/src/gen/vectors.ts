/**
 * Seeded 384-d embeddings with a low intrinsic dimension, like sentence embeddings: a latent point
 * (a cluster centre plus spread) is pushed through a fixed random two-layer map with a tanh, plus a
 * little isotropic noise, then normalised. Clusters alone would be too easy for ANN indexes; the
 * non-linear manifold keeps neighbours ambiguous. Ground truth is exact top-k by cosine.
 */
import { Rng } from '../rng.js';

/** A set of unit vectors stored row-major. */
export interface VectorSet {
  readonly dim: number;
  readonly count: number;
  readonly data: Float32Array;
}

const LATENT_DIM = 16;
const HIDDEN_DIM = 64;
const CLUSTERS = 48;
const NOISE = 0.08;

/** Generates `count` base vectors and `queries` query vectors from the same distribution. */
export function generateVectors(seed: number, dim: number, count: number, queries: number): { base: VectorSet; queries: VectorSet } {
  const rng = new Rng(seed);
  const w1 = gaussianMatrix(rng, HIDDEN_DIM, LATENT_DIM, 1 / Math.sqrt(LATENT_DIM));
  const w2 = gaussianMatrix(rng, dim, HIDDEN_DIM, 1 / Math.sqrt(HIDDEN_DIM));
  const centres = gaussianMatrix(rng, CLUSTERS, LATENT_DIM, 1.5);
  const make = (n: number, r: Rng): VectorSet => {
    const data = new Float32Array(n * dim);
    const z = new Float64Array(LATENT_DIM);
    const h = new Float64Array(HIDDEN_DIM);
    for (let i = 0; i < n; i++) {
      const c = r.int(CLUSTERS);
      for (let k = 0; k < LATENT_DIM; k++) z[k] = centres[c * LATENT_DIM + k] + r.gaussian();
      for (let j = 0; j < HIDDEN_DIM; j++) {
        let s = 0;
        for (let k = 0; k < LATENT_DIM; k++) s += w1[j * LATENT_DIM + k] * z[k];
        h[j] = Math.tanh(s);
      }
      let norm = 0;
      const row = i * dim;
      for (let d = 0; d < dim; d++) {
        let s = NOISE * r.gaussian();
        for (let j = 0; j < HIDDEN_DIM; j++) s += w2[d * HIDDEN_DIM + j] * h[j];
        data[row + d] = s;
        norm += s * s;
      }
      const inv = 1 / Math.sqrt(norm);
      for (let d = 0; d < dim; d++) data[row + d] *= inv;
    }
    return { dim, count: n, data };
  };
  return { base: make(count, new Rng(seed ^ 0xba5e)), queries: make(queries, new Rng(seed ^ 0x9e77)) };
}

function gaussianMatrix(rng: Rng, rows: number, cols: number, scale: number): Float64Array {
  const m = new Float64Array(rows * cols);
  for (let i = 0; i < m.length; i++) m[i] = rng.gaussian() * scale;
  return m;
}

/** Exact top-k (by dot product = cosine on unit vectors) of one query: a full scan, the bandwidth limit. */
export function exactTopK(base: VectorSet, query: Float32Array, k: number, filter?: (i: number) => boolean): number[] {
  const { dim, count, data } = base;
  const bestIds = new Int32Array(k).fill(-1);
  const bestScores = new Float64Array(k).fill(-Infinity);
  for (let i = 0; i < count; i++) {
    if (filter && !filter(i)) continue;
    let s = 0;
    const row = i * dim;
    for (let d = 0; d < dim; d++) s += data[row + d] * query[d];
    if (s <= bestScores[k - 1]) continue;
    let p = k - 1;
    while (p > 0 && bestScores[p - 1] < s) {
      bestScores[p] = bestScores[p - 1]!;
      bestIds[p] = bestIds[p - 1]!;
      p--;
    }
    bestScores[p] = s;
    bestIds[p] = i;
  }
  return Array.from(bestIds).filter((id) => id >= 0);
}

/** The i-th row of a vector set (a view, no copy). */
export function row(set: VectorSet, i: number): Float32Array {
  return set.data.subarray(i * set.dim, (i + 1) * set.dim);
}

/** Exact top-k ground truth of every query. */
export function groundTruth(base: VectorSet, queries: VectorSet, k: number): number[][] {
  const truth: number[][] = [];
  for (let q = 0; q < queries.count; q++) truth.push(exactTopK(base, row(queries, q), k));
  return truth;
}

/** recall@k of `found` against the first k ids of `truth`. */
export function recallAt(k: number, found: readonly number[], truth: readonly number[]): number {
  const want = new Set(truth.slice(0, k));
  let hit = 0;
  for (const id of found.slice(0, k)) if (want.has(id)) hit++;
  return hit / k;
}
