/**
 * The rows of SHOW TRANSACTIONS, TERMINATE TRANSACTIONS and SHOW SETTINGS (every column of the
 * target's full set, see `planner/show-columns.ts`). The transaction registry behind
 * `ctx.admin.transactions` is already bound to the user running the statement: admins see every
 * transaction, other users their own.
 */
import { CypherTypeError, StatusCodes, graphError } from '../../errors/index.js';
import { CypherDuration } from '../../values/types.js';
import type { CypherValue } from '../../values/types.js';
import type { TransactionAdmin } from './admin-hooks.js';
import type { Evaluator } from './expressions/evaluator.js';
import type { ExecutionContext } from './execution-context.js';
import type { Row } from './row.js';

/** The ids or names a command was given (a string, a list of strings, or a parameter holding one). */
function nameList(name: Evaluator | null, ctx: ExecutionContext, what: string): string[] | null {
  if (name === null) return null;
  const value: CypherValue = name({}, ctx);
  if (typeof value === 'string') return [value];
  if (Array.isArray(value) && value.every((item): item is string => typeof item === 'string')) return [...value];
  throw new CypherTypeError(`Expected a string or a list of strings as ${what}, got ${value === null ? 'null' : typeof value}`);
}

/** The names a SHOW ROLE|USER names PRIVILEGES command was given (null: none). */
export function nameStrings(name: Evaluator | null, ctx: ExecutionContext): string[] | null {
  return nameList(name, ctx, 'names');
}

function transactions(ctx: ExecutionContext): TransactionAdmin {
  const admin = ctx.admin.transactions;
  if (admin === undefined) throw graphError(StatusCodes.UnsupportedOperation, 'Transaction administration is not available here');
  return admin;
}

/** Milliseconds as a DURATION (seconds and nanoseconds). */
function duration(ms: number): CypherDuration {
  const seconds = Math.floor(ms / 1000);
  return new CypherDuration(0, 0, BigInt(seconds), Math.round((ms - seconds * 1000) * 1e6));
}

function isoTime(ms: number): string {
  return new Date(ms).toISOString();
}

/** SHOW TRANSACTIONS [ids]. */
export function transactionRows(name: Evaluator | null, ctx: ExecutionContext): Row[] {
  const ids = nameList(name, ctx, 'transaction ids');
  return transactions(ctx)
    .list(ids)
    .map((t) => ({
      database: t.database,
      transactionId: t.transactionId,
      currentQueryId: t.currentQueryId,
      connectionId: t.connectionId,
      clientAddress: t.clientAddress,
      username: t.username,
      currentQuery: t.currentQuery,
      startTime: isoTime(t.startTime),
      status: t.status,
      elapsedTime: duration(t.elapsedMs),
      outerTransactionId: '',
      metaData: t.metaData,
      parameters: t.parameters,
      currentQueryStartTime: t.currentQueryStartTime === null ? '' : isoTime(t.currentQueryStartTime),
      protocol: t.protocol,
      requestUri: t.requestUri,
      currentQueryStatus: t.currentQueryStatus,
      statusDetails: '',
      activeLockCount: BigInt(t.activeLockCount),
      currentQueryElapsedTime: t.currentQueryElapsedMs === null ? null : duration(t.currentQueryElapsedMs),
      waitTime: duration(t.waitMs),
      idleTime: duration(t.idleMs),
    }));
}

/** TERMINATE TRANSACTIONS ids: one outcome row per distinct id. */
export function terminationRows(name: Evaluator | null, ctx: ExecutionContext): Row[] {
  const ids = nameList(name, ctx, 'transaction ids') ?? [];
  return transactions(ctx)
    .terminate(ids)
    .map((o) => ({ transactionId: o.transactionId, username: o.username, message: o.message }));
}

/** SHOW SETTINGS [names]. */
export function settingRows(name: Evaluator | null, ctx: ExecutionContext): Row[] {
  const names = nameList(name, ctx, 'setting names');
  const wanted = names === null ? null : new Set(names);
  return (ctx.admin.settings?.() ?? []).filter((setting) => wanted === null || wanted.has(setting.name)).map((setting) => ({ ...setting }));
}
