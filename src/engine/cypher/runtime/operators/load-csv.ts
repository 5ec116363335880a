/**
 * LOAD CSV: records streamed from a file inside the import directory or an allowlisted URL
 * (see `ImportFiles`), parsed chunk by chunk by the shared CSV reader. Nothing is read ahead of
 * what the rows above consume; each chunk checks the transaction timeout and termination, and a
 * record longer than `dbms.import.csv.buffer_size` fails instead of growing without end. What the
 * reader holds (the bytes of a record not yet complete, and the records parsed from the current
 * chunk until the rows above have taken them) is charged to the statement's memory tracker, so
 * `db.memory.transaction.max` bounds LOAD CSV like every other buffering operator.
 */
import { CypherTypeError, StatusCodes, graphError } from '../../../errors/index.js';
import { CsvRecordReader } from '../../../files/csv-reader.js';
import { SOURCE_WAIT } from '../../../files/import-files.js';
import { typeName } from '../../../values/kinds.js';
import type { CypherValue } from '../../../values/types.js';
import { estimateValueBytes } from '../../memory/estimate.js';
import type { LoadCsv } from '../../planner/logical/load-csv.js';
import type { ExecutionContext } from '../execution-context.js';
import { PAUSE, extendRow, isSignal } from '../row.js';
import type { Emission, Row, RowStream } from '../row.js';
import type { Mapper, PhysicalOperator } from './physical-operator.js';

/** The records of `url`, yielding PAUSE between chunks when the time slice is used up. */
function* records(url: string, fieldTerminator: string, ctx: ExecutionContext): Generator<string[] | typeof PAUSE, void, undefined> {
  const source = ctx.files.openSource(url);
  const reader = new CsvRecordReader(url, { fieldTerminator, maxRecordBytes: ctx.files.settings.csvBufferSize });
  /** Bytes of input not yet part of a complete record (charged while they are buffered). */
  let pending = 0;
  /** Bytes charged for the records of the current chunk. */
  let parsed = 0;
  try {
    for (;;) {
      ctx.scheduler.checkAlive();
      const chunk = source.read();
      if (chunk === SOURCE_WAIT) {
        ctx.scheduler.waitFor(source.pending ?? Promise.resolve());
        yield PAUSE;
        if (ctx.scheduler.waitPending) {
          throw graphError(
            StatusCodes.ExternalResourceFailed,
            `LOAD CSV from '${url}' cannot run inside an expression subquery (the URL is read asynchronously)`,
          );
        }
        continue;
      }
      if (chunk !== null) {
        ctx.memory.charge(chunk.length);
        pending += chunk.length;
      }
      const batch = chunk === null ? reader.end() : reader.push(chunk);
      if (batch.length > 0) {
        // The records now hold what was pending; what follows the last one is at most this chunk.
        const rest = chunk === null ? 0 : Math.min(pending, chunk.length);
        ctx.memory.release(pending - rest);
        pending = rest;
        let bytes = 0;
        for (const record of batch) bytes += estimateValueBytes(record);
        ctx.memory.charge(bytes);
        parsed = bytes;
      }
      for (const record of batch) {
        if (ctx.scheduler.tick()) yield PAUSE;
        yield record;
      }
      ctx.memory.release(parsed);
      parsed = 0;
      if (chunk === null) return;
      if (ctx.scheduler.tick()) yield PAUSE;
    }
  } finally {
    ctx.memory.release(pending + parsed);
    source.close();
    reader.close();
  }
}

function* loadRows(row: Row, op: LoadCsv, url: string, ctx: ExecutionContext): Generator<Emission, void, undefined> {
  let header: string[] | null = null;
  for (const record of records(url, op.fieldTerminator, ctx)) {
    if (record === PAUSE) {
      yield PAUSE;
      continue;
    }
    if (!op.withHeaders) {
      yield extendRow(row, op.variable, record);
      continue;
    }
    if (header === null) {
      header = record;
      continue;
    }
    const fields = record;
    yield extendRow(row, op.variable, new Map(header.map((h, i) => [h, fields[i] ?? null] as [string, CypherValue])));
  }
}

/** LoadCsv. */
export function mapLoadCsv(op: LoadCsv, m: Mapper): PhysicalOperator {
  const input = m.map(op.input);
  const source = m.compile(op.source);
  return function* (ctx, rows): RowStream {
    for (const row of input(ctx, rows)) {
      if (isSignal(row)) {
        yield row;
        continue;
      }
      const url = source(row, ctx);
      if (typeof url !== 'string') throw new CypherTypeError(`LOAD CSV expects a String URL, got ${typeName(url)}`);
      yield* loadRows(row, op, url, ctx);
    }
  };
}
