/**
 * DELETE / DETACH DELETE. Relationships are deleted as rows arrive; nodes at the end of the
 * input, so `MATCH (n)-[r]-() DELETE n, r` succeeds whatever the row order.
 */
import { CypherTypeError } from '../../../errors/index.js';
import { typeName } from '../../../values/index.js';
import { NodeRef, PathRef, RelationshipRef } from '../../../values/types.js';
import type { CypherValue } from '../../../values/types.js';
import type { Delete } from '../../planner/logical/delete.js';
import { requireWriter } from '../execution-context.js';
import type { Row } from '../row.js';
import { drain } from './physical-operator.js';
import type { Mapper, PhysicalOperator } from './physical-operator.js';

/** Delete. */
export function mapDelete(op: Delete, m: Mapper): PhysicalOperator {
  const input = m.map(op.input);
  const targets = op.expressions.map((e) => m.compile(e));
  return function* (ctx, rows) {
    const writer = requireWriter(ctx);
    const all: Row[] = [];
    yield* drain(ctx, input(ctx, rows), all);
    const nodes = new Map<bigint, NodeRef>();
    const rels = new Set<bigint>();
    const collect = (value: CypherValue): void => {
      if (value === null) return;
      if (value instanceof NodeRef) nodes.set(value.id, value);
      else if (value instanceof RelationshipRef) rels.add(value.id);
      else if (value instanceof PathRef) {
        value.relationships.forEach((r) => rels.add(r.id));
        value.nodes.forEach((n) => nodes.set(n.id, n));
      } else
        throw new CypherTypeError(`Type mismatch: expected Node, Relationship or Path but was ${typeName(value)}`, {
          detail: 'InvalidArgumentType',
        });
    };
    for (const row of all) for (const target of targets) collect(target(row, ctx));
    for (const id of rels) if (writer.getRelationship(id) !== null) writer.deleteRelationship(id);
    for (const id of nodes.keys()) if (writer.nodeExists(id)) writer.deleteNode(id, op.detach);
    yield* all;
  };
}
