/**
 * Operators that run a nested plan per input row: Optional (OPTIONAL MATCH), SubqueryApply
 * (CALL { }), Foreach, Merge, and Union over two branches.
 */
import { SemanticError } from '../../../errors/index.js';
import type { CypherValue } from '../../../values/types.js';
import type { Foreach } from '../../planner/logical/foreach.js';
import type { LogicalOperator } from '../../planner/logical/logical-operator.js';
import type { Merge } from '../../planner/logical/merge.js';
import type { Optional } from '../../planner/logical/optional.js';
import type { SubqueryApply } from '../../planner/logical/subquery-apply.js';
import type { Union } from '../../planner/logical/union.js';
import { COMMIT, PAUSE, copyRow, extendRow, isSignal } from '../row.js';
import type { Row, RowStream } from '../row.js';
import type { ExecutionContext } from '../execution-context.js';
import { compilePartCreator } from './create.js';
import { checkCount, drain, fromRows, single } from './physical-operator.js';
import type { Mapper, PhysicalOperator } from './physical-operator.js';
import { tupleKey } from './blocking-operators.js';
import { applySetItems, compileSetItem } from './set-remove.js';
import { compileGraphApply, type GraphApply } from './graph-apply.js';

/** Optional: the inner rows, or the input row with the introduced variables null. */
export function mapOptional(op: Optional, m: Mapper): PhysicalOperator {
  const input = m.map(op.input);
  const inner = m.map(op.inner);
  return function* (ctx, rows) {
    for (const row of input(ctx, rows)) {
      if (isSignal(row)) {
        yield row;
        continue;
      }
      let found = false;
      for (const out of inner(ctx, single(row))) {
        if (!isSignal(out)) found = true;
        yield out;
      }
      if (!found) {
        const padded: Record<string, CypherValue> = copyRow(row);
        for (const name of op.introduced) if (!(name in row)) padded[name] = null;
        yield padded;
      }
    }
  };
}

/** Runs `inner` for one outer row (on its constituent graph when `graph` applies) and yields the joined rows (and signals). */
function* applyOnce(op: SubqueryApply, inner: PhysicalOperator, ctx: ExecutionContext, row: Row, graph: GraphApply | null): RowStream {
  let found = false;
  const rows = graph !== null && ctx.graphs !== undefined ? graph(ctx, ctx.graphs, row) : inner(ctx, single(row));
  for (const out of rows) {
    if (isSignal(out)) {
      yield out;
      continue;
    }
    found = true;
    if (op.returns.length > 0) {
      const joined: Record<string, CypherValue> = copyRow(row);
      for (const name of op.returns) joined[name] = out[name] ?? null;
      yield joined;
    }
  }
  if (op.returns.length === 0) yield row;
  else if (!found && op.optional) {
    const padded: Record<string, CypherValue> = copyRow(row);
    for (const name of op.returns) padded[name] = null;
    yield padded;
  }
}

/**
 * True when the input of `CALL { } IN TRANSACTIONS` reads nothing from the graph once it started:
 * `LOAD CSV` or `UNWIND` straight over the statement's argument row (their source is evaluated
 * once, before the first batch). Such input streams batch by batch, as Neo4j reads it, instead
 * of being buffered whole first (a million CSV rows held at once, and the GC pauses that brings).
 */
function streamsAcrossCommits(input: LogicalOperator): boolean {
  return (input.op === 'LoadCsv' || input.op === 'Unwind') && input.input.op === 'Argument';
}

/**
 * SubqueryApply: correlated CALL { }; unit subqueries pass the input row once. With
 * `IN TRANSACTIONS OF n ROWS` the input is read first, then a COMMIT signal follows every n
 * outer rows, so the statement runner commits each batch in its own transaction.
 */
export function mapSubqueryApply(op: SubqueryApply, m: Mapper): PhysicalOperator {
  const input = m.map(op.input);
  const inner = m.map(op.inner);
  const graph = op.graph === undefined ? null : compileGraphApply(op.graph, op.returns, m);
  const batch = op.batchSize ? m.compile(op.batchSize) : null;
  return function* (ctx, rows) {
    if (!batch) {
      for (const row of input(ctx, rows)) {
        if (isSignal(row)) yield row;
        else {
          if (ctx.scheduler.tick()) yield PAUSE;
          yield* applyOnce(op, inner, ctx, row, graph);
        }
      }
      return;
    }
    const size = Math.max(1, checkCount(batch({}, ctx), 'IN TRANSACTIONS OF ... ROWS'));
    if (streamsAcrossCommits(op.input)) {
      let applied = 0;
      for (const row of input(ctx, rows)) {
        if (isSignal(row)) {
          yield row;
          continue;
        }
        if (applied > 0 && applied % size === 0) yield COMMIT;
        if (ctx.scheduler.tick()) yield PAUSE;
        yield* applyOnce(op, inner, ctx, row, graph);
        applied++;
      }
      return;
    }
    const outer: Row[] = [];
    yield* drain(ctx, input(ctx, rows), outer);
    for (let i = 0; i < outer.length; i++) {
      // The inner plan may never tick (a CREATE per row): pause here between time slices.
      if (ctx.scheduler.tick()) yield PAUSE;
      yield* applyOnce(op, inner, ctx, outer[i]!, graph);
      if ((i + 1) % size === 0 && i + 1 < outer.length) yield COMMIT;
    }
  };
}

/** Union: left rows then right rows; distinct unless UNION ALL. */
export function mapUnion(op: Union, m: Mapper): PhysicalOperator {
  const left = m.map(op.left);
  const right = m.map(op.right);
  return function* (ctx, rows) {
    const inputs: Row[] = [];
    yield* drain(ctx, rows, inputs);
    const seen = new Set<string>();
    for (const branch of [left, right]) {
      for (const row of branch(ctx, fromRows(inputs))) {
        if (isSignal(row)) {
          yield row;
          continue;
        }
        const out: Record<string, CypherValue> = {};
        for (const c of op.columns) out[c] = row[c] ?? null;
        if (!op.all) {
          const key = tupleKey(op.columns.map((c) => out[c] ?? null));
          if (seen.has(key)) continue;
          seen.add(key);
        }
        yield out;
      }
    }
  };
}

/** Foreach: runs the inner updates per list element; emits the input row. */
export function mapForeach(op: Foreach, m: Mapper): PhysicalOperator {
  const input = m.map(op.input);
  const list = m.compile(op.list);
  const inner = m.map(op.inner);
  return function* (ctx, rows) {
    for (const row of input(ctx, rows)) {
      if (isSignal(row)) {
        yield row;
        continue;
      }
      const items = list(row, ctx);
      if (items !== null) {
        if (!Array.isArray(items)) throw new SemanticError('FOREACH expects a list', { detail: 'InvalidArgumentType' });
        for (const item of items as readonly CypherValue[]) {
          for (const out of inner(ctx, single(extendRow(row, op.variable, item)))) if (isSignal(out)) yield out;
        }
      }
      yield row;
    }
  };
}

/** Merge: match the whole pattern; create it all when nothing matched. */
export function mapMerge(op: Merge, m: Mapper): PhysicalOperator {
  const input = m.map(op.input);
  const match = m.map(op.match);
  const create = compilePartCreator(op.part, m, 'merge');
  const onCreate = op.onCreate.map((i) => compileSetItem(i, m));
  const onMatch = op.onMatch.map((i) => compileSetItem(i, m));
  return function* (ctx, rows) {
    for (const row of input(ctx, rows)) {
      if (isSignal(row)) {
        yield row;
        continue;
      }
      const matched: Row[] = [];
      yield* drain(ctx, match(ctx, single(row)), matched);
      if (matched.length === 0) {
        const created = create(row, ctx);
        applySetItems(onCreate, created, ctx);
        yield created;
        continue;
      }
      for (const found of matched) applySetItems(onMatch, found, ctx);
      yield* matched;
    }
  };
}
