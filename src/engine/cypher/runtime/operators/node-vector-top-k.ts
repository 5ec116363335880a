/**
 * NodeVectorTopK, the exact-kNN plan (planner/logical/node-vector-top-k.ts). Per input row it asks
 * the search services for a candidate scan (runtime/vector-top-k-source.ts), runs it in time
 * slices, re-scores the candidates with the ORDER BY key itself (so scores are the function's,
 * read through the transaction), adds the label's nodes without the property (null scores sort
 * first under DESC) unless `IS NOT NULL` filtered them, and emits the rows in the sort's order:
 * score descending, ties in label-scan order (ascending node id), at most k.
 *
 * It runs the row-by-row plan instead when it cannot be exact: no search services or no VECTOR
 * index with the same label, property and similarity; the transaction has written anything (its
 * own writes are not in the index); the index is not at the transaction's snapshot; a node with
 * the label holds a value the index does not score exactly (wrong type or dimension, nulls,
 * extreme magnitudes, a zero cosine vector); the query vector is null, has nulls or is such a
 * value; or the index changed while the scan ran.
 */
import { compare } from '../../../values/index.js';
import { CypherVector, NodeRef, type CypherValue } from '../../../values/types.js';
import type { NodeVectorTopK } from '../../planner/logical/node-vector-top-k.js';
import { hasUncommittedWrites, type ExecutionContext } from '../execution-context.js';
import type { Evaluator } from '../expressions/evaluator.js';
import { PAUSE, extendRow, isSignal } from '../row.js';
import type { Row, RowStream } from '../row.js';
import type { VectorCandidateScan } from '../vector-top-k-source.js';
import { evaluateCount, single } from './physical-operator.js';
import type { Mapper, PhysicalOperator } from './physical-operator.js';

/** Vectors scanned per scheduler tick (the clock reads the time every 64 ticks). */
const SLOTS_PER_TICK = 64;

/** A row kept by the plan, with its sort key. */
interface Scored {
  readonly id: bigint;
  readonly row: Row;
  readonly key: CypherValue;
}

/** The query argument as numbers, or null when the function would answer null or fail for it. */
function queryNumbers(value: CypherValue): number[] | null {
  const items = value instanceof CypherVector ? value.toList() : Array.isArray(value) ? (value as readonly CypherValue[]) : null;
  if (items === null) return null;
  const out: number[] = [];
  for (const item of items) {
    if (typeof item === 'number') out.push(item);
    else if (typeof item === 'bigint') out.push(Number(item));
    else return null;
  }
  return out;
}

/** The scan for one input row, or null when the row-by-row plan must run. */
function openScan(op: NodeVectorTopK, ctx: ExecutionContext, row: Row, query: Evaluator, k: number): VectorCandidateScan | null {
  const source = ctx.admin.exactVectorScan;
  if (source === undefined || k === 0 || hasUncommittedWrites(ctx)) return null;
  const numbers = queryNumbers(query(row, ctx));
  if (numbers === null) return null;
  const scan = source(ctx.database, ctx.reader, {
    label: op.label,
    property: op.property,
    similarity: op.similarity,
    query: numbers,
    k: Math.min(k, 2 ** 31),
  });
  return typeof scan === 'string' ? null : scan;
}

/** NodeVectorTopK. */
export function mapNodeVectorTopK(op: NodeVectorTopK, m: Mapper): PhysicalOperator {
  const input = m.map(op.input);
  const fallback = m.map(op.fallback);
  const query = m.compile(op.query);
  const score = m.compile(op.score);
  const count = m.compile(op.count);

  function* topK(ctx: ExecutionContext, row: Row, scan: VectorCandidateScan, k: number): Generator<typeof PAUSE, Scored[] | null> {
    while (!scan.step(SLOTS_PER_TICK)) if (ctx.scheduler.tick()) yield PAUSE;
    const kept: Scored[] = [];
    if (!op.requireProperty && scan.missing > 0) {
      const wanted = Math.min(scan.missing, k);
      for (const id of ctx.reader.nodeIdsByLabel(op.label)) {
        ctx.stats.dbHits++;
        if (ctx.scheduler.tick()) yield PAUSE;
        if (scan.has(id)) continue;
        kept.push({ id, row: extendRow(row, op.variable, new NodeRef(id)), key: null });
        if (kept.length === wanted) break;
      }
    }
    for (const id of scan.candidates()) {
      ctx.stats.dbHits++;
      if (ctx.scheduler.tick()) yield PAUSE;
      const bound = extendRow(row, op.variable, new NodeRef(id));
      kept.push({ id, row: bound, key: score(bound, ctx) });
    }
    if (!scan.unchanged()) return null;
    kept.sort((a, b) => compare(b.key, a.key) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
    return kept.slice(0, k);
  }

  return function* (ctx, rows): RowStream {
    for (const row of input(ctx, rows)) {
      if (isSignal(row)) {
        yield row;
        continue;
      }
      const k = evaluateCount(count, row, ctx, 'LIMIT');
      const scan = openScan(op, ctx, row, query, k);
      const kept = scan === null ? null : yield* topK(ctx, row, scan, k);
      if (kept === null) {
        yield* fallback(ctx, single(row));
        continue;
      }
      for (const scored of kept) yield scored.row;
    }
  };
}
