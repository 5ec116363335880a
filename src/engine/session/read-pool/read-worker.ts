/**
 * A read worker: a thread with its own better-sqlite3 connections (storage/replica-store.ts)
 * that parses, plans and runs auto-commit read statements the engine hands it (read-pool.ts),
 * through the same planner, operators and materialization as the engine's own thread. A
 * storage call that blocks here blocks this thread only; the engine keeps serving everyone else.
 *
 * Anything the worker cannot run exactly as the engine would (a statement that plans to a write,
 * an administration command, EXPLAIN/PROFILE, or that does not compile with the built-in
 * functions alone) is declined before it starts, and the engine runs it itself. Failures after
 * the start (storage faults, timeouts, memory limits, type errors) are the statement's own and
 * are reported as Neo4j errors.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { StatusCodes, toGraphError, graphError } from '../../errors/index.js';
import { ImportFiles } from '../../files/import-files.js';
import { MemoryPool, resolveMemoryLimits } from '../../cypher/memory/memory-tracker.js';
import { createFunctionRegistry } from '../../cypher/functions/index.js';
import { setRegexCacheMaxBytes } from '../../cypher/functions/user-regex.js';
import { ProcedureRegistry } from '../../cypher/procedures/registry.js';
import type { AdminHooks } from '../../cypher/runtime/admin-hooks.js';
import type { ExecutionContext } from '../../cypher/runtime/execution-context.js';
import { isSignal, type RowStream } from '../../cypher/runtime/row.js';
import { QueryCache } from '../../cypher/query-cache.js';
import { ReplicaStore } from '../../storage/replica-store.js';
import type { ReadTransaction } from '../../storage/snapshot-reader.js';
import { fromTransfer, toTransfer, type TransferValue } from '../../values/transfer.js';
import type { CypherValue } from '../../values/types.js';
import { materialize } from '../materialize.js';
import { TransactionClock } from '../transaction-clock.js';
import { createContext, execute, planFor, type EngineServices } from '../statement-execution.js';
import type { CloseRequest, PullRequest, ReadWorkerData, RecordBatch, RunRequest, WorkerReply, WorkerRequest } from './protocol.js';

/** Records sent per reply at most (the engine asks again for more). */
const RECORDS_PER_REPLY = 1000;

const data = workerData as ReadWorkerData;
const port = parentPort!;
const functions = createFunctionRegistry();
const procedures = new ProcedureRegistry();
const refuse = (): Promise<void> => Promise.reject(graphError(StatusCodes.InvalidRequest, 'Not available in a read worker'));
const admin: AdminHooks = { listDatabases: () => [], createDatabase: refuse, dropDatabase: refuse, procedures, functions };
const services: EngineServices = {
  admin,
  functions,
  defaultTimeZone: data.defaultTimeZone,
  files: new ImportFiles({ importDir: data.importDir, allowFileUrls: false, urlAllowlist: [] }),
  memory: workerMemory(),
};

/** The engine's memory limits, within what this worker's own heap allows. */
function workerMemory(): { pool: MemoryPool; transactionMax: number } {
  const own = resolveMemoryLimits();
  const pool = new MemoryPool(Math.min(data.totalMaxBytes, own.totalMax));
  return { pool, transactionMax: Math.min(data.transactionMaxBytes, own.transactionMax) };
}
const queries = new QueryCache({
  functions: (name) => functions.lookup(name),
  procedures: (name) => procedures.lookup(name),
  maxBytes: data.queryCacheMaxBytes,
});
setRegexCacheMaxBytes(data.regexCacheMaxBytes);
const stores = new Map<string, ReplicaStore>();

/** A started statement. */
interface Cursor {
  readonly keys: readonly string[];
  readonly rows: RowStream;
  readonly ctx: ExecutionContext;
  readonly reader: ReadTransaction;
  readonly clock: TransactionClock;
  pulling: boolean;
  closed: boolean;
}
const cursors = new Map<number, Cursor>();

function reply(message: WorkerReply): void {
  port.postMessage(message);
}

function transferError(error: unknown): WorkerReply & { type: 'failed' } {
  const graph = toGraphError(error);
  return { type: 'failed', id: 0, error: { code: graph.code, message: graph.message, ...(graph.detail ? { detail: graph.detail } : {}) } };
}

function fail(id: number, error: unknown): void {
  reply({ ...transferError(error), id });
}

function storeFor(request: RunRequest): ReplicaStore {
  let store = stores.get(request.file);
  if (store === undefined) {
    store = new ReplicaStore(request.database, request.file);
    stores.set(request.file, store);
  }
  return store;
}

function finish(id: number, cursor: Cursor): void {
  cursors.delete(id);
  cursor.closed = true;
  cursor.reader.close();
  cursor.ctx.memory.close();
}

function run(request: RunRequest): void {
  let compiled;
  try {
    compiled = queries.compile(request.query, new Set(request.parameters.keys()));
  } catch {
    reply({ type: 'declined', id: request.id });
    return;
  }
  let reader: ReadTransaction;
  try {
    reader = storeFor(request).beginRead();
  } catch (error) {
    fail(request.id, error);
    return;
  }
  let plan;
  try {
    plan = planFor(compiled.ast, reader, services);
  } catch {
    reader.close();
    reply({ type: 'declined', id: request.id });
    return;
  }
  if (plan.writes || plan.admin || plan.explain !== null) {
    reader.close();
    reply({ type: 'declined', id: request.id });
    return;
  }
  const startedAt = Date.now();
  const parameters = new Map<string, CypherValue>();
  for (const [name, value] of request.parameters) parameters.set(name, fromTransfer(value));
  const clock = new TransactionClock(request.deadline === Infinity ? Infinity : request.deadline - performance.timeOrigin);
  const ctx = createContext(request.database, reader, null, parameters, clock, services, request.transactionStart);
  let cursor: Cursor;
  try {
    const execution = execute(plan, ctx, services);
    cursor = { keys: plan.columns, rows: execution.rows, ctx, reader, clock, pulling: false, closed: false };
    cursors.set(request.id, cursor);
  } catch (error) {
    reader.close();
    ctx.memory.close();
    fail(request.id, error);
    return;
  }
  // The records of the first time slice travel with the start, so a small read costs one round
  // trip, not two; a read that needs longer is started after that slice, as on the engine's thread.
  const availableAfter = Date.now() - startedAt;
  void collect(request.id, cursor, RECORDS_PER_REPLY, true).then((first) =>
    reply({ type: 'started', id: request.id, keys: plan.columns, availableAfter, first }),
  );
}

/**
 * Up to `count` more records of `cursor` (`count` < 0: as many as one reply carries), or the
 * statement's error; the statement is finished when it ends or fails. `oneSlice`: stop at the
 * end of the first time slice too.
 */
async function collect(id: number, cursor: Cursor, count: number, oneSlice = false): Promise<RecordBatch> {
  cursor.pulling = true;
  const limit = Math.min(count < 0 ? Infinity : count, RECORDS_PER_REPLY);
  const records: TransferValue[][] = [];
  try {
    cursor.clock.checkAlive();
    while (records.length < limit) {
      const next = cursor.rows.next();
      if (next.done) {
        finish(id, cursor);
        return { records, done: true };
      }
      if (isSignal(next.value)) {
        await cursor.clock.yieldTurn();
        if (oneSlice) break;
        continue;
      }
      const row = next.value;
      records.push(cursor.keys.map((key) => toTransfer(materialize(row[key] ?? null, cursor.reader))));
    }
  } catch (error) {
    if (!cursor.closed) finish(id, cursor);
    return { records: [], done: true, error: transferError(error).error };
  } finally {
    cursor.pulling = false;
  }
  return { records, done: false };
}

async function pull(request: PullRequest): Promise<void> {
  const cursor = cursors.get(request.id);
  if (cursor === undefined || cursor.pulling) return;
  const batch = await collect(request.id, cursor, request.count);
  if (batch.error !== undefined) reply({ type: 'failed', id: request.id, error: batch.error });
  else reply({ type: 'records', id: request.id, records: batch.records, done: batch.done });
}

function close(request: CloseRequest): void {
  const cursor = cursors.get(request.id);
  if (cursor === undefined) return;
  if (request.code !== undefined) {
    cursor.clock.terminate(request.reason ?? 'The statement was cancelled.', request.code);
    return;
  }
  if (cursor.pulling) {
    // Fails at its next check (the reply is ignored: the engine already ended the statement).
    cursor.clock.terminate(request.reason ?? 'The statement was discarded.');
    return;
  }
  cursor.rows.return(undefined);
  finish(request.id, cursor);
}

/** Closes the idle connections to a replaced or dropped file; readers open on it close theirs when they end. */
function forget(file: string): void {
  stores.get(file)?.close();
  stores.delete(file);
}

port.on('message', (request: WorkerRequest) => {
  if (request.type === 'run') run(request);
  else if (request.type === 'pull') void pull(request);
  else if (request.type === 'forget') forget(request.file);
  else close(request);
});
