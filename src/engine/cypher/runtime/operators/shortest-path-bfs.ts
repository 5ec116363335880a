/**
 * Breadth-first searches behind shortestPath / allShortestPaths. Every search ticks the
 * statement clock per relationship it reads, so time slices, the transaction timeout and
 * termination apply to it like to any scan.
 */
import type { Direction, RelationshipHandle } from '../../../storage/graph-store.js';
import type { ExecutionContext } from '../execution-context.js';
import { PAUSE } from '../row.js';
import type { Signal } from '../row.js';
import { otherEnd } from './expand.js';

/** A path found by a search: node ids from start to end and the relationships between them. */
export interface FoundPath {
  readonly nodes: readonly bigint[];
  readonly rels: readonly RelationshipHandle[];
}

/** Counts the node expansions a search did through `GraphReader.expand`. */
export interface SearchWork {
  expansions: number;
}

/** What a search needs to know about the pattern. */
export interface SearchSpec {
  readonly from: bigint;
  readonly to: bigint;
  readonly direction: Direction;
  readonly types: readonly string[] | undefined;
  readonly max: number;
}

/** One step back towards the search's origin: the relationship and the node it came from. */
interface Step {
  readonly rel: RelationshipHandle;
  readonly prev: bigint;
}

/** The direction of a search walking back from the other end. */
export function reverse(direction: Direction): Direction {
  return direction === 'out' ? 'in' : direction === 'in' ? 'out' : 'both';
}

/** One side of a bidirectional search: visited nodes with the step that reached them. */
class Side {
  readonly parent = new Map<bigint, Step | null>();
  frontier: bigint[];
  depth = 0;

  constructor(
    origin: bigint,
    readonly direction: Direction,
  ) {
    this.parent.set(origin, null);
    this.frontier = [origin];
  }

  /** Node ids from `node` back to this side's origin. */
  chain(node: bigint): { nodes: bigint[]; rels: RelationshipHandle[] } {
    const nodes = [node];
    const rels: RelationshipHandle[] = [];
    for (let step = this.parent.get(node); step; step = this.parent.get(step.prev)) {
      rels.push(step.rel);
      nodes.push(step.prev);
    }
    return { nodes, rels };
  }
}

/**
 * One shortest path between two distinct nodes, searching from both ends and always expanding
 * the smaller frontier by one whole level. The first node both sides reach completes a shortest
 * path: every node the other side knows lies no farther than its current depth.
 */
export function* bidirectionalShortest(ctx: ExecutionContext, spec: SearchSpec, work: SearchWork): Generator<Signal, FoundPath | null> {
  const forward = new Side(spec.from, spec.direction);
  const backward = new Side(spec.to, reverse(spec.direction));
  while (forward.depth + backward.depth < spec.max && forward.frontier.length > 0 && backward.frontier.length > 0) {
    const [near, far] = forward.frontier.length <= backward.frontier.length ? [forward, backward] : [backward, forward];
    const next: bigint[] = [];
    for (const node of near.frontier) {
      work.expansions++;
      for (const rel of ctx.reader.expand(node, near.direction, spec.types)) {
        ctx.stats.dbHits++;
        if (ctx.scheduler.tick()) yield PAUSE;
        const other = otherEnd(rel, node);
        if (near.parent.has(other)) continue;
        near.parent.set(other, { rel, prev: node });
        if (far.parent.has(other)) return join(forward, backward, other);
        next.push(other);
      }
    }
    near.frontier = next;
    near.depth++;
  }
  return null;
}

function join(forward: Side, backward: Side, meeting: bigint): FoundPath {
  const head = forward.chain(meeting);
  const tail = backward.chain(meeting);
  return {
    nodes: [...head.nodes.reverse(), ...tail.nodes.slice(1)],
    rels: [...head.rels.reverse(), ...tail.rels],
  };
}

/**
 * Every shortest path between two distinct nodes: a level-by-level search from the start that
 * records each shortest predecessor step, stopping after the level that reaches the end; the
 * paths are then enumerated lazily, backwards over the recorded steps (their number can grow
 * exponentially with the length, so enumeration ticks the clock too).
 */
export function* allShortest(ctx: ExecutionContext, spec: SearchSpec, work: SearchWork): Generator<Signal | FoundPath> {
  const depthOf = new Map<bigint, number>([[spec.from, 0]]);
  const steps = new Map<bigint, Step[]>();
  let frontier = [spec.from];
  for (let depth = 0; depth < spec.max && frontier.length > 0 && !depthOf.has(spec.to); depth++) {
    const next: bigint[] = [];
    for (const node of frontier) {
      work.expansions++;
      for (const rel of ctx.reader.expand(node, spec.direction, spec.types)) {
        ctx.stats.dbHits++;
        if (ctx.scheduler.tick()) yield PAUSE;
        const other = otherEnd(rel, node);
        const seen = depthOf.get(other);
        if (seen === undefined) {
          depthOf.set(other, depth + 1);
          steps.set(other, [{ rel, prev: node }]);
          next.push(other);
        } else if (seen === depth + 1) {
          steps.get(other)?.push({ rel, prev: node });
        }
      }
    }
    frontier = next;
  }
  if (!depthOf.has(spec.to)) return;
  const nodes: bigint[] = [spec.to];
  const rels: RelationshipHandle[] = [];
  function* walk(node: bigint): Generator<Signal | FoundPath> {
    if (ctx.scheduler.tick()) yield PAUSE;
    if (node === spec.from) {
      yield { nodes: [...nodes].reverse(), rels: [...rels].reverse() };
      return;
    }
    for (const step of steps.get(node) ?? []) {
      nodes.push(step.prev);
      rels.push(step.rel);
      yield* walk(step.prev);
      nodes.pop();
      rels.pop();
    }
  }
  yield* walk(spec.to);
}
