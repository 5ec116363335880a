/** Keeps the `k` best (highest-scoring) items seen, with a binary min-heap on score. */
export class TopK<T> {
  private readonly scores: number[] = [];
  private readonly items: T[] = [];

  constructor(private readonly k: number) {}

  /** The lowest score currently kept once full; -Infinity before. */
  get threshold(): number {
    return this.scores.length < this.k ? -Infinity : this.scores[0]!;
  }

  push(score: number, item: T): void {
    if (this.k <= 0) return;
    if (this.scores.length < this.k) {
      this.scores.push(score);
      this.items.push(item);
      this.siftUp(this.scores.length - 1);
    } else if (score > this.scores[0]!) {
      this.scores[0] = score;
      this.items[0] = item;
      this.siftDown(0);
    }
  }

  /** Kept items, best first. */
  sorted(): { score: number; item: T }[] {
    return this.scores.map((score, i) => ({ score, item: this.items[i]! })).sort((a, b) => b.score - a.score);
  }

  private swap(i: number, j: number): void {
    [this.scores[i], this.scores[j]] = [this.scores[j]!, this.scores[i]!];
    [this.items[i], this.items[j]] = [this.items[j]!, this.items[i]!];
  }

  private siftUp(i: number): void {
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (this.scores[parent]! <= this.scores[i]!) return;
      this.swap(i, parent);
      i = parent;
    }
  }

  private siftDown(i: number): void {
    const n = this.scores.length;
    for (;;) {
      const left = 2 * i + 1;
      const right = left + 1;
      let smallest = i;
      if (left < n && this.scores[left]! < this.scores[smallest]!) smallest = left;
      if (right < n && this.scores[right]! < this.scores[smallest]!) smallest = right;
      if (smallest === i) return;
      this.swap(i, smallest);
      i = smallest;
    }
  }
}
