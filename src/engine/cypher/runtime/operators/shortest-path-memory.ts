/**
 * The bidirectional shortest-path search of shortest-path-bfs.ts over an in-memory adjacency
 * snapshot (`GraphReader.adjacencySnapshot`): the same levels, the same expansion order and so
 * the same path, but node ids are plain numbers, visited sets are number-keyed maps and a
 * relationship becomes a handle only when it ends up on the returned path.
 */
import type { AdjacencyLists, AdjacencySnapshot, Direction, RelationshipHandle } from '../../../storage/graph-store.js';
import type { ExecutionContext } from '../execution-context.js';
import { PAUSE } from '../row.js';
import type { Signal } from '../row.js';
import { reverse, type FoundPath, type SearchSpec } from './shortest-path-bfs.js';

/** A relationship reached from a node: its position in a direction's lists (`in` or `out`). */
interface Edge {
  readonly lists: AdjacencyLists;
  readonly position: number;
  /** The node the search came from (the owner of the position). */
  readonly prev: number;
}

/** One side of the search: visited nodes with the edge that reached them (null at the origin). */
class Side {
  readonly parent = new Map<number, Edge | null>();
  frontier: number[];
  depth = 0;

  constructor(
    origin: number,
    readonly direction: Direction,
  ) {
    this.parent.set(origin, null);
    this.frontier = [origin];
  }
}

/** Type ids to follow, in the order given (null: every type; empty: none exists). */
function typeIds(graph: AdjacencySnapshot, types: readonly string[] | undefined): number[] | null {
  if (types === undefined || types.length === 0) return null;
  const ids: number[] = [];
  for (const name of new Set(types)) {
    const id = graph.typeId(name);
    if (id !== undefined) ids.push(id);
  }
  return ids;
}

/**
 * The relationships of `node` in one direction's lists, in `expand` order: all of them, or per
 * requested type in the order the types were given.
 */
function* positions(lists: AdjacencyLists, node: number, types: readonly number[] | null): Generator<number> {
  if (node + 1 >= lists.offsets.length) return;
  const start = lists.offsets[node]!;
  const end = lists.offsets[node + 1]!;
  if (types === null) {
    for (let p = start; p < end; p++) yield p;
    return;
  }
  for (const type of types) for (let p = start; p < end; p++) if (lists.type[p] === type) yield p;
}

function handle(edge: Edge, graph: AdjacencySnapshot): RelationshipHandle {
  const far = BigInt(edge.lists.other[edge.position]!);
  const near = BigInt(edge.prev);
  const outgoing = edge.lists === graph.out;
  return {
    id: BigInt(edge.lists.relationship[edge.position]!),
    type: graph.typeName(edge.lists.type[edge.position]!),
    startId: outgoing ? near : far,
    endId: outgoing ? far : near,
  };
}

function chain(side: Side, node: number, graph: AdjacencySnapshot): { nodes: bigint[]; rels: RelationshipHandle[] } {
  const nodes = [BigInt(node)];
  const rels: RelationshipHandle[] = [];
  for (let edge = side.parent.get(node); edge; edge = side.parent.get(edge.prev)) {
    rels.push(handle(edge, graph));
    nodes.push(BigInt(edge.prev));
  }
  return { nodes, rels };
}

/** One shortest path between two distinct nodes (see `bidirectionalShortest`), over `graph`. */
export function* memoryBidirectionalShortest(
  ctx: ExecutionContext,
  graph: AdjacencySnapshot,
  spec: SearchSpec,
): Generator<Signal, FoundPath | null> {
  const types = typeIds(graph, spec.types);
  const forward = new Side(Number(spec.from), spec.direction);
  const backward = new Side(Number(spec.to), reverse(spec.direction));
  while (forward.depth + backward.depth < spec.max && forward.frontier.length > 0 && backward.frontier.length > 0) {
    const [near, far] = forward.frontier.length <= backward.frontier.length ? [forward, backward] : [backward, forward];
    const next: number[] = [];
    for (const node of near.frontier) {
      for (const lists of near.direction === 'out' ? [graph.out] : near.direction === 'in' ? [graph.in] : [graph.out, graph.in]) {
        const skipLoops = near.direction === 'both' && lists === graph.in;
        for (const position of positions(lists, node, types)) {
          ctx.stats.dbHits++;
          if (ctx.scheduler.tick()) yield PAUSE;
          const other = lists.other[position]!;
          if ((skipLoops && other === node) || near.parent.has(other)) continue;
          near.parent.set(other, { lists, position, prev: node });
          if (far.parent.has(other)) {
            const head = chain(forward, other, graph);
            const tail = chain(backward, other, graph);
            return { nodes: [...head.nodes.reverse(), ...tail.nodes.slice(1)], rels: [...head.rels.reverse(), ...tail.rels] };
          }
          next.push(other);
        }
      }
    }
    near.frontier = next;
    near.depth++;
  }
  return null;
}
