/**
 * Full-text hits and their ranking, shared by both engines: score descending, ties (up to
 * floating-point summation noise) by ascending node id.
 */

/** One scored hit. */
export interface TextHit {
  readonly nodeId: bigint;
  readonly score: number;
}

/**
 * Result order: higher score first; scores equal up to floating-point summation noise count as
 * ties, broken by ascending node id (so both engines, which add term scores in different orders,
 * rank identically).
 */
export function compareHits(a: TextHit, b: TextHit): number {
  const difference = b.score - a.score;
  if (Math.abs(difference) > 1e-9 * Math.max(1, Math.abs(a.score), Math.abs(b.score))) return difference;
  return a.nodeId < b.nodeId ? -1 : a.nodeId > b.nodeId ? 1 : 0;
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

/** The best `limit` of scored documents that pass `filter`, in result order. */
export function rankScores(
  scores: Map<number, number>,
  nodeOf: (docNo: number) => bigint,
  limit: number,
  filter?: (nodeId: bigint) => boolean,
): TextHit[] {
  const heap = new HitHeap(limit);
  for (const [docNo, score] of scores) {
    const node = nodeOf(docNo);
    if (filter === undefined || filter(node)) heap.push(score, node);
  }
  return heap.sorted();
}
