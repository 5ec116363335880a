/**
 * Time slicing for long synchronous work (bulk-load commits, change events of large
 * transactions): the work checks `due` every few hundred items and, once its slice is used up,
 * awaits `yield()`, which gives the event loop back so other requests run in between.
 *
 * ```ts
 * const slice = new TimeSlice();
 * for (let i = 0; i < rows.length; i++) {
 *   write(rows[i]);
 *   if ((i & 255) === 255 && slice.due) await slice.yield();
 * }
 * ```
 */
import { SLICE_MS, yieldToLoop } from '../mvcc/lifecycle/clock.js';

/** A budget of synchronous work between two turns of the event loop. */
export class TimeSlice {
  private deadline: number;

  constructor(private readonly sliceMs: number = SLICE_MS) {
    this.deadline = performance.now() + sliceMs;
  }

  /** True once the current slice is used up. */
  get due(): boolean {
    return performance.now() >= this.deadline;
  }

  /** Gives the event loop back and starts a new slice. */
  async yield(): Promise<void> {
    await yieldToLoop();
    this.deadline = performance.now() + this.sliceMs;
  }
}
