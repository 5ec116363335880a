/**
 * Id seeks: NodeByIdSeek / NodeByElementIdSeek and the relationship variants. Each id costs one
 * storage lookup, so `WHERE id(n) = $id` touches one record however large the graph is.
 */
import { CypherTypeError } from '../../../errors/index.js';
import type { GraphReader } from '../../../storage/graph-store.js';
import { NodeRef } from '../../../values/types.js';
import type { CypherValue } from '../../../values/types.js';
import type { IdSeekSpec, NodeByIdSeek, RelationshipByIdSeek } from '../../planner/logical/id-seek.js';
import type { ExecutionContext } from '../execution-context.js';
import { PAUSE, extendRow, extendRow3, isSignal } from '../row.js';
import type { Row } from '../row.js';
import { relRef } from './expand.js';
import type { Mapper, PhysicalOperator } from './physical-operator.js';

/** The internal id a value denotes: an integer (or an integral float, since `1 = 1.0`), else none. */
function internalId(value: CypherValue): bigint | null {
  if (typeof value === 'bigint') return value;
  if (typeof value === 'number' && Number.isSafeInteger(value)) return BigInt(value);
  return null;
}

function elementIdToId(reader: GraphReader, value: CypherValue): bigint | null {
  return typeof value === 'string' ? reader.idFromElementId(value) : null;
}

/** Compiles the id operand into a per-row function returning the distinct ids to look up. */
function compileIds(ids: IdSeekSpec, elementId: boolean, m: Mapper): (row: Row, ctx: ExecutionContext) => bigint[] {
  const toId = (ctx: ExecutionContext, v: CypherValue): bigint | null => (elementId ? elementIdToId(ctx.reader, v) : internalId(v));
  if (ids.kind === 'equals') {
    const value = m.compile(ids.value);
    return (row, ctx) => {
      const id = toId(ctx, value(row, ctx));
      return id === null ? [] : [id];
    };
  }
  const list = m.compile(ids.list);
  return (row, ctx) => {
    const v = list(row, ctx);
    if (v === null) return [];
    if (!Array.isArray(v)) throw new CypherTypeError('Type mismatch: expected List', { detail: 'InvalidArgumentType' });
    const found = new Set<bigint>();
    for (const item of v as readonly CypherValue[]) {
      const id = toId(ctx, item);
      if (id !== null) found.add(id);
    }
    return [...found];
  };
}

/** NodeByIdSeek / NodeByElementIdSeek. */
export function mapNodeByIdSeek(op: NodeByIdSeek, m: Mapper): PhysicalOperator {
  const input = m.map(op.input);
  const ids = compileIds(op.ids, op.op === 'NodeByElementIdSeek', m);
  return function* (ctx, rows) {
    for (const row of input(ctx, rows)) {
      if (isSignal(row)) {
        yield row;
        continue;
      }
      for (const id of ids(row, ctx)) {
        ctx.stats.dbHits++;
        if (ctx.scheduler.tick()) yield PAUSE;
        const labels = ctx.reader.nodeLabels(id);
        if (labels === null || (op.label !== null && !labels.includes(op.label))) continue;
        yield extendRow(row, op.variable, new NodeRef(id));
      }
    }
  };
}

/** The four relationship id seeks. */
export function mapRelationshipByIdSeek(op: RelationshipByIdSeek, m: Mapper): PhysicalOperator {
  const input = m.map(op.input);
  const ids = compileIds(op.ids, op.op.endsWith('ElementIdSeek'), m);
  const leftHasLabel = (ctx: ExecutionContext, id: bigint): boolean => {
    if (op.leftLabel === null) return true;
    ctx.stats.dbHits++;
    return ctx.reader.nodeLabels(id)?.includes(op.leftLabel) ?? false;
  };
  return function* (ctx, rows) {
    for (const row of input(ctx, rows)) {
      if (isSignal(row)) {
        yield row;
        continue;
      }
      for (const id of ids(row, ctx)) {
        ctx.stats.dbHits++;
        if (ctx.scheduler.tick()) yield PAUSE;
        const rel = ctx.reader.getRelationship(id);
        if (rel === null || (op.types.length > 0 && !op.types.includes(rel.type))) continue;
        const ref = relRef(rel);
        if (op.direction !== 'in' && leftHasLabel(ctx, rel.startId)) {
          yield extendRow3(row, op.relationship, ref, op.left, new NodeRef(rel.startId), op.right, new NodeRef(rel.endId));
        }
        if (op.direction !== 'out' && !(op.direction === 'both' && rel.startId === rel.endId) && leftHasLabel(ctx, rel.endId)) {
          yield extendRow3(row, op.relationship, ref, op.left, new NodeRef(rel.endId), op.right, new NodeRef(rel.startId));
        }
      }
    }
  };
}
