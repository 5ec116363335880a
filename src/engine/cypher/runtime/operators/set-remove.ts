/**
 * SET and REMOVE. A SET clause evaluates every right-hand side against the input row first,
 * then applies the assignments in order.
 */
import { CypherTypeError } from '../../../errors/index.js';
import { typeName } from '../../../values/index.js';
import { Node, NodeRef, Relationship, RelationshipRef } from '../../../values/types.js';
import type { CypherMap, CypherValue } from '../../../values/types.js';
import { Kind } from '../../ast/index.js';
import type { Expression, RemoveItem, SetItem } from '../../ast/index.js';
import type { Remove } from '../../planner/logical/remove.js';
import type { SetProperties } from '../../planner/logical/set-properties.js';
import type { ExecutionContext } from '../execution-context.js';
import { requireWriter } from '../execution-context.js';
import { propertiesOf } from '../expressions/access.js';
import type { Evaluator } from '../expressions/evaluator.js';
import { isSignal } from '../row.js';
import type { Row } from '../row.js';
import { compileWriteLabels } from '../expressions/dynamic-labels.js';
import type { Mapper, PhysicalOperator } from './physical-operator.js';
import { valueText } from '../../../values/to-string.js';

/** A compiled SET item: evaluate returns the deferred write. */
type CompiledSet = (row: Row, ctx: ExecutionContext) => (() => void) | null;

function entityTarget(value: CypherValue): NodeRef | RelationshipRef | null {
  if (value === null) return null;
  if (value instanceof NodeRef || value instanceof RelationshipRef) return value;
  throw new CypherTypeError(`Type mismatch: expected Node or Relationship but was ${typeName(value)}`, { detail: 'InvalidArgumentType' });
}

function setOne(ctx: ExecutionContext, target: NodeRef | RelationshipRef, key: string, value: CypherValue): void {
  const writer = requireWriter(ctx);
  if (target instanceof NodeRef) writer.setNodeProperty(target.id, key, value);
  else writer.setRelationshipProperty(target.id, key, value);
}

function propertyTarget(target: Expression, m: Mapper): { object: Evaluator; key: (row: Row, ctx: ExecutionContext) => CypherValue } {
  if (target.kind === Kind.PropertyAccess) {
    const key = target.property;
    return { object: m.compile(target.object), key: () => key };
  }
  if (target.kind === Kind.Subscript) return { object: m.compile(target.object), key: m.compile(target.index) };
  throw new CypherTypeError('Invalid SET/REMOVE target', { detail: 'InvalidArgumentType' });
}

function asPropertyMap(value: CypherValue, ctx: ExecutionContext): CypherMap {
  if (value instanceof NodeRef || value instanceof RelationshipRef || value instanceof Node || value instanceof Relationship) {
    return propertiesOf(value, ctx) ?? new Map();
  }
  if (value instanceof Map) return value as CypherMap;
  throw new CypherTypeError(`Type mismatch: expected a map but was ${typeName(value)}`, { detail: 'InvalidArgumentType' });
}

/** Compiles one SET item. */
export function compileSetItem(item: SetItem, m: Mapper): CompiledSet {
  switch (item.kind) {
    case Kind.SetProperty: {
      const { object, key } = propertyTarget(item.target, m);
      const value = m.compile(item.value);
      return (row, ctx) => {
        const target = entityTarget(object(row, ctx));
        const k = key(row, ctx);
        const v = value(row, ctx);
        if (target === null) return null;
        return () => setOne(ctx, target, valueText(k), v);
      };
    }
    case Kind.SetVariable: {
      const name = item.variable.name;
      const value = m.compile(item.value);
      const merge = item.merge;
      return (row, ctx) => {
        const target = entityTarget(row[name] ?? null);
        const raw = value(row, ctx);
        if (target === null) return null;
        const map = raw === null ? new Map<string, CypherValue>() : new Map(asPropertyMap(raw, ctx));
        return () => {
          const writer = requireWriter(ctx);
          if (merge) {
            for (const [k, v] of map) setOne(ctx, target, k, v);
            return;
          }
          for (const [k, v] of map) if (v === null) map.delete(k);
          if (target instanceof NodeRef) writer.replaceNodeProperties(target.id, map);
          else writer.replaceRelationshipProperties(target.id, map);
        };
      };
    }
    case Kind.SetLabels: {
      const name = item.variable.name;
      const labels = item.labels;
      const dynamic = compileWriteLabels(item.dynamicLabels, (label) => m.compile(label.expression), 'label');
      return (row, ctx) => {
        const target = row[name] ?? null;
        if (target === null) return null;
        if (!(target instanceof NodeRef)) throw new CypherTypeError(`Type mismatch: expected Node but was ${typeName(target)}`);
        const all = dynamic === null ? labels : [...new Set([...labels, ...dynamic(row, ctx)])];
        return () => void requireWriter(ctx).addLabels(target.id, all);
      };
    }
  }
}

/** SetProperties: all right-hand sides of a row first, then the writes. */
export function mapSetProperties(op: SetProperties, m: Mapper): PhysicalOperator {
  const input = m.map(op.input);
  const items = op.items.map((i) => compileSetItem(i, m));
  return function* (ctx, rows) {
    for (const row of input(ctx, rows)) {
      if (!isSignal(row)) applySetItems(items, row, ctx);
      yield row;
    }
  };
}

/** Evaluates then applies compiled SET items for one row. */
export function applySetItems(items: readonly CompiledSet[], row: Row, ctx: ExecutionContext): void {
  const writes = items.map((item) => item(row, ctx));
  for (const write of writes) write?.();
}

function compileRemoveItem(item: RemoveItem, m: Mapper): (row: Row, ctx: ExecutionContext) => void {
  if (item.kind === Kind.RemoveLabels) {
    const name = item.variable.name;
    const dynamic = compileWriteLabels(item.dynamicLabels, (label) => m.compile(label.expression), 'label');
    return (row, ctx) => {
      const target = row[name] ?? null;
      if (target === null) return;
      if (!(target instanceof NodeRef)) throw new CypherTypeError(`Type mismatch: expected Node but was ${typeName(target)}`);
      const all = dynamic === null ? item.labels : [...new Set([...item.labels, ...dynamic(row, ctx)])];
      requireWriter(ctx).removeLabels(target.id, all);
    };
  }
  const { object, key } = propertyTarget(item.target, m);
  return (row, ctx) => {
    const target = entityTarget(object(row, ctx));
    if (target !== null) setOne(ctx, target, valueText(key(row, ctx)), null);
  };
}

/** Remove. */
export function mapRemove(op: Remove, m: Mapper): PhysicalOperator {
  const input = m.map(op.input);
  const items = op.items.map((i) => compileRemoveItem(i, m));
  return function* (ctx, rows) {
    for (const row of input(ctx, rows)) {
      if (!isSignal(row)) for (const item of items) item(row, ctx);
      yield row;
    }
  };
}
