/**
 * Leaf-like operators that bind variables per input row: all-nodes scan, label scan, node
 * property index seek and relationship property index seek.
 */
import { CypherTypeError } from '../../../errors/index.js';
import type { IndexPredicate } from '../../../storage/graph-store.js';
import { CypherDate, LocalDateTime, LocalTime, NodeRef } from '../../../values/types.js';
import type { CypherValue } from '../../../values/types.js';
import type { AllNodesScan } from '../../planner/logical/all-nodes-scan.js';
import type { NodeByLabelScan } from '../../planner/logical/node-by-label-scan.js';
import type { NodeIndexSeek } from '../../planner/logical/node-index-seek.js';
import type { RelationshipIndexSeek } from '../../planner/logical/relationship-index-seek.js';
import { relRef } from './expand.js';
import type { ExecutionContext } from '../execution-context.js';
import type { Evaluator } from '../expressions/evaluator.js';
import { EMPTY_ROW, PAUSE, extendRow, extendRow3, isSignal } from '../row.js';
import type { Row, RowStream } from '../row.js';
import type { Mapper, PhysicalOperator } from './physical-operator.js';

function* bindNodes(ctx: ExecutionContext, input: RowStream, variable: string, ids: (row: Row) => Iterable<bigint>): RowStream {
  for (const row of input) {
    if (isSignal(row)) {
      yield row;
      continue;
    }
    for (const id of ids(row)) {
      ctx.stats.dbHits++;
      if (ctx.scheduler.tick()) yield PAUSE;
      yield extendRow(row, variable, new NodeRef(id));
    }
  }
}

/**
 * How many rows the LIMIT above a scan expects (`Mapper.expectedRows`): evaluated as LIMIT
 * evaluates it, undefined without one or when it is not a count (LIMIT itself reports that).
 */
function expectedRows(op: AllNodesScan | NodeByLabelScan, m: Mapper): ((ctx: ExecutionContext) => number | undefined) | null {
  const count = m.expectedRows.get(op);
  if (count === undefined) return null;
  const evaluate = m.compile(count);
  return (ctx) => {
    const value = evaluate(EMPTY_ROW, ctx);
    return typeof value === 'bigint' && value > 0n && value <= 1_000_000n ? Number(value) : undefined;
  };
}

/** AllNodesScan. */
export function mapAllNodesScan(op: AllNodesScan, m: Mapper): PhysicalOperator {
  const input = m.map(op.input);
  const expected = expectedRows(op, m);
  if (expected !== null) return (ctx, rows) => bindNodes(ctx, input(ctx, rows), op.variable, () => ctx.reader.allNodeIds(expected(ctx)));
  return (ctx, rows) => bindNodes(ctx, input(ctx, rows), op.variable, () => ctx.reader.allNodeIds());
}

/** NodeByLabelScan. */
export function mapNodeByLabelScan(op: NodeByLabelScan, m: Mapper): PhysicalOperator {
  const input = m.map(op.input);
  const expected = expectedRows(op, m);
  if (expected !== null) {
    return (ctx, rows) => bindNodes(ctx, input(ctx, rows), op.variable, () => ctx.reader.nodeIdsByLabel(op.label, expected(ctx)));
  }
  return (ctx, rows) => bindNodes(ctx, input(ctx, rows), op.variable, () => ctx.reader.nodeIdsByLabel(op.label));
}

/** NodeIndexSeek: evaluates the seek operands per row and asks the index. */
export function mapNodeIndexSeek(op: NodeIndexSeek, m: Mapper): PhysicalOperator {
  const input = m.map(op.input);
  const predicate = compileSeek(op, m);
  if (op.folded !== undefined) {
    const folded = m.compile(op.folded);
    return (ctx, rows) => seekFolded(ctx, input(ctx, rows), op, predicate, folded);
  }
  return (ctx, rows) =>
    bindNodes(ctx, input(ctx, rows), op.variable, (row) => {
      const p = predicate(row, ctx);
      return p === null ? [] : ctx.reader.seekNodes(op.label, op.property, p);
    });
}

/** Key equality is Cypher equality for these seek values (see `NodeIndexSeek.folded`). */
function keyedExactly(predicate: IndexPredicate): boolean {
  if (predicate.kind !== 'equals') return false;
  const type = typeof predicate.value;
  return type === 'bigint' || type === 'string' || type === 'boolean';
}

/**
 * True for values some Cypher-equal values of which have another index key: zoned times and
 * datetimes (same instant, other offset), and values keyed by their encoding (lists such as
 * `[1, 2]` and `[1.0, 2.0]`, durations, points, maps). Those equalities scan the label instead.
 */
function keysMissEqualValues(predicate: IndexPredicate): boolean {
  if (predicate.kind !== 'equals') return false;
  const value = predicate.value;
  return (
    typeof value === 'object' &&
    value !== null &&
    !(value instanceof CypherDate || value instanceof LocalDateTime || value instanceof LocalTime)
  );
}

/** An equality seek with its predicate folded in: the predicate runs only when the value is not keyed exactly. */
function* seekFolded(
  ctx: ExecutionContext,
  input: RowStream,
  op: NodeIndexSeek,
  seek: (row: Row, ctx: ExecutionContext) => IndexPredicate | null,
  folded: Evaluator,
): RowStream {
  for (const row of input) {
    if (isSignal(row)) {
      yield row;
      continue;
    }
    const p = seek(row, ctx);
    if (p === null) continue;
    const exact = keyedExactly(p);
    const ids = keysMissEqualValues(p) ? ctx.reader.nodeIdsByLabel(op.label) : ctx.reader.seekNodes(op.label, op.property, p);
    for (const id of ids) {
      ctx.stats.dbHits++;
      if (ctx.scheduler.tick()) yield PAUSE;
      const out = extendRow(row, op.variable, new NodeRef(id));
      if (exact || folded(out, ctx) === true) yield out;
    }
  }
}

function compileSeek(op: NodeIndexSeek, m: Mapper): (row: Row, ctx: ExecutionContext) => IndexPredicate | null {
  const seek = op.seek;
  switch (seek.kind) {
    case 'equals': {
      const value = m.compile(seek.value);
      return (row, ctx) => {
        const v = value(row, ctx);
        return v === null ? null : { kind: 'equals', value: v };
      };
    }
    case 'in': {
      const list = m.compile(seek.list);
      return (row, ctx) => {
        const v = list(row, ctx);
        if (v === null) return null;
        if (!Array.isArray(v)) throw new CypherTypeError('Type mismatch: expected List', { detail: 'InvalidArgumentType' });
        return { kind: 'in', values: (v as readonly CypherValue[]).filter((x) => x !== null) };
      };
    }
    case 'range': {
      const lower = seek.lower ? { value: m.compile(seek.lower.value), inclusive: seek.lower.inclusive } : null;
      const upper = seek.upper ? { value: m.compile(seek.upper.value), inclusive: seek.upper.inclusive } : null;
      return (row, ctx) => {
        const lo = bound(lower, row, ctx);
        const hi = bound(upper, row, ctx);
        if (lo === null || hi === null) return null;
        return { kind: 'range', ...(lo ? { lower: lo } : {}), ...(hi ? { upper: hi } : {}) };
      };
    }
    case 'prefix':
    case 'contains':
    case 'suffix': {
      const value = m.compile(seek.value);
      const kind = seek.kind;
      return (row, ctx) => {
        const v = value(row, ctx);
        if (typeof v !== 'string') return null;
        if (kind === 'prefix') return { kind, prefix: v };
        if (kind === 'contains') return { kind, substring: v };
        return { kind, suffix: v };
      };
    }
  }
}

function bound(
  b: { value: Evaluator; inclusive: boolean } | null,
  row: Row,
  ctx: ExecutionContext,
): { value: CypherValue; inclusive: boolean } | undefined | null {
  if (!b) return undefined;
  const value = b.value(row, ctx);
  return value === null ? null : { value, inclusive: b.inclusive };
}

/** RelationshipIndexSeek: binds the relationship and both ends, per orientation the pattern allows. */
export function mapRelationshipIndexSeek(op: RelationshipIndexSeek, m: Mapper): PhysicalOperator {
  const input = m.map(op.input);
  const value = m.compile(op.value);
  return function* (ctx, rows) {
    for (const row of input(ctx, rows)) {
      if (isSignal(row)) {
        yield row;
        continue;
      }
      const v = value(row, ctx);
      if (v === null) continue;
      for (const rel of ctx.reader.seekRelationships(op.type, op.property, { kind: 'equals', value: v })) {
        ctx.stats.dbHits++;
        if (ctx.scheduler.tick()) yield PAUSE;
        const ref = relRef(rel);
        if (op.direction !== 'in') {
          yield extendRow3(row, op.relationship, ref, op.left, new NodeRef(rel.startId), op.right, new NodeRef(rel.endId));
        }
        if (op.direction !== 'out' && !(op.direction === 'both' && rel.startId === rel.endId)) {
          yield extendRow3(row, op.relationship, ref, op.left, new NodeRef(rel.endId), op.right, new NodeRef(rel.startId));
        }
      }
    }
  };
}
