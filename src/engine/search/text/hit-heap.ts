/** Helpers of the compact engine: galloping search in sorted postings and a bounded best-k heap. */
import { compareHits, type TextHit } from './inverted-index.js';

/** Position of the first entry at or after `from` whose docNo is >= `target` (exponential then binary search). */
export function gallop(docs: Int32Array, length: number, from: number, target: number): number {
  if (from >= length || docs[from]! >= target) return from;
  let step = 1;
  let low = from;
  let high = from + 1;
  while (high < length && docs[high]! < target) {
    low = high;
    step *= 2;
    high = from + step;
  }
  high = Math.min(high, length);
  while (low < high) {
    const mid = (low + high) >>> 1;
    if (docs[mid]! < target) low = mid + 1;
    else high = mid;
  }
  return low;
}

/** Bounded best-k heap ordered by (score desc, node id asc), the order results are reported in. */
export class HitHeap {
  readonly scores: number[] = [];
  readonly nodes: bigint[] = [];
  constructor(private readonly k: number) {}

  get full(): boolean {
    return this.scores.length >= this.k;
  }

  get threshold(): number {
    return this.full ? this.scores[0]! : -Infinity;
  }

  /** True when entry `i` ranks below (score, node). */
  private worse(i: number, score: number, node: bigint): boolean {
    return compareHits({ score: this.scores[i]!, nodeId: this.nodes[i]! }, { score, nodeId: node }) > 0;
  }

  push(score: number, node: bigint): void {
    if (this.k <= 0) return;
    if (!this.full) {
      this.scores.push(score);
      this.nodes.push(node);
      let i = this.scores.length - 1;
      while (i > 0) {
        const parent = (i - 1) >> 1;
        if (!this.worse(i, this.scores[parent]!, this.nodes[parent]!)) break;
        this.swap(i, parent);
        i = parent;
      }
      return;
    }
    if (!this.worse(0, score, node)) return;
    this.scores[0] = score;
    this.nodes[0] = node;
    let i = 0;
    for (;;) {
      const left = 2 * i + 1;
      const right = left + 1;
      let worst = i;
      if (left < this.scores.length && this.worse(left, this.scores[worst]!, this.nodes[worst]!)) worst = left;
      if (right < this.scores.length && this.worse(right, this.scores[worst]!, this.nodes[worst]!)) worst = right;
      if (worst === i) return;
      this.swap(i, worst);
      i = worst;
    }
  }

  private swap(i: number, j: number): void {
    [this.scores[i], this.scores[j]] = [this.scores[j]!, this.scores[i]!];
    [this.nodes[i], this.nodes[j]] = [this.nodes[j]!, this.nodes[i]!];
  }

  sorted(): TextHit[] {
    return this.scores.map((score, i) => ({ nodeId: this.nodes[i]!, score })).sort(compareHits);
  }
}
