/**
 * Row-at-a-time operators: Filter, RelationshipUniqueness, ProjectPath, Projection, Unwind,
 * Skip, Limit, and the roots ProduceResults and EmptyResult.
 */
import { NodeRef, PathRef, RelationshipRef } from '../../../values/types.js';
import type { CypherValue } from '../../../values/types.js';
import type { Filter } from '../../planner/logical/filter.js';
import type { Limit } from '../../planner/logical/limit.js';
import type { LogicalOperator } from '../../planner/logical/logical-operator.js';
import type { ProjectPath } from '../../planner/logical/project-path.js';
import type { Projection } from '../../planner/logical/projection.js';
import type { RelationshipUniqueness } from '../../planner/logical/relationship-uniqueness.js';
import type { Skip } from '../../planner/logical/skip.js';
import type { Unwind } from '../../planner/logical/unwind.js';
import type { EmptyResult } from '../../planner/logical/empty-result.js';
import type { ProduceResults } from '../../planner/logical/produce-results.js';
import { Kind } from '../../ast/kinds.js';
import type { Expression, FunctionCall } from '../../ast/index.js';
import { rangeElements, rangeSpec } from '../../functions/list.js';
import { asBoolean } from '../expressions/logic.js';
import { EMPTY_ROW, PAUSE, copyRow, extendRow, isSignal } from '../row.js';
import type { Row, RowStream } from '../row.js';
import { evaluateCount } from './physical-operator.js';
import type { Mapper, PhysicalOperator } from './physical-operator.js';

/** Filter. */
export function mapFilter(op: Filter, m: Mapper): PhysicalOperator {
  const input = m.map(op.input);
  const predicate = m.compile(op.predicate);
  return function* (ctx, rows) {
    for (const row of input(ctx, rows)) {
      if (isSignal(row) || asBoolean(predicate(row, ctx), 'WHERE') === true) yield row;
    }
  };
}

/** RelationshipUniqueness. */
export function mapRelationshipUniqueness(op: RelationshipUniqueness, m: Mapper): PhysicalOperator {
  const input = m.map(op.input);
  return function* (ctx, rows) {
    for (const row of input(ctx, rows)) {
      if (isSignal(row) || relationshipsUnique(row, op)) yield row;
    }
  };
}

/** Relationship ids seen so far in one row: an array while short (no Set or closure per row). */
class SeenIds {
  private readonly ids: bigint[] = [];
  private set: Set<bigint> | null = null;

  /** False when `v` is a relationship already seen. */
  add(v: CypherValue | undefined): boolean {
    if (!(v instanceof RelationshipRef)) return true;
    if (this.set !== null) {
      if (this.set.has(v.id)) return false;
      this.set.add(v.id);
      return true;
    }
    if (this.ids.includes(v.id)) return false;
    this.ids.push(v.id);
    if (this.ids.length > 16) this.set = new Set(this.ids);
    return true;
  }
}

function relationshipsUnique(row: Row, op: RelationshipUniqueness): boolean {
  const seen = new SeenIds();
  for (const name of op.relationships) if (!seen.add(row[name])) return false;
  for (const name of op.lists) {
    const list = row[name];
    if (Array.isArray(list)) for (const rel of list as readonly CypherValue[]) if (!seen.add(rel)) return false;
  }
  return true;
}

/** ProjectPath. */
export function mapProjectPath(op: ProjectPath, m: Mapper): PhysicalOperator {
  const input = m.map(op.input);
  return function* (ctx, rows) {
    for (const row of input(ctx, rows)) {
      if (isSignal(row)) {
        yield row;
        continue;
      }
      yield extendRow(row, op.variable, buildPath(row, op));
    }
  };
}

function buildPath(row: Row, op: ProjectPath): CypherValue {
  const nodes: NodeRef[] = [];
  const rels: RelationshipRef[] = [];
  for (const step of op.steps) {
    if ('node' in step) {
      const node = row[step.node];
      if (!(node instanceof NodeRef)) return null;
      if (nodes.length === 0) nodes.push(node);
      continue;
    }
    const value = row[step.relationship];
    if (value === null || value === undefined) return null;
    const hops = step.list ? (value as readonly RelationshipRef[]) : [value as RelationshipRef];
    for (const rel of hops) {
      const last = nodes[nodes.length - 1];
      if (!last) return null;
      rels.push(rel);
      nodes.push(new NodeRef(rel.startId === last.id ? rel.endId : rel.startId));
    }
  }
  return new PathRef(nodes, rels);
}

/** Projection. */
export function mapProjection(op: Projection, m: Mapper): PhysicalOperator {
  const input = m.map(op.input);
  const items = op.items.map((item) => [item.name, m.compile(item.expression)] as const);
  const keep = op.keepInput;
  return function* (ctx, rows) {
    for (const row of input(ctx, rows)) {
      if (isSignal(row)) {
        yield row;
        continue;
      }
      const out: Record<string, CypherValue> = keep ? copyRow(row) : {};
      for (const [name, evaluate] of items) out[name] = evaluate(row, ctx);
      yield out;
    }
  };
}

/** True for a call of the built-in `range()` (UNWIND streams it instead of building the list). */
function isRangeCall(expression: Expression): expression is FunctionCall {
  return (
    expression.kind === Kind.FunctionCall &&
    expression.namespace.length === 0 &&
    expression.name.toLowerCase() === 'range' &&
    !expression.distinct
  );
}

/** `UNWIND range(...) AS x`: one row per element, without materialising the list. */
function mapUnwindRange(op: Unwind, call: FunctionCall, m: Mapper): PhysicalOperator {
  const input = m.map(op.input);
  const args = call.args.map((a) => m.compile(a));
  return function* (ctx, rows) {
    for (const row of input(ctx, rows)) {
      if (isSignal(row)) {
        yield row;
        continue;
      }
      const values = args.map((evaluate) => evaluate(row, ctx));
      if (values.some((v) => v === null)) continue;
      for (const item of rangeElements(rangeSpec(values))) {
        if (ctx.scheduler.tick()) yield PAUSE;
        yield extendRow(row, op.variable, item);
      }
    }
  };
}

/** Unwind: one row per element, produced lazily. */
export function mapUnwind(op: Unwind, m: Mapper): PhysicalOperator {
  if (isRangeCall(op.expression)) return mapUnwindRange(op, op.expression, m);
  const input = m.map(op.input);
  const list = m.compile(op.expression);
  return function* (ctx, rows) {
    for (const row of input(ctx, rows)) {
      if (isSignal(row)) {
        yield row;
        continue;
      }
      const value = list(row, ctx);
      if (value === null) continue;
      const items = Array.isArray(value) ? (value as readonly CypherValue[]) : [value];
      for (const item of items) {
        if (ctx.scheduler.tick()) yield PAUSE;
        yield extendRow(row, op.variable, item);
      }
    }
  };
}

/** Skip. */
export function mapSkip(op: Skip, m: Mapper): PhysicalOperator {
  const input = m.map(op.input);
  const count = m.compile(op.count);
  return function* (ctx, rows) {
    let remaining = evaluateCount(count, EMPTY_ROW, ctx, 'SKIP');
    for (const row of input(ctx, rows)) {
      if (!isSignal(row) && remaining > 0) {
        remaining--;
        continue;
      }
      yield row;
    }
  };
}

/**
 * The node scan under a LIMIT through operators that keep or drop rows one by one (projections,
 * filters): it will probably be asked for about LIMIT ids.
 */
function scanUnderLimit(op: Limit): LogicalOperator | null {
  if (op.exhaustInput) return null;
  let below = op.input;
  while (below.op === 'Projection' || below.op === 'Filter') below = below.input;
  return below.op === 'NodeByLabelScan' || below.op === 'AllNodesScan' ? below : null;
}

/** Limit: stops pulling its input once `count` rows passed (lazy LIMIT). */
export function mapLimit(op: Limit, m: Mapper): PhysicalOperator {
  const scan = scanUnderLimit(op);
  if (scan !== null) m.expectedRows.set(scan, op.count);
  const input = m.map(op.input);
  const count = m.compile(op.count);
  return function* (ctx, rows) {
    let remaining = evaluateCount(count, EMPTY_ROW, ctx, 'LIMIT');
    if (remaining === 0 && !op.exhaustInput) return;
    for (const row of input(ctx, rows)) {
      if (isSignal(row) || remaining > 0) yield row;
      if (!isSignal(row) && remaining > 0) remaining--;
      if (remaining === 0 && !op.exhaustInput) return;
    }
  };
}

/** ProduceResults: passes rows; the result stream reads `columns` from them. */
export function mapProduceResults(op: ProduceResults, m: Mapper): PhysicalOperator {
  return m.map(op.input);
}

/** EmptyResult: runs its input to completion and emits nothing. */
export function mapEmptyResult(op: EmptyResult, m: Mapper): PhysicalOperator {
  const input = m.map(op.input);
  return function* (ctx, rows): RowStream {
    for (const row of input(ctx, rows)) if (isSignal(row)) yield row;
  };
}
