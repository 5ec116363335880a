/**
 * A build of a database's search indexes from a snapshot that runs in steps, so a server can
 * start answering at once and build in the background, a few milliseconds at a time, without
 * holding the event loop. Nodes changed by commits while the build runs are indexed by the change
 * events with their newer state; the build skips them so it never overwrites that state with the
 * snapshot's older one (nor re-adds a node deleted meanwhile).
 */
import type { GraphReader, NodeRecord } from '../storage/graph-store.js';

/** One build in progress. */
export class IndexBuild {
  private readonly ids: Iterator<bigint>;
  private readonly touched = new Set<bigint>();
  private indexed = 0;
  private done = false;
  /** Nodes in the snapshot (read on first progress request). */
  private total: number | null = null;

  constructor(
    private readonly reader: GraphReader,
    private readonly index: (node: NodeRecord) => void,
    private readonly finish: (reader: GraphReader) => void,
  ) {
    this.ids = reader.allNodeIds()[Symbol.iterator]();
  }

  /** True once every node of the snapshot has been indexed. */
  get finished(): boolean {
    return this.done;
  }

  /** Percentage done (0-99 while running, 100 when finished). */
  get progressPct(): number {
    if (this.done) return 100;
    this.total ??= this.reader.countNodes();
    return this.total === 0 ? 0 : Math.min(99, Math.floor((this.indexed * 100) / this.total));
  }

  /** A node changed by a commit during the build: the change events index it, the build skips it. */
  touch(nodeId: bigint): void {
    if (!this.done) this.touched.add(nodeId);
  }

  /** Indexes nodes for at most `budgetMs` (Infinity: to the end); true when finished. */
  step(budgetMs: number): boolean {
    if (this.done) return true;
    const deadline = performance.now() + budgetMs;
    for (let n = 0; ; n++) {
      if ((n & 63) === 63 && performance.now() >= deadline) return false;
      const next = this.ids.next();
      if (next.done) break;
      this.indexed++;
      if (this.touched.has(next.value)) continue;
      const node = this.reader.getNode(next.value);
      if (node !== null) this.index(node);
    }
    this.done = true;
    this.touched.clear();
    this.finish(this.reader);
    return true;
  }
}
