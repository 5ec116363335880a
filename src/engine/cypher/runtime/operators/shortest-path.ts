/**
 * shortestPath / allShortestPaths: breadth-first search between two bound nodes, level by
 * level, keeping every shortest predecessor for allShortestPaths.
 */
import { NodeRef, PathRef } from '../../../values/types.js';
import type { RelationshipRef } from '../../../values/types.js';
import type { ShortestPath } from '../../planner/logical/shortest-path.js';
import type { ExecutionContext } from '../execution-context.js';
import { asBoolean } from '../expressions/logic.js';
import type { Evaluator } from '../expressions/evaluator.js';
import type { Emission, Row } from '../row.js';
import { otherEnd, relRef } from './expand.js';
import { flatMapRows } from './physical-operator.js';
import type { Mapper, PhysicalOperator } from './physical-operator.js';

interface Partial {
  readonly node: bigint;
  readonly nodes: readonly NodeRef[];
  readonly rels: readonly RelationshipRef[];
}

/** ShortestPath. */
export function mapShortestPath(op: ShortestPath, m: Mapper): PhysicalOperator {
  const input = m.map(op.input);
  const predicate = op.predicate ? m.compile(op.predicate) : null;
  return (ctx, rows) => flatMapRows(input(ctx, rows), (row) => search(ctx, row, op, predicate));
}

function* search(ctx: ExecutionContext, row: Row, op: ShortestPath, predicate: Evaluator | null): Generator<Emission> {
  const from = row[op.from];
  const to = row[op.to];
  if (!(from instanceof NodeRef) || !(to instanceof NodeRef)) return;
  const types = op.types.length > 0 ? op.types : undefined;
  let frontier: Partial[] = [{ node: from.id, nodes: [from], rels: [] }];
  const visitedAt = new Map<bigint, number>([[from.id, 0]]);
  for (let depth = 0; depth <= op.max && frontier.length > 0; depth++) {
    const found: Partial[] = [];
    for (const p of frontier) {
      if (p.node === to.id && depth >= op.min) {
        const out = bind(row, op, p);
        if (predicate && asBoolean(predicate(out, ctx), 'WHERE') !== true) continue;
        found.push(p);
        yield out;
        if (!op.all) return;
      }
    }
    if (found.length > 0 || depth === op.max) return;
    const next: Partial[] = [];
    for (const p of frontier) {
      for (const rel of ctx.reader.expand(p.node, op.direction, types)) {
        ctx.stats.dbHits++;
        if (p.rels.some((r) => r.id === rel.id)) continue;
        const other = otherEnd(rel, p.node);
        const seen = visitedAt.get(other);
        if (seen !== undefined && seen <= depth && !(predicate && other === to.id)) continue;
        visitedAt.set(other, depth + 1);
        next.push({ node: other, nodes: [...p.nodes, new NodeRef(other)], rels: [...p.rels, relRef(rel)] });
      }
    }
    frontier = next;
  }
}

function bind(row: Row, op: ShortestPath, p: Partial): Row {
  const out: Record<string, Row[string]> = { ...row, [op.pathVariable]: new PathRef(p.nodes, p.rels) };
  if (op.relationshipVariable) out[op.relationshipVariable] = p.rels;
  return out;
}
