/**
 * Neo4j's change data capture procedures over the captured commit history (see
 * storage/change-capture.ts): `db.cdc.current()`, `db.cdc.earliest()` and
 * `db.cdc.query(from, selectors)`.
 *
 * Change identifiers are opaque strings naming a position in one database's history: the
 * database id, a commit version and the change's sequence number in that commit (the end of a
 * commit for `current`/`earliest`). They stay valid across restarts; an identifier of another
 * database, one older than the capture floor (pruned, or before capture was enabled) or one from
 * the future is `Neo.ClientError.ChangeDataCapture.InvalidIdentifier`.
 */
import { ArgumentError, ClientError, StatusCodes, graphError } from '../../errors/index.js';
import type { ChangeLog } from '../../storage/database-store.js';
import type { CypherMap, CypherValue } from '../../values/types.js';
import { matchesSelector, parseSelector, type ChangeSelector } from './cdc-selectors.js';
import type { ProcedureContext, ProcedureDefinition } from './registry.js';
import { valueText } from '../../values/to-string.js';

const END_OF_COMMIT = 0xffffffff;
const BATCH = 1000;

/** A decoded change identifier. */
interface Position {
  readonly database: string;
  readonly version: bigint;
  readonly seq: number;
}

function encodeId(position: Position): string {
  const buffer = Buffer.alloc(28);
  Buffer.from(position.database.replace(/-/g, ''), 'hex').copy(buffer, 0, 0, 16);
  buffer.writeBigUInt64BE(position.version, 16);
  buffer.writeUInt32BE(position.seq, 24);
  return buffer.toString('base64url');
}

function invalid(message: string): ClientError {
  return new ClientError(StatusCodes.InvalidChangeIdentifier, message);
}

function decodeId(id: string, database: string): Position {
  const buffer = Buffer.from(id, 'base64url');
  if (buffer.length !== 28 || buffer.toString('base64url') !== id) throw invalid(`Invalid change identifier: '${id}'.`);
  const owner = buffer.subarray(0, 16).toString('hex');
  if (owner !== database.replace(/-/g, '')) throw invalid(`The change identifier '${id}' belongs to another database.`);
  return { database, version: buffer.readBigUInt64BE(16), seq: buffer.readUInt32BE(24) };
}

function changeLogOf(ctx: ProcedureContext): ChangeLog {
  const log = ctx.admin?.changeLog?.(ctx.databaseName);
  if (log === undefined) throw graphError(StatusCodes.ProcedureCallFailed, 'Change data capture is not available in this engine.');
  return log;
}

function databaseId(ctx: ProcedureContext): string {
  return ctx.reader.nodeElementId(0n).split(':')[1] ?? '';
}

/** The end of the commit the calling transaction sees. */
function currentId(ctx: ProcedureContext): string {
  return encodeId({ database: databaseId(ctx), version: ctx.reader.version, seq: END_OF_COMMIT });
}

function* query(ctx: ProcedureContext, log: ChangeLog, from: Position, selectors: readonly ChangeSelector[]): Iterable<CypherValue[]> {
  let cursor = from;
  const upTo = ctx.reader.version;
  for (;;) {
    const batch = log.read(cursor.version, cursor.seq === END_OF_COMMIT ? Number.MAX_SAFE_INTEGER : cursor.seq, upTo, BATCH);
    for (const change of batch) {
      if (selectors.length > 0 && !selectors.some((s) => matchesSelector(s, change.event, change.metadata))) continue;
      const id = encodeId({ database: from.database, version: change.version, seq: change.seq });
      yield [id, change.version, BigInt(change.seq), change.metadata, change.event];
    }
    if (batch.length < BATCH) return;
    const last = batch[batch.length - 1]!;
    cursor = { database: from.database, version: last.version, seq: last.seq };
  }
}

/** The CDC procedures. */
export const cdcProcedures: readonly ProcedureDefinition[] = [
  {
    name: 'db.cdc.current',
    inputs: [],
    outputs: [{ name: 'id', type: 'STRING' }],
    mode: 'READ',
    description: 'Returns the change identifier for the last committed transaction.',
    call: (_args, ctx) => [[currentId(ctx)]],
  },
  {
    name: 'db.cdc.earliest',
    inputs: [],
    outputs: [{ name: 'id', type: 'STRING' }],
    mode: 'READ',
    description: 'Returns the change identifier for the earliest available change.',
    call: (_args, ctx) => {
      const log = changeLogOf(ctx);
      const floor = log.floor > ctx.reader.version ? ctx.reader.version : log.floor;
      return [[encodeId({ database: databaseId(ctx), version: floor, seq: END_OF_COMMIT })]];
    },
  },
  {
    name: 'db.cdc.query',
    inputs: [
      { name: 'from', type: 'STRING', default: '' },
      { name: 'selectors', type: 'LIST<MAP>', default: [] },
    ],
    outputs: [
      { name: 'id', type: 'STRING' },
      { name: 'txId', type: 'INTEGER' },
      { name: 'seq', type: 'INTEGER' },
      { name: 'metadata', type: 'MAP' },
      { name: 'event', type: 'MAP' },
    ],
    mode: 'READ',
    description: 'Query changes happened from the provided change identifier.',
    call(args, ctx) {
      const log = changeLogOf(ctx);
      if (log.mode === 'OFF') {
        throw graphError(
          StatusCodes.ProcedureCallFailed,
          `Change data capture is not enabled for database '${ctx.databaseName}' (ALTER DATABASE ${ctx.databaseName} SET OPTION txLogEnrichment 'FULL').`,
        );
      }
      const text = args[0];
      const database = databaseId(ctx);
      const from =
        typeof text === 'string' && text !== '' ? decodeId(text, database) : { database, version: log.floor, seq: END_OF_COMMIT };
      if (from.version < log.floor)
        throw invalid(
          `The change identifier '${valueText(text)}' is no longer available: the earliest change is after it (see db.cdc.earliest()).`,
        );
      if (from.version > ctx.reader.version)
        throw invalid(`The change identifier '${valueText(text)}' is ahead of the last committed transaction.`);
      const raw = args[1];
      if (raw !== null && !Array.isArray(raw)) throw new ArgumentError('db.cdc.query selectors must be a list of maps');
      const selectors = (raw ?? []).map((s: CypherValue) => parseSelector(s as CypherMap));
      return query(ctx, log, from, selectors);
    },
  },
];
