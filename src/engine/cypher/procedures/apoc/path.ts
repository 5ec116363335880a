/**
 * apoc.path (expand, expandConfig, subgraphNodes/All, spanningTree; create, combine, slice,
 * elements), apoc.neighbors (at/by/to hop) and apoc.algo (dijkstra, aStar, allSimplePaths, cover).
 */
import { isNode, isPath, isRelationship } from '../../../values/kinds.js';
import { NodeRef, PathRef, RelationshipRef, type CypherMap, type CypherValue } from '../../../values/types.js';
import type { ExecutionContext } from '../../runtime/execution-context.js';
import { PAUSE } from '../../runtime/row.js';
import { fn, illegalArgument, proc, type ApocContext, type ProcedureRows } from './define.js';
import { parseRelPatterns, type RelPattern } from './entities.js';
import { expandConfig, expandPaths } from './expander.js';
import { listArg, mapArg, mapOf, nodeIds, num } from './values.js';
import { valueText } from '../../../values/to-string.js';

function starts(c: ApocContext, v: CypherValue): bigint[] {
  return nodeIds(v, (e) => c.reader.idFromElementId(e));
}

function* paths(
  c: ApocContext,
  start: CypherValue,
  config: CypherMap,
  defaults: { uniqueness?: string; minLevel?: number } = {},
): Generator<PathRef | typeof PAUSE> {
  for (const e of expandPaths(c.exec, starts(c, start), expandConfig(config, c.reader, defaults))) yield typeof e === 'symbol' ? PAUSE : e;
}

function* pathRows(
  c: ApocContext,
  start: CypherValue,
  config: CypherMap,
  defaults: { uniqueness?: string; minLevel?: number } = {},
): ProcedureRows {
  for (const e of paths(c, start, config, defaults)) yield e === PAUSE ? e : [e];
}

function subgraphConfig(config: CypherMap): CypherMap {
  return new Map([...config, ['uniqueness', 'NODE_GLOBAL']]);
}

/** Neighbours grouped by their distance (1..distance), each node once at its shortest distance. */
function hops(exec: ExecutionContext, start: bigint, patterns: readonly RelPattern[], distance: number): bigint[][] {
  const seen = new Set<bigint>([start]);
  const levels: bigint[][] = [];
  let frontier = [start];
  for (let d = 1; d <= distance; d++) {
    const next: bigint[] = [];
    for (const id of frontier) {
      for (const p of patterns) {
        for (const r of exec.reader.expand(id, p.direction, p.type === null ? undefined : [p.type])) {
          const other = r.startId === id ? r.endId : r.startId;
          if (!seen.has(other)) {
            seen.add(other);
            next.push(other);
          }
        }
      }
    }
    levels.push(next);
    frontier = next;
  }
  return levels;
}

function nodeArg(v: CypherValue): bigint {
  if (!isNode(v)) throw illegalArgument('Expected a node');
  return v.id;
}

const refs = (ids: readonly bigint[]) => ids.map((id) => new NodeRef(id));

interface WeightedPath {
  readonly nodes: bigint[];
  readonly rels: RelationshipRef[];
  readonly weight: number;
}

/**
 * Dijkstra / A* over the relationship pattern; returns up to `k` cheapest simple paths. A* runs
 * with a zero heuristic: the coordinates APOC reads give no bound in the weight's unit, and a zero
 * heuristic keeps the result the optimal path.
 */
function cheapestPaths(
  exec: ExecutionContext,
  from: bigint,
  to: bigint,
  patterns: readonly RelPattern[],
  weightOf: (r: RelationshipRef) => number,
  heuristic: (id: bigint) => number,
  k: number,
): WeightedPath[] {
  const found: WeightedPath[] = [];
  const queue: { path: WeightedPath; priority: number }[] = [{ path: { nodes: [from], rels: [], weight: 0 }, priority: heuristic(from) }];
  const settledCount = new Map<bigint, number>();
  let steps = 0;
  while (queue.length > 0 && found.length < k) {
    if (++steps > 1_000_000) throw illegalArgument('The search visited more than 1000000 paths');
    let best = 0;
    for (let i = 1; i < queue.length; i++) if (queue[i]!.priority < queue[best]!.priority) best = i;
    const { path } = queue.splice(best, 1)[0]!;
    const last = path.nodes[path.nodes.length - 1]!;
    const count = settledCount.get(last) ?? 0;
    if (count >= k) continue;
    settledCount.set(last, count + 1);
    if (last === to) {
      found.push(path);
      continue;
    }
    for (const p of patterns) {
      for (const r of exec.reader.expand(last, p.direction, p.type === null ? undefined : [p.type])) {
        const other = r.startId === last ? r.endId : r.startId;
        if (path.nodes.includes(other)) continue;
        const rel = new RelationshipRef(r.id, r.type, r.startId, r.endId);
        const w = weightOf(rel);
        if (Number.isNaN(w)) continue;
        const weight = path.weight + w;
        queue.push({ path: { nodes: [...path.nodes, other], rels: [...path.rels, rel], weight }, priority: weight + heuristic(other) });
      }
    }
  }
  return found;
}

function weightFn(exec: ExecutionContext, property: string, defaultWeight: number): (r: RelationshipRef) => number {
  return (r) => num(exec.reader.relationshipProperty(r.id, property) ?? null) ?? defaultWeight;
}

function toPath(p: WeightedPath): PathRef {
  return new PathRef(refs(p.nodes), p.rels);
}

function* allSimplePaths(
  exec: ExecutionContext,
  from: bigint,
  to: bigint,
  patterns: readonly RelPattern[],
  maxNodes: number,
): Generator<PathRef | typeof PAUSE> {
  const stack: { nodes: bigint[]; rels: RelationshipRef[] }[] = [{ nodes: [from], rels: [] }];
  while (stack.length > 0) {
    if (exec.scheduler.tick()) yield PAUSE;
    const path = stack.pop()!;
    const last = path.nodes[path.nodes.length - 1]!;
    if (last === to && path.rels.length > 0) {
      yield new PathRef(refs(path.nodes), path.rels);
      continue;
    }
    if (path.rels.length >= maxNodes) continue;
    for (const p of patterns) {
      for (const r of exec.reader.expand(last, p.direction, p.type === null ? undefined : [p.type])) {
        const other = r.startId === last ? r.endId : r.startId;
        if (path.nodes.includes(other)) continue;
        stack.push({ nodes: [...path.nodes, other], rels: [...path.rels, new RelationshipRef(r.id, r.type, r.startId, r.endId)] });
      }
    }
  }
}

function pathParts(v: CypherValue): { nodes: CypherValue[]; rels: CypherValue[] } {
  if (!isPath(v)) throw illegalArgument('Expected a path');
  return { nodes: [...v.nodes], rels: [...v.relationships] };
}

/** The apoc.path, apoc.neighbors and apoc.algo entries. */
export const pathEntries = [
  proc(
    'apoc.path.expand(startNode :: ANY, relFilter :: STRING, labelFilter :: STRING, minDepth :: INTEGER, maxDepth :: INTEGER) :: (path :: PATH)',
    'READ',
    'Returns `PATH` values expanded from the start `NODE` following the given `RELATIONSHIP` types from min-depth to max-depth.',
    ([start, rel, label, min, max], c) =>
      pathRows(c, start!, mapOf({ relationshipFilter: rel!, labelFilter: label!, minLevel: min!, maxLevel: max! })),
  ),
  proc(
    'apoc.path.expandConfig(startNode :: ANY, config :: MAP) :: (path :: PATH)',
    'READ',
    'Returns `PATH` values expanded from the start `NODE` with the given `RELATIONSHIP` types from min-depth to max-depth.',
    ([start, config], c) => pathRows(c, start!, mapArg(config)),
  ),
  proc(
    'apoc.path.spanningTree(startNode :: ANY, config :: MAP) :: (path :: PATH)',
    'READ',
    'Returns spanning tree `PATH` values expanded from the start `NODE` following the given `RELATIONSHIP` types to max-depth.',
    ([start, config], c) => pathRows(c, start!, subgraphConfig(mapArg(config))),
  ),
  proc(
    'apoc.path.subgraphNodes(startNode :: ANY, config :: MAP) :: (node :: NODE)',
    'READ',
    'Returns the `NODE` values in the sub-graph reachable from the start `NODE` following the given `RELATIONSHIP` types to max-depth.',
    function* ([start, config], c) {
      for (const p of paths(c, start!, subgraphConfig(mapArg(config)))) yield p === PAUSE ? p : [p.nodes[p.nodes.length - 1]!];
    },
  ),
  proc(
    'apoc.path.subgraphAll(startNode :: ANY, config :: MAP) :: (nodes :: LIST<NODE>, relationships :: LIST<RELATIONSHIP>)',
    'READ',
    'Returns the sub-graph reachable from the start `NODE` following the given `RELATIONSHIP` types to max-depth.',
    function* ([start, config], c) {
      const nodes: NodeRef[] = [];
      for (const p of paths(c, start!, subgraphConfig(mapArg(config)))) {
        if (p === PAUSE) yield p;
        else nodes.push(p.nodes[p.nodes.length - 1]!);
      }
      const ids = new Set(nodes.map((n) => n.id));
      const patterns = parseRelPatterns(mapArg(config).get('relationshipFilter') ?? '');
      const rels = new Map<bigint, RelationshipRef>();
      for (const id of ids) {
        for (const p of patterns) {
          for (const r of c.reader.expand(id, p.direction, p.type === null ? undefined : [p.type])) {
            if (ids.has(r.startId) && ids.has(r.endId)) rels.set(r.id, new RelationshipRef(r.id, r.type, r.startId, r.endId));
          }
        }
      }
      yield [nodes, [...rels.values()]];
    },
  ),
  fn(
    'apoc.path.create(startNode :: NODE, rels = [] :: LIST<RELATIONSHIP>) :: PATH',
    'Returns a `PATH` from the given start `NODE` and `LIST<RELATIONSHIP>`.',
    ([start, rels]) => {
      if (!isNode(start!)) return null;
      const nodes: NodeRef[] = [new NodeRef(start.id)];
      const relList: RelationshipRef[] = [];
      for (const r of listArg(rels)) {
        if (!isRelationship(r)) continue;
        const last = nodes[nodes.length - 1]!.id;
        if (r.startId !== last && r.endId !== last) throw illegalArgument('Relationship is not connected to the end of the path');
        relList.push(new RelationshipRef(r.id, r.type, r.startId, r.endId));
        nodes.push(new NodeRef(r.startId === last ? r.endId : r.startId));
      }
      return new PathRef(nodes, relList);
    },
  ),
  fn('apoc.path.combine(path1 :: PATH, path2 :: PATH) :: PATH', 'Combines the two given `PATH` values into one `PATH`.', ([a, b]) => {
    if (a === null) return b!;
    if (b === null) return a!;
    const p = pathParts(a!);
    const q = pathParts(b!);
    const end = p.nodes[p.nodes.length - 1] as NodeRef;
    if (end.id !== (q.nodes[0] as NodeRef).id) throw illegalArgument("Paths don't connect on their end and start-nodes");
    return new PathRef(
      [...(p.nodes as NodeRef[]), ...(q.nodes.slice(1) as NodeRef[])],
      [...(p.rels as RelationshipRef[]), ...(q.rels as RelationshipRef[])],
    );
  }),
  fn(
    'apoc.path.slice(path :: PATH, offset = 0 :: INTEGER, length = -1 :: INTEGER) :: PATH',
    'Returns a new `PATH` of the given length, taken from the given `PATH` at the given offset.',
    ([path, offset, length]) => {
      if (path === null) return null;
      const p = pathParts(path!);
      const from = Math.min(Number(offset ?? 0n), p.rels.length);
      const to = Number(length ?? -1n) < 0 ? p.rels.length : Math.min(p.rels.length, from + Number(length));
      return new PathRef(p.nodes.slice(from, to + 1) as NodeRef[], p.rels.slice(from, to) as RelationshipRef[]);
    },
  ),
  fn('apoc.path.elements(path :: PATH) :: LIST<ANY>', 'Converts the given `PATH` into a `LIST<NODE | RELATIONSHIP>`.', ([path]) => {
    if (path === null) return null;
    const p = pathParts(path!);
    return p.nodes.flatMap((n, i) => (i < p.rels.length ? [n, p.rels[i]!] : [n]));
  }),
  proc(
    "apoc.neighbors.tohop(node :: NODE, relTypes = '' :: STRING, distance = 1 :: INTEGER) :: (node :: NODE)",
    'READ',
    'Returns all `NODE` values connected by the given `RELATIONSHIP` types within the specified distance.',
    function* ([node, types, d], c) {
      for (const level of hops(c.exec, nodeArg(node!), parseRelPatterns(types!), Number(d)))
        for (const id of level) yield [new NodeRef(id)];
    },
  ),
  proc(
    "apoc.neighbors.tohop.count(node :: NODE, relTypes = '' :: STRING, distance = 1 :: INTEGER) :: (value :: INTEGER)",
    'READ',
    'Returns the count of all `NODE` values connected by the given `RELATIONSHIP` types within the specified distance.',
    function* ([node, types, d], c) {
      yield [BigInt(hops(c.exec, nodeArg(node!), parseRelPatterns(types!), Number(d)).reduce((a, l) => a + l.length, 0))];
    },
  ),
  proc(
    "apoc.neighbors.byhop(node :: NODE, relTypes = '' :: STRING, distance = 1 :: INTEGER) :: (nodes :: LIST<NODE>)",
    'READ',
    'Returns all `NODE` values connected by the given `RELATIONSHIP` types within the specified distance. Returns `LIST<NODE>` values, where each `PATH` of `NODE` values represents one row of the `LIST<NODE>` values.',
    function* ([node, types, d], c) {
      for (const level of hops(c.exec, nodeArg(node!), parseRelPatterns(types!), Number(d))) yield [refs(level)];
    },
  ),
  proc(
    "apoc.neighbors.byhop.count(node :: NODE, relTypes = '' :: STRING, distance = 1 :: INTEGER) :: (value :: LIST<ANY>)",
    'READ',
    'Returns the count of all `NODE` values connected by the given `RELATIONSHIP` types within the specified distance.',
    function* ([node, types, d], c) {
      yield [hops(c.exec, nodeArg(node!), parseRelPatterns(types!), Number(d)).map((l) => BigInt(l.length))];
    },
  ),
  proc(
    "apoc.neighbors.athop(node :: NODE, relTypes = '' :: STRING, distance = 1 :: INTEGER) :: (node :: NODE)",
    'READ',
    'Returns all `NODE` values connected by the given `RELATIONSHIP` types at the specified distance.',
    function* ([node, types, d], c) {
      const levels = hops(c.exec, nodeArg(node!), parseRelPatterns(types!), Number(d));
      for (const id of levels[levels.length - 1] ?? []) yield [new NodeRef(id)];
    },
  ),
  proc(
    "apoc.neighbors.athop.count(node :: NODE, relTypes = '' :: STRING, distance = 1 :: INTEGER) :: (value :: INTEGER)",
    'READ',
    'Returns the count of all `NODE` values connected by the given `RELATIONSHIP` types at the specified distance.',
    function* ([node, types, d], c) {
      const levels = hops(c.exec, nodeArg(node!), parseRelPatterns(types!), Number(d));
      yield [BigInt(levels[levels.length - 1]?.length ?? 0)];
    },
  ),
  proc(
    'apoc.algo.dijkstra(startNode :: NODE, endNode :: NODE, relTypesAndDirections :: STRING, weightPropertyName :: STRING, defaultWeight = NaN :: FLOAT, numberOfWantedPaths = 1 :: INTEGER) :: (path :: PATH, weight :: FLOAT)',
    'READ',
    "Runs Dijkstra's algorithm using the given `RELATIONSHIP` property as the cost function.",
    function* ([s, e, types, w, dw, k], c) {
      for (const p of cheapestPaths(
        c.exec,
        nodeArg(s!),
        nodeArg(e!),
        parseRelPatterns(types!),
        weightFn(c.exec, valueText(w), num(dw!) ?? NaN),
        () => 0,
        Number(k ?? 1n),
      ))
        yield [toPath(p), p.weight];
    },
  ),
  proc(
    'apoc.algo.aStar(startNode :: NODE, endNode :: NODE, relTypesAndDirections :: STRING, weightPropertyName :: STRING, latPropertyName :: STRING, lonPropertyName :: STRING) :: (path :: PATH, weight :: FLOAT)',
    'READ',
    'Runs the A* search algorithm to find the optimal path between two `NODE` values, using the given `RELATIONSHIP` property name for the cost function.',
    function* ([s, e, types, w], c) {
      const to = nodeArg(e!);
      for (const p of cheapestPaths(c.exec, nodeArg(s!), to, parseRelPatterns(types!), weightFn(c.exec, valueText(w), NaN), () => 0, 1))
        yield [toPath(p), p.weight];
    },
  ),
  proc(
    'apoc.algo.aStarConfig(startNode :: NODE, endNode :: NODE, relTypesAndDirections :: STRING, config :: MAP) :: (path :: PATH, weight :: FLOAT)',
    'READ',
    'Runs the A* search algorithm to find the optimal path between two `NODE` values, using the given `RELATIONSHIP` property name for the cost function. This procedure looks for weight, latitude, and longitude properties in the config.',
    function* ([s, e, types, config], c) {
      const cfg = mapArg(config);
      const to = nodeArg(e!);
      const weight = weightFn(c.exec, valueText(cfg.get('weight') ?? 'distance'), num(cfg.get('default') ?? null) ?? NaN);
      for (const p of cheapestPaths(c.exec, nodeArg(s!), to, parseRelPatterns(types!), weight, () => 0, 1)) yield [toPath(p), p.weight];
    },
  ),
  proc(
    'apoc.algo.allSimplePaths(startNode :: NODE, endNode :: NODE, relTypesAndDirections :: STRING, maxNodes :: INTEGER) :: (path :: PATH)',
    'READ',
    'Runs a search algorithm to find all of the simple paths between the given `RELATIONSHIP` values, up to a max depth described by `maxNodes`.',
    function* ([s, e, types, max], c) {
      for (const p of allSimplePaths(c.exec, nodeArg(s!), nodeArg(e!), parseRelPatterns(types!), Number(max))) yield p === PAUSE ? p : [p];
    },
  ),
  proc(
    'apoc.algo.cover(nodes :: ANY) :: (rel :: RELATIONSHIP)',
    'READ',
    'Returns all `RELATIONSHIP` values connecting the given set of `NODE` values.',
    function* ([nodes], c) {
      const ids = new Set(starts(c, nodes!));
      for (const id of ids)
        for (const r of c.reader.expand(id, 'out')) if (ids.has(r.endId)) yield [new RelationshipRef(r.id, r.type, r.startId, r.endId)];
    },
  ),
];
