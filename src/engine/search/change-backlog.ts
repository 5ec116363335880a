/**
 * Committed change events waiting to be applied to a database's search indexes. A large commit's
 * events are queued here and applied in slices of SLICE_MS on later turns of the event loop,
 * so indexing a LOAD CSV batch or a bulk import never holds the loop; `catchUp()` applies the rest
 * at once (reads call it first, so they see every commit).
 */
import { SLICE_MS, yieldToLoop } from '../mvcc/lifecycle/clock.js';
import type { ChangeEvent } from '../storage/graph-store.js';

/** Events applied between two looks at the clock. */
const EVENTS_PER_CHECK = 32;

/** A queue of committed change events, applied in order. */
export class ChangeBacklog {
  private events: ChangeEvent[] = [];
  private at = 0;
  private scheduled = false;
  private applying = false;

  constructor(
    /** Applies `events[from, to)` to the indexes. */
    private readonly applyRange: (events: readonly ChangeEvent[], from: number, to: number) => void,
    private readonly onError: (error: unknown) => void,
  ) {}

  /** Events queued and not yet applied. */
  get size(): number {
    return this.events.length - this.at;
  }

  /** Queues the events `keep` accepts; they are applied in slices from the next turn of the loop. */
  push(events: readonly ChangeEvent[], keep: (event: ChangeEvent) => boolean): void {
    for (const event of events) if (keep(event)) this.events.push(event);
    this.schedule();
  }

  /** Applies every queued event now (no-op while a slice is applying). */
  catchUp(): void {
    if (!this.applying && this.size > 0) this.drain(Infinity);
  }

  /** Resolves once nothing is queued (the slices run meanwhile, without holding the loop). */
  async caughtUp(): Promise<void> {
    while (this.size > 0) await yieldToLoop();
  }

  private schedule(): void {
    if (this.scheduled || this.size === 0) return;
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      this.drain(SLICE_MS);
      this.schedule();
    });
  }

  /** Applies queued events for at most `budgetMs` (an event that fails is reported and skipped). */
  private drain(budgetMs: number): void {
    const deadline = performance.now() + budgetMs;
    this.applying = true;
    try {
      while (this.at < this.events.length) {
        const from = this.at;
        const to = Math.min(this.events.length, from + EVENTS_PER_CHECK);
        this.at = to;
        try {
          this.applyRange(this.events, from, to);
        } catch (error) {
          this.onError(error);
        }
        if (performance.now() >= deadline) break;
      }
    } finally {
      this.applying = false;
    }
    if (this.at === this.events.length) {
      this.events = [];
      this.at = 0;
    }
  }
}
