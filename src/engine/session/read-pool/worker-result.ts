/**
 * The ResultStream of a statement running on a read worker: records are pulled from the worker
 * on demand (at most a thousand per message) and rebuilt on this thread. Ending it early
 * (discard, termination, the transaction's failure) tells the worker to stop and release its
 * snapshot.
 */
import type { CypherValue } from '../../values/types.js';
import { fromTransfer, type TransferValue } from '../../values/transfer.js';
import { ZERO_COUNTERS } from '../result-stream.js';
import type { ResultStream, ResultSummary } from '../types.js';

/** How a result talks to its worker. */
export interface WorkerChannel {
  /** Up to `count` more records (`count` < 0: as many as the worker sends at once). */
  pull(count: number): Promise<{ readonly records: readonly (readonly TransferValue[])[]; readonly done: boolean }>;
  /** Stops the statement on the worker (`reason` null: discarded). */
  close(reason: string | null): void;
}

/** Everything a WorkerResult needs. */
export interface WorkerResultOptions {
  readonly channel: WorkerChannel;
  readonly keys: readonly string[];
  /** The records the worker sent with the start (its error, when the statement failed producing them). */
  readonly first: {
    readonly records: readonly (readonly TransferValue[])[];
    readonly done: boolean;
    readonly error?: Error;
  };
  readonly database: string;
  readonly startedAt: number;
  readonly availableAfter: number;
  /** Called once when the records are exhausted or discarded (null) or on error. */
  readonly finish: (error: unknown) => Promise<void>;
}

/** Records of a statement that runs on a read worker. */
export class WorkerResult implements ResultStream {
  readonly keys: readonly string[];
  private done = false;
  private failed: { readonly error: unknown } | null = null;
  private consumedAt: number | null = null;
  /** Records received and not yet pulled, then whether the worker ended (or failed) after them. */
  private buffered: (readonly TransferValue[])[];
  private bufferedDone: boolean;
  private bufferedError: Error | undefined;

  constructor(private readonly options: WorkerResultOptions) {
    this.keys = options.keys;
    this.buffered = [...options.first.records];
    this.bufferedDone = options.first.done;
    this.bufferedError = options.first.error;
  }

  /** The next records: what the worker sent already, else a new batch from it. */
  private async next(count: number): Promise<{ readonly records: readonly (readonly TransferValue[])[]; readonly done: boolean }> {
    if (this.buffered.length > 0) {
      const records = count < 0 ? this.buffered : this.buffered.slice(0, count);
      this.buffered = this.buffered.slice(records.length);
      return { records, done: this.buffered.length === 0 && this.bufferedDone && this.bufferedError === undefined };
    }
    if (this.bufferedError !== undefined) throw this.bufferedError;
    if (this.bufferedDone) return { records: [], done: true };
    return this.options.channel.pull(count);
  }

  async pull(n: number): Promise<{ records: readonly (readonly CypherValue[])[]; hasMore: boolean }> {
    if (this.failed !== null) throw this.failed.error;
    const limit = n < 0 ? Infinity : n;
    const records: CypherValue[][] = [];
    try {
      while (!this.done && records.length < limit) {
        const batch = await this.next(limit === Infinity ? -1 : limit - records.length);
        if (this.finished) throw this.endedError();
        for (const record of batch.records) records.push(record.map(fromTransfer));
        if (batch.done) this.done = true;
      }
    } catch (error) {
      await this.fail(error);
      throw error;
    }
    if (this.done) await this.complete();
    return { records, hasMore: !this.done };
  }

  async discard(): Promise<ResultSummary> {
    if (this.failed !== null) throw this.failed.error;
    if (!this.done) {
      this.done = true;
      if (!this.bufferedDone) this.options.channel.close(null);
    }
    await this.complete();
    return this.summary();
  }

  /** Stops the statement with an error (termination, or its transaction ended under it). */
  async fail(error: unknown): Promise<void> {
    if (this.failed !== null || this.consumedAt !== null) return;
    this.failed = { error };
    if (!this.done) {
      this.done = true;
      if (!this.bufferedDone) this.options.channel.close(error instanceof Error ? error.message : String(error));
    }
    await this.options.finish(error);
  }

  /** True once the statement finished (successfully or not). */
  get finished(): boolean {
    return this.consumedAt !== null || this.failed !== null;
  }

  summary(): ResultSummary {
    return {
      database: this.options.database,
      queryType: 'r',
      counters: { ...ZERO_COUNTERS, systemUpdates: 0, containsUpdates: false },
      notifications: [],
      resultAvailableAfter: this.options.availableAfter,
      resultConsumedAfter: (this.consumedAt ?? Date.now()) - this.options.startedAt,
    };
  }

  /** Why a pull that was under way cannot go on (the statement ended meanwhile). */
  private endedError(): Error {
    const failure = this.failed?.error;
    return failure instanceof Error ? failure : new Error('The result was discarded');
  }

  private async complete(): Promise<void> {
    if (this.consumedAt !== null) return;
    this.consumedAt = Date.now();
    await this.options.finish(null);
  }
}
