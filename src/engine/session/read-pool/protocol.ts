/**
 * Messages between the engine and its read workers (read-pool.ts, read-worker.ts). Values travel
 * in their copyable form (values/transfer.ts); times as epoch milliseconds, since each thread's
 * `performance.now()` has its own origin.
 */
import type { TransferValue } from '../../values/transfer.js';

/** What a worker is started with. */
export interface ReadWorkerData {
  /** Default time zone of temporal functions. */
  readonly defaultTimeZone: string;
  /** `dbms.memory.query_cache.max_size` in bytes. */
  readonly queryCacheMaxBytes: number;
  /** `dbms.memory.regex_cache.max_size` in bytes. */
  readonly regexCacheMaxBytes: number;
  /** `db.memory.transaction.max` in bytes. */
  readonly transactionMaxBytes: number;
  /** Bytes all statements of the worker may hold together. */
  readonly totalMaxBytes: number;
  /** Import directory (required by the execution context; LOAD CSV never runs in a worker). */
  readonly importDir: string;
}

/** Starts a read statement. */
export interface RunRequest {
  readonly type: 'run';
  readonly id: number;
  readonly database: string;
  readonly file: string;
  readonly query: string;
  readonly parameters: ReadonlyMap<string, TransferValue>;
  /** Epoch ms after which the statement times out (Infinity: none). */
  readonly deadline: number;
  /** Epoch ms the transaction started (`datetime.transaction()`). */
  readonly transactionStart: number;
}

/** Asks for up to `count` more records (`count` < 0: all). */
export interface PullRequest {
  readonly type: 'pull';
  readonly id: number;
  readonly count: number;
}

/**
 * Ends a statement early: discarded (no reason) or terminated (the reason). With a `code` (the
 * MVCC lifecycle cancelled the statement's snapshot) the statement fails with that code at its
 * next check or pull, whether it is running or waiting for the next pull.
 */
export interface CloseRequest {
  readonly type: 'close';
  readonly id: number;
  readonly reason: string | null;
  readonly code?: string;
}

/** Closes the worker's connections to a database file that was replaced or dropped. */
export interface ForgetFileRequest {
  readonly type: 'forget';
  readonly file: string;
}

/** Engine → worker. */
export type WorkerRequest = RunRequest | PullRequest | CloseRequest | ForgetFileRequest;

/** An error in its copyable form. */
export interface TransferError {
  readonly code: string;
  readonly message: string;
  readonly detail?: string;
}

/** Records of a statement: the next ones, whether it ended, and its error when it failed producing them. */
export interface RecordBatch {
  readonly records: readonly (readonly TransferValue[])[];
  readonly done: boolean;
  readonly error?: TransferError;
}

/** Worker → engine. */
export type WorkerReply =
  /** The statement started; `first` is its first batch of records (or the error that ended it). */
  | {
      readonly type: 'started';
      readonly id: number;
      readonly keys: readonly string[];
      readonly availableAfter: number;
      readonly first: RecordBatch;
    }
  /** The worker cannot run this statement as the engine would (it writes, or needs the engine's services). */
  | { readonly type: 'declined'; readonly id: number }
  | { readonly type: 'records'; readonly id: number; readonly records: readonly (readonly TransferValue[])[]; readonly done: boolean }
  | { readonly type: 'failed'; readonly id: number; readonly error: TransferError };
