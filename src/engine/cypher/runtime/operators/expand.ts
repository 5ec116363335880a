/**
 * Expand: follows relationships from a bound node, fixed-length (one hop) or variable-length
 * (depth-first with an explicit stack, never reusing a relationship within one path).
 */
import { equals } from '../../../values/index.js';
import { NodeRef, RelationshipRef } from '../../../values/types.js';
import type { CypherMap, CypherValue } from '../../../values/types.js';
import type { RelationshipHandle } from '../../../storage/graph-store.js';
import type { Expand } from '../../planner/logical/expand.js';
import type { ExecutionContext } from '../execution-context.js';
import { PAUSE, extendRow2 } from '../row.js';
import type { Emission, Row } from '../row.js';
import { flatMapRows } from './physical-operator.js';
import type { Mapper, PhysicalOperator } from './physical-operator.js';

/** The node at the other end of `rel` seen from `from`. */
export function otherEnd(rel: RelationshipHandle, from: bigint): bigint {
  return rel.startId === from ? rel.endId : rel.startId;
}

/** Relationship handle as the engine's value. */
export function relRef(rel: RelationshipHandle): RelationshipRef {
  return new RelationshipRef(rel.id, rel.type, rel.startId, rel.endId);
}

/** Expand (fixed or variable length). */
export function mapExpand(op: Expand, m: Mapper): PhysicalOperator {
  const input = m.map(op.input);
  const props = op.properties ? m.compile(op.properties) : null;
  const types = op.types.length > 0 ? op.types : undefined;
  return (ctx, rows) =>
    flatMapRows(input(ctx, rows), (row) => {
      const start = row[op.from];
      if (!(start instanceof NodeRef)) return [];
      const target = op.into ? row[op.to] : undefined;
      if (op.into && !(target instanceof NodeRef)) return [];
      const targetId = target instanceof NodeRef ? target.id : null;
      const required = props ? (props(row, ctx) as CypherMap | null) : null;
      if (op.length === null) return expandOnce(ctx, row, op, start.id, targetId, types, required);
      return expandVariable(ctx, row, op, start.id, targetId, types, required);
    });
}

function relMatches(ctx: ExecutionContext, rel: RelationshipHandle, required: CypherMap | null): boolean {
  if (required === null) return true;
  for (const [key, value] of required) {
    ctx.stats.dbHits++;
    if (equals(ctx.reader.relationshipProperty(rel.id, key) ?? null, value) !== true) return false;
  }
  return true;
}

function* expandOnce(
  ctx: ExecutionContext,
  row: Row,
  op: Expand,
  from: bigint,
  targetId: bigint | null,
  types: readonly string[] | undefined,
  required: CypherMap | null,
): Generator<Emission> {
  for (const rel of ctx.reader.expand(from, op.direction, types)) {
    ctx.stats.dbHits++;
    if (ctx.scheduler.tick()) yield PAUSE;
    const other = otherEnd(rel, from);
    if (targetId !== null && other !== targetId) continue;
    if (!relMatches(ctx, rel, required)) continue;
    yield extendRow2(row, op.relationship, relRef(rel), op.to, new NodeRef(other));
  }
}

/**
 * Variable-length expansion, depth-first with an explicit stack of relationship iterators (one
 * per hop of the current path), so the path length is bounded by memory and time, never by the
 * call stack.
 */
function* expandVariable(
  ctx: ExecutionContext,
  row: Row,
  op: Expand,
  from: bigint,
  targetId: bigint | null,
  types: readonly string[] | undefined,
  required: CypherMap | null,
): Generator<Emission> {
  const { min, max } = op.length ?? { min: 1, max: 1 };
  const path: RelationshipRef[] = [];
  const used = new Set<bigint>();
  const nodes: bigint[] = [from];
  const pending: Iterator<RelationshipHandle>[] = [];
  const emit = (node: bigint): Emission | null =>
    path.length >= min && (targetId === null || node === targetId)
      ? extendRow2(row, op.relationship, [...path] as CypherValue, op.to, new NodeRef(node))
      : null;
  const first = emit(from);
  if (first !== null) yield first;
  if (max > 0) pending.push(ctx.reader.expand(from, op.direction, types)[Symbol.iterator]());
  while (pending.length > 0) {
    const node = nodes[nodes.length - 1]!;
    const next = pending[pending.length - 1]!.next();
    if (next.done) {
      pending.pop();
      nodes.pop();
      const rel = path.pop();
      if (rel !== undefined) used.delete(rel.id);
      continue;
    }
    const rel = next.value;
    ctx.stats.dbHits++;
    if (ctx.scheduler.tick()) yield PAUSE;
    if (used.has(rel.id) || !relMatches(ctx, rel, required)) continue;
    const other = otherEnd(rel, node);
    used.add(rel.id);
    path.push(relRef(rel));
    nodes.push(other);
    const out = emit(other);
    if (out !== null) yield out;
    if (path.length < max) {
      pending.push(ctx.reader.expand(other, op.direction, types)[Symbol.iterator]());
    } else {
      nodes.pop();
      path.pop();
      used.delete(rel.id);
    }
  }
}
