/**
 * shortestPath / allShortestPaths between two bound nodes.
 *
 * Between two distinct nodes with a minimum length of at most one and no predicate on the path,
 * the operator runs a bidirectional breadth-first search (one path) or a level search keeping
 * every shortest predecessor (all paths), see `shortest-path-bfs.ts`; once the reader holds an
 * in-memory adjacency snapshot of its version (built after enough searches went through SQL),
 * the one-path search runs over it instead (`shortest-path-memory.ts`). With a predicate on the
 * path (WHERE on the path or relationship variable) it falls back, as Neo4j does, to an
 * exhaustive level-by-level search over relationship-unique paths, checking each candidate that
 * ends at the target. With a minimum length above one or the same node at both ends the same
 * level search runs without predicate, never re-entering a node from a later level.
 */
import { NodeRef, PathRef } from '../../../values/types.js';
import type { RelationshipRef } from '../../../values/types.js';
import type { ShortestPath } from '../../planner/logical/shortest-path.js';
import type { ExecutionContext } from '../execution-context.js';
import { asBoolean } from '../expressions/logic.js';
import type { Evaluator } from '../expressions/evaluator.js';
import { PAUSE, copyRow } from '../row.js';
import type { Emission, Row } from '../row.js';
import { otherEnd, relRef } from './expand.js';
import { allShortest, bidirectionalShortest } from './shortest-path-bfs.js';
import type { FoundPath, SearchSpec, SearchWork } from './shortest-path-bfs.js';
import { memoryBidirectionalShortest } from './shortest-path-memory.js';
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
  if (predicate !== null || from.id === to.id || op.min > 1) {
    yield* exhaustive(ctx, row, op, predicate, from, to, types);
    return;
  }
  const spec: SearchSpec = { from: from.id, to: to.id, direction: op.direction, types, max: op.max };
  const work: SearchWork = { expansions: 0 };
  if (op.all) {
    for (const found of allShortest(ctx, spec, work)) yield typeof found === 'symbol' ? found : bind(row, op, toPartial(found));
    ctx.reader.adjacencySnapshot?.(work.expansions);
    return;
  }
  const graph = ctx.reader.adjacencySnapshot?.(0) ?? null;
  const path = graph !== null ? yield* memoryBidirectionalShortest(ctx, graph, spec) : yield* bidirectionalShortest(ctx, spec, work);
  if (graph === null) ctx.reader.adjacencySnapshot?.(work.expansions);
  if (path) yield bind(row, op, toPartial(path));
}

function toPartial(path: FoundPath): Partial {
  return {
    node: path.nodes[path.nodes.length - 1] ?? 0n,
    nodes: path.nodes.map((id) => new NodeRef(id)),
    rels: path.rels.map(relRef),
  };
}

function* exhaustive(
  ctx: ExecutionContext,
  row: Row,
  op: ShortestPath,
  predicate: Evaluator | null,
  from: NodeRef,
  to: NodeRef,
  types: readonly string[] | undefined,
): Generator<Emission> {
  let frontier: Partial[] = [{ node: from.id, nodes: [from], rels: [] }];
  const visitedAt = new Map<bigint, number>([[from.id, 0]]);
  for (let depth = 0; depth <= op.max && frontier.length > 0; depth++) {
    let found = false;
    for (const p of frontier) {
      if (p.node !== to.id || depth < op.min) continue;
      if (ctx.scheduler.tick()) yield PAUSE;
      const out = bind(row, op, p);
      if (predicate && asBoolean(predicate(out, ctx), 'WHERE') !== true) continue;
      found = true;
      yield out;
      if (!op.all) return;
    }
    if (found || depth === op.max) return;
    const next: Partial[] = [];
    for (const p of frontier) {
      for (const rel of ctx.reader.expand(p.node, op.direction, types)) {
        ctx.stats.dbHits++;
        if (ctx.scheduler.tick()) yield PAUSE;
        if (p.rels.some((r) => r.id === rel.id)) continue;
        const other = otherEnd(rel, p.node);
        const seen = visitedAt.get(other);
        if (predicate === null && seen !== undefined && seen <= depth) continue;
        visitedAt.set(other, depth + 1);
        next.push({ node: other, nodes: [...p.nodes, new NodeRef(other)], rels: [...p.rels, relRef(rel)] });
      }
    }
    frontier = next;
  }
}

function bind(row: Row, op: ShortestPath, p: Partial): Row {
  const out = copyRow(row);
  out[op.pathVariable] = new PathRef(p.nodes, p.rels);
  if (op.relationshipVariable) out[op.relationshipVariable] = p.rels;
  return out;
}
