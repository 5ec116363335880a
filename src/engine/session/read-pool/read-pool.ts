/**
 * The engine's pool of read workers (read-worker.ts): auto-commit read statements run on worker
 * threads with their own SQLite connections, so one statement blocked in a storage call (a lock
 * held by another process, a stalled disk) never stalls the other sessions, and reads use more
 * than one core. A statement goes to the least busy worker; workers start on first use, and one
 * that dies (out of memory in its own heap) fails its statements and is replaced.
 */
import { Worker } from 'node:worker_threads';
import { getHeapStatistics } from 'node:v8';
import { StatusCodes, TransientError, GraphError, graphError } from '../../errors/index.js';
import { toTransfer, type TransferValue } from '../../values/transfer.js';
import type { CypherValue } from '../../values/types.js';
import type { Pin } from '../../mvcc/snapshot-registry.js';
import type { ReadWorkerData, TransferError, WorkerReply, WorkerRequest } from './protocol.js';
import { WorkerResult, type WorkerChannel } from './worker-result.js';

/** What a statement needs to start on a worker. */
export interface RemoteRead {
  readonly database: string;
  readonly file: string;
  readonly query: string;
  readonly parameters: ReadonlyMap<string, CypherValue>;
  /** `performance.now()` deadline of this thread (Infinity: none). */
  readonly deadline: number;
  readonly transactionStart: number;
  /** Set while the statement starts: stops it (termination) before its result exists. */
  readonly cancel?: { cancel: ((error: Error) => void) | null };
  /**
   * The statement's reader pin in the engine's snapshot registry, so the MVCC lifecycle's reader
   * policy (maximum snapshot lifetime, hard expiry) sees and cancels it like a read on the
   * engine's thread: its cancellation fails the statement on the worker with the same error.
   * Released when the statement ends.
   */
  readonly pin?: Pin;
}

/** The error a worker reported, rebuilt (its classification follows from the code). */
function rebuild(error: TransferError): GraphError {
  return graphError(error.code, error.message, error.detail === undefined ? {} : { detail: error.detail });
}

/** Handlers of one statement's replies. */
interface Waiter {
  resolve(reply: WorkerReply): void;
  reject(error: Error): void;
}

/** One worker thread and the statements it runs. */
class PoolWorker {
  readonly worker: Worker;
  readonly waiters = new Map<number, Waiter>();
  /** Statements started and not finished. */
  open = 0;
  dead = false;

  constructor(entry: URL, data: ReadWorkerData, heapMiB: number, onExit: (worker: PoolWorker) => void) {
    const options = { workerData: data, resourceLimits: { maxOldGenerationSizeMb: heapMiB } };
    // Under tsx (tests, development) the worker registers tsx's loader before loading the source.
    this.worker = entry.pathname.endsWith('.ts')
      ? new Worker(`import('tsx/esm/api').then((tsx) => { tsx.register(); return import(${JSON.stringify(entry.href)}); });`, {
          ...options,
          eval: true,
        })
      : new Worker(entry, options);
    this.worker.unref();
    this.worker.on('message', (reply: WorkerReply) => {
      const waiter = this.waiters.get(reply.id);
      if (waiter === undefined) return;
      this.waiters.delete(reply.id);
      waiter.resolve(reply);
    });
    const died = (error?: Error): void => {
      if (this.dead) return;
      this.dead = true;
      const failure =
        error && (error as { code?: string }).code === 'ERR_WORKER_OUT_OF_MEMORY'
          ? new TransientError(StatusCodes.ResourcePressure, 'A read worker ran out of memory; the statement was stopped. Retry it.')
          : new TransientError(
              StatusCodes.DatabaseUnavailable,
              `A read worker stopped${error ? `: ${error.message}` : ''}. Retry the statement.`,
            );
      for (const waiter of this.waiters.values()) waiter.reject(failure);
      this.waiters.clear();
      onExit(this);
    };
    this.worker.on('error', died);
    this.worker.on('exit', () => died());
  }

  /** Sends `request` and resolves with the worker's reply to it. */
  ask(request: Exclude<WorkerRequest, { type: 'forget' }>): Promise<WorkerReply> {
    if (this.dead)
      return Promise.reject(new TransientError(StatusCodes.DatabaseUnavailable, 'A read worker stopped. Retry the statement.'));
    return new Promise((resolve, reject) => {
      this.waiters.set(request.id, { resolve, reject });
      this.worker.postMessage(request);
    });
  }

  tell(request: WorkerRequest): void {
    if (!this.dead) this.worker.postMessage(request);
  }
}

/** The worker entry: the compiled module next to this one, or the TypeScript source under tsx. */
function workerEntry(): URL {
  const self = import.meta.url;
  return new URL(self.endsWith('.ts') ? './read-worker.ts' : './read-worker.js', self);
}

/** A pool of read workers. */
export class ReadPool {
  private readonly workers: PoolWorker[] = [];
  private nextId = 1;
  private closed = false;
  private readonly heapMiB: number;

  /**
   * @param size workers at most
   * @param data what each worker starts with
   */
  constructor(
    readonly size: number,
    private readonly data: ReadWorkerData,
  ) {
    // Each worker has a heap of its own: a quarter of this process's limit, at least 64 MiB.
    this.heapMiB = Math.max(64, Math.floor(getHeapStatistics().heap_size_limit / 4 / 1024 / 1024));
  }

  /** Statements running on workers now. */
  get running(): number {
    return this.workers.reduce((sum, worker) => sum + worker.open, 0);
  }

  private pick(): PoolWorker {
    let best: PoolWorker | null = null;
    for (const worker of this.workers) if (best === null || worker.open < best.open) best = worker;
    if (best !== null && (best.open === 0 || this.workers.length >= this.size)) return best;
    const worker = new PoolWorker(workerEntry(), this.data, this.heapMiB, (dead) => {
      const at = this.workers.indexOf(dead);
      if (at >= 0) this.workers.splice(at, 1);
    });
    this.workers.push(worker);
    return worker;
  }

  /**
   * Starts `read` on a worker. Resolves with its result, or null when the worker declined it (the
   * caller runs it itself) or its parameters cannot be copied. `finish` runs once when it ends.
   */
  async run(read: RemoteRead, finish: (error: unknown) => Promise<void>): Promise<WorkerResult | null> {
    if (this.closed) return null;
    let parameters: Map<string, TransferValue>;
    try {
      parameters = new Map([...read.parameters].map(([name, value]) => [name, toTransfer(value)]));
    } catch {
      return null;
    }
    const worker = this.pick();
    const id = this.nextId++;
    const startedAt = Date.now();
    worker.open++;
    let ended = false;
    const end = async (error: unknown): Promise<void> => {
      if (ended) return;
      ended = true;
      worker.open--;
      read.pin?.release();
      await finish(error);
    };
    read.pin?.onCancel((error) => worker.tell({ type: 'close', id, reason: error.message, code: error.code }));
    const deadline = read.deadline === Infinity ? Infinity : performance.timeOrigin + read.deadline;
    let reply: WorkerReply;
    if (read.cancel !== undefined) read.cancel.cancel = (error) => worker.tell({ type: 'close', id, reason: error.message });
    try {
      reply = await worker.ask({
        type: 'run',
        id,
        database: read.database,
        file: read.file,
        query: read.query,
        parameters,
        deadline,
        transactionStart: read.transactionStart,
      });
    } catch (error) {
      await end(error);
      throw error;
    } finally {
      if (read.cancel !== undefined) read.cancel.cancel = null;
    }
    if (reply.type === 'declined') {
      ended = true;
      worker.open--;
      read.pin?.release();
      return null;
    }
    if (reply.type === 'failed') {
      const error = rebuild(reply.error);
      await end(error);
      throw error;
    }
    if (reply.type !== 'started') throw graphError(StatusCodes.UnknownError, `Unexpected read worker reply ${reply.type}`);
    const channel: WorkerChannel = {
      pull: async (count) => {
        const answer = await worker.ask({ type: 'pull', id, count });
        if (answer.type === 'failed') throw rebuild(answer.error);
        if (answer.type !== 'records') throw graphError(StatusCodes.UnknownError, `Unexpected read worker reply ${answer.type}`);
        return answer;
      },
      close: (reason) => worker.tell({ type: 'close', id, reason }),
    };
    return new WorkerResult({
      channel,
      keys: reply.keys,
      first: { records: reply.first.records, done: reply.first.done, ...(reply.first.error ? { error: rebuild(reply.first.error) } : {}) },
      database: read.database,
      startedAt,
      availableAfter: Date.now() - startedAt,
      finish: end,
    });
  }

  /** Tells every worker to close its connections to `file` (replaced or dropped); statements running on it finish first. */
  forgetFile(file: string): void {
    for (const worker of this.workers) worker.tell({ type: 'forget', file });
  }

  /** Stops every worker (their open statements fail). */
  async close(): Promise<void> {
    this.closed = true;
    await Promise.all(this.workers.splice(0).map((worker) => worker.worker.terminate()));
  }
}
