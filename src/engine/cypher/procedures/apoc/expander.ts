/**
 * APOC's path expander (apoc.path.expand, expandConfig, subgraphNodes, subgraphAll, spanningTree): relationship
 * filters (`KNOWS>|<LIKES`), label filters (`+Person|-Banned|/Terminal|>End`), levels,
 * uniqueness, BFS or DFS, limits, end/terminator/white/black lists. Yields PAUSE between slices.
 */
import type { GraphReader } from '../../../storage/graph-store.js';
import { NodeRef, PathRef, RelationshipRef, type CypherMap, type CypherValue } from '../../../values/types.js';
import type { ExecutionContext } from '../../runtime/execution-context.js';
import { PAUSE, type Signal } from '../../runtime/row.js';
import { illegalArgument } from './define.js';
import { parseRelPatterns, type RelPattern } from './entities.js';
import { cfgBoolean, cfgNumber, cfgString, nodeIds } from './values.js';

/** Label filter of the expander. */
interface LabelFilter {
  readonly allow: readonly string[];
  readonly deny: readonly string[];
  readonly terminate: readonly string[];
  readonly end: readonly string[];
}

function parseLabelFilter(text: string | null): LabelFilter {
  const f = { allow: [] as string[], deny: [] as string[], terminate: [] as string[], end: [] as string[] };
  for (const raw of (text ?? '').split(/[|,]/)) {
    const p = raw.trim();
    if (p === '') continue;
    const op = p[0]!;
    if (op === '+') f.allow.push(p.slice(1));
    else if (op === '-') f.deny.push(p.slice(1));
    else if (op === '/') f.terminate.push(p.slice(1));
    else if (op === '>') f.end.push(p.slice(1));
    else f.allow.push(p);
  }
  return f;
}

/** Expander configuration (APOC's config map keys). */
export interface ExpandConfig {
  readonly patterns: readonly RelPattern[];
  readonly labels: LabelFilter;
  readonly minLevel: number;
  readonly maxLevel: number;
  readonly uniqueness: string;
  readonly bfs: boolean;
  readonly limit: number;
  readonly filterStartNode: boolean;
  readonly endNodes: ReadonlySet<bigint> | null;
  readonly terminatorNodes: ReadonlySet<bigint> | null;
  readonly whitelist: ReadonlySet<bigint> | null;
  readonly blacklist: ReadonlySet<bigint>;
}

function idSet(v: CypherValue | undefined, reader: GraphReader): Set<bigint> | null {
  if (v === undefined || v === null) return null;
  return new Set(nodeIds(v, (e) => reader.idFromElementId(e)));
}

/** Reads an expander config map. */
export function expandConfig(
  config: CypherMap,
  reader: GraphReader,
  defaults: { uniqueness?: string; minLevel?: number } = {},
): ExpandConfig {
  if (config.get('sequence') !== undefined && config.get('sequence') !== null)
    throw illegalArgument('The `sequence` option of the path expander is not available on this server');
  return {
    patterns: parseRelPatterns(cfgString(config, 'relationshipFilter', '') ?? ''),
    labels: parseLabelFilter(cfgString(config, 'labelFilter', '')),
    minLevel: cfgNumber(config, 'minLevel', defaults.minLevel ?? 0),
    maxLevel: cfgNumber(config, 'maxLevel', -1),
    uniqueness: (cfgString(config, 'uniqueness', defaults.uniqueness ?? 'RELATIONSHIP_PATH') ?? 'RELATIONSHIP_PATH').toUpperCase(),
    bfs: cfgBoolean(config, 'bfs', true),
    limit: cfgNumber(config, 'limit', -1),
    filterStartNode: cfgBoolean(config, 'filterStartNode', false),
    endNodes: idSet(config.get('endNodes') ?? config.get('endNode'), reader),
    terminatorNodes: idSet(config.get('terminatorNodes') ?? config.get('terminatorNode'), reader),
    whitelist: idSet(config.get('whitelistNodes') ?? config.get('allowlistNodes'), reader),
    blacklist: idSet(config.get('blacklistNodes') ?? config.get('denylistNodes'), reader) ?? new Set(),
  };
}

interface Partial_ {
  readonly nodes: bigint[];
  readonly rels: RelationshipRef[];
}

/** Expands from the start nodes; yields paths (PathRef) interleaved with PAUSE. */
export function* expandPaths(
  exec: ExecutionContext,
  starts: readonly bigint[],
  cfg: ExpandConfig,
): Generator<PathRef | Signal, void, undefined> {
  const reader = exec.reader;
  const labelsOf = (id: bigint) => reader.nodeLabels(id) ?? [];
  const hasAny = (id: bigint, list: readonly string[]) => list.some((l) => labelsOf(id).includes(l));
  const globalNodes = new Set<bigint>();
  const globalRels = new Set<bigint>();
  let emitted = 0;
  const frontier: Partial_[] = starts.map((id) => ({ nodes: [id], rels: [] }));
  for (const id of starts) globalNodes.add(id);
  const usesEndLabels =
    cfg.labels.end.length > 0 || cfg.labels.terminate.length > 0 || cfg.endNodes !== null || cfg.terminatorNodes !== null;
  while (frontier.length > 0) {
    const path = cfg.bfs ? frontier.shift()! : frontier.pop()!;
    if (exec.scheduler.tick()) yield PAUSE;
    const last = path.nodes[path.nodes.length - 1]!;
    const depth = path.rels.length;
    const isStart = depth === 0;
    const checkLabels = !isStart || cfg.filterStartNode;
    if (checkLabels && (hasAny(last, cfg.labels.deny) || cfg.blacklist.has(last))) continue;
    if (checkLabels && cfg.whitelist !== null && !cfg.whitelist.has(last)) continue;
    const isTerminator = checkLabels && (hasAny(last, cfg.labels.terminate) || (cfg.terminatorNodes?.has(last) ?? false));
    const isEnd = checkLabels && (hasAny(last, cfg.labels.end) || (cfg.endNodes?.has(last) ?? false));
    const allowed = !checkLabels || cfg.labels.allow.length === 0 || hasAny(last, cfg.labels.allow) || isTerminator || isEnd;
    if (!allowed) continue;
    const qualifies = depth >= cfg.minLevel && (usesEndLabels ? isEnd || isTerminator : true);
    if (qualifies) {
      yield new PathRef(
        path.nodes.map((id) => new NodeRef(id)),
        path.rels,
      );
      if (cfg.limit > 0 && ++emitted >= cfg.limit) return;
    }
    if (isTerminator || (cfg.maxLevel >= 0 && depth >= cfg.maxLevel)) continue;
    const next: Partial_[] = [];
    for (const p of cfg.patterns) {
      for (const r of reader.expand(last, p.direction, p.type === null ? undefined : [p.type])) {
        const other = r.startId === last ? r.endId : r.startId;
        const rel = new RelationshipRef(r.id, r.type, r.startId, r.endId);
        switch (cfg.uniqueness) {
          case 'NODE_GLOBAL':
            if (globalNodes.has(other)) continue;
            globalNodes.add(other);
            break;
          case 'RELATIONSHIP_GLOBAL':
            if (globalRels.has(r.id)) continue;
            globalRels.add(r.id);
            break;
          case 'NODE_PATH':
            if (path.nodes.includes(other)) continue;
            break;
          case 'NONE':
            break;
          default:
            if (path.rels.some((x) => x.id === r.id)) continue;
        }
        next.push({ nodes: [...path.nodes, other], rels: [...path.rels, rel] });
      }
    }
    if (cfg.bfs) frontier.push(...next);
    else frontier.push(...next.reverse());
  }
}
