/**
 * apoc.nodes: fetching, deleting, linking, grouping, collapsing and cycle finding over node sets;
 * relationship checks over several nodes.
 */
import { groupKey } from '../../../values/group-key.js';
import { isNode } from '../../../values/kinds.js';
import { Node, NodeRef, PathRef, Relationship, RelationshipRef, type CypherMap, type CypherValue } from '../../../values/types.js';
import { COMMIT, PAUSE } from '../../runtime/row.js';
import { fn, illegalArgument, proc } from './define.js';
import { nodesArg } from './create.js';
import { degreeFor, existsMap, parseRelPatterns, readerOf, relTypesOf } from './entities.js';
import { cfgBoolean, cfgNumber, listArg, mapArg, mapOf, nodeIds } from './values.js';
import { virtualNode, virtualRelationship } from './virtual.js';
import { valueText } from '../../../values/to-string.js';

const DENSE_NODE = 50;

/** Aggregations of apoc.nodes.group: `{`*`: 'count', age: ['min', 'max']}` per entry. */
function aggregateGroup(members: readonly CypherMap[], spec: CypherMap): Map<string, CypherValue> {
  const out = new Map<string, CypherValue>();
  for (const [key, ops] of spec) {
    for (const op of listArg(ops)) {
      const name = valueText(op).toLowerCase();
      const values = key === '*' ? members.map(() => 1n) : members.map((m) => m.get(key) ?? null).filter((v) => v !== null);
      const nums = values.map((v) => (typeof v === 'bigint' ? Number(v) : typeof v === 'number' ? v : NaN)).filter((n) => !Number.isNaN(n));
      let result: CypherValue;
      switch (name) {
        case 'count':
          result = BigInt(values.length);
          break;
        case 'sum':
          result = nums.reduce((a, b) => a + b, 0);
          break;
        case 'min':
          result = nums.length === 0 ? null : Math.min(...nums);
          break;
        case 'max':
          result = nums.length === 0 ? null : Math.max(...nums);
          break;
        case 'avg':
          result = nums.length === 0 ? null : nums.reduce((a, b) => a + b, 0) / nums.length;
          break;
        case 'collect':
          result = values;
          break;
        default:
          throw illegalArgument(`Unknown aggregation ${name}`);
      }
      out.set(`${name}_${key}`, result);
    }
  }
  return out;
}

/** The apoc.nodes entries. */
export const nodesEntries = [
  proc('apoc.nodes.get(nodes :: ANY) :: (node :: NODE)', 'READ', 'Returns all `NODE` values given by their ids.', function* ([nodes], c) {
    for (const id of nodesArg(c, nodes!)) yield [new NodeRef(id)];
  }),
  proc(
    'apoc.nodes.rels(rels :: ANY) :: (rel :: RELATIONSHIP)',
    'READ',
    'Returns all `RELATIONSHIP` values given by their ids.',
    function* ([rels], c) {
      for (const item of listArg(rels)) {
        const id =
          typeof item === 'bigint'
            ? item
            : item !== null && typeof item === 'object' && 'type' in item && 'startId' in item
              ? item.id
              : typeof item === 'string'
                ? c.reader.idFromElementId(item)
                : null;
        const r = id === null ? null : c.reader.getRelationship(id);
        if (r) yield [new RelationshipRef(r.id, r.type, r.startId, r.endId)];
      }
    },
  ),
  proc(
    'apoc.nodes.delete(nodes :: ANY, batchSize :: INTEGER) :: (value :: INTEGER)',
    'WRITE',
    'Deletes all `NODE` values with the given ids.',
    function* ([nodes, batchSize], c) {
      const ids = nodesArg(c, nodes!);
      const size = Math.max(1, Number(batchSize ?? 1000n));
      for (let i = 0; i < ids.length; i++) {
        c.writer().deleteNode(ids[i]!, true);
        if ((i + 1) % size === 0 && i + 1 < ids.length && c.exec.batchCommits) yield COMMIT;
      }
      yield [BigInt(ids.length)];
    },
  ),
  proc(
    'apoc.nodes.link(nodes :: LIST<NODE>, type :: STRING, config = {} :: MAP) :: VOID',
    'WRITE',
    'Creates a linked list of the given `NODE` values connected by the given `RELATIONSHIP` type.',
    function* ([nodes, type, config], c) {
      const ids = nodeIds(nodes!);
      const avoid = cfgBoolean(mapArg(config), 'avoidDuplicates', false);
      for (let i = 0; i + 1 < ids.length; i++) {
        const [a, b] = [ids[i]!, ids[i + 1]!];
        if (avoid && [...c.reader.expand(a, 'out', [valueText(type)])].some((r) => r.endId === b)) continue;
        c.writer().createRelationship(valueText(type), a, b, new Map());
      }
    },
  ),
  proc(
    'apoc.nodes.collapse(nodes :: LIST<NODE>, config = {} :: MAP) :: (from :: NODE, rel :: RELATIONSHIP, to :: NODE)',
    'READ',
    'Merges `NODE` values together in the given `LIST<NODE>`. The `NODE` values are then combined to become one `NODE`, with all labels of the previous `NODE` values attached to it, and all `RELATIONSHIP` values pointing to it.',
    function* ([nodes, config], c) {
      const ids = nodesArg(c, nodes!);
      if (ids.length === 0) return;
      const labels = [...new Set(ids.flatMap((id) => c.reader.nodeLabels(id) ?? []))];
      const props = new Map<string, CypherValue>();
      if (cfgBoolean(mapArg(config), 'properties', true) !== false)
        for (const id of ids) for (const [k, v] of c.reader.getNode(id)?.properties ?? []) props.set(k, v);
      if (cfgBoolean(mapArg(config), 'countMerge', true)) props.set('count', BigInt(ids.length));
      const merged = virtualNode(labels, props);
      const members = new Set(ids);
      let any = false;
      for (const id of ids) {
        for (const r of c.reader.expand(id, 'both')) {
          const inside = members.has(r.startId) && members.has(r.endId);
          if (inside) continue;
          const start = members.has(r.startId) ? merged : new NodeRef(r.startId);
          const end = members.has(r.endId) ? merged : new NodeRef(r.endId);
          any = true;
          yield [
            start,
            virtualRelationship(r.type, start, end, c.reader.getRelationship(r.id)?.properties ?? new Map(), c.exec.accessor),
            end,
          ];
        }
      }
      if (!any) yield [merged, null, null];
    },
  ),
  proc(
    'apoc.nodes.cycles(nodes :: LIST<NODE>, config = {} :: MAP) :: (path :: PATH)',
    'READ',
    'Detects all `PATH` cycles in the given `LIST<NODE>`. This procedure can be limited on `RELATIONSHIP` values as well.',
    function* ([nodes, config], c) {
      const cfg = mapArg(config);
      const types = listArg(cfg.get('types') ?? null).map(String);
      const maxDepth = cfgNumber(cfg, 'maxDepth', 100);
      const seen = new Set<string>();
      for (const start of nodesArg(c, nodes!)) {
        const stack: { nodes: bigint[]; rels: RelationshipRef[] }[] = [{ nodes: [start], rels: [] }];
        while (stack.length > 0) {
          if (c.exec.scheduler.tick()) yield PAUSE;
          const path = stack.pop()!;
          const last = path.nodes[path.nodes.length - 1]!;
          if (path.rels.length >= maxDepth) continue;
          for (const r of c.reader.expand(last, 'out', types.length > 0 ? types : undefined)) {
            const rel = new RelationshipRef(r.id, r.type, r.startId, r.endId);
            if (r.endId === start) {
              const rels = [...path.rels, rel];
              const key = rels
                .map((x) => x.id)
                .sort()
                .join(',');
              if (seen.has(key)) continue;
              seen.add(key);
              yield [
                new PathRef(
                  [...path.nodes, start].map((id) => new NodeRef(id)),
                  rels,
                ),
              ];
            } else if (!path.nodes.includes(r.endId)) stack.push({ nodes: [...path.nodes, r.endId], rels: [...path.rels, rel] });
          }
        }
      }
    },
  ),
  proc(
    "apoc.nodes.group(labels :: LIST<STRING>, groupByProperties :: LIST<STRING>, aggregations = [{`*`: 'count'}] :: LIST<MAP>, config = {} :: MAP) :: (nodes :: LIST<NODE>, relationships :: LIST<RELATIONSHIP>, node :: NODE, relationship :: RELATIONSHIP)",
    'READ',
    'Allows for the aggregation of `NODE` values based on the given properties. This procedure returns virtual `NODE` values.',
    function* ([labels, keys, aggregations, config], c) {
      const wanted = listArg(labels).map(String);
      const groupKeys = listArg(keys).map(String);
      const specs = listArg(aggregations);
      const nodeSpec = mapArg(specs[0] ?? null);
      const relSpec = mapArg(specs[1] ?? mapOf({ '*': 'count' }));
      const cfg = mapArg(config);
      const groups = new Map<string, { labels: string[]; key: Map<string, CypherValue>; members: bigint[]; props: CypherMap[] }>();
      const groupOf = new Map<bigint, string>();
      const ids = wanted.includes('*') ? [...c.reader.allNodeIds()] : [...new Set(wanted.flatMap((l) => [...c.reader.nodeIdsByLabel(l)]))];
      for (const id of ids) {
        if (c.exec.scheduler.tick()) yield PAUSE;
        const record = c.reader.getNode(id);
        if (!record) continue;
        const key = new Map(groupKeys.map((k) => [k, record.properties.get(k) ?? null]));
        if ([...key.values()].every((v) => v === null)) continue;
        const labelList = wanted.includes('*') ? [...record.labels] : record.labels.filter((l) => wanted.includes(l));
        const k = groupKey([labelList, [...key.values()]] as CypherValue);
        let g = groups.get(k);
        if (!g) groups.set(k, (g = { labels: labelList, key, members: [], props: [] }));
        g.members.push(id);
        g.props.push(record.properties);
        groupOf.set(id, k);
      }
      const virtual = new Map<string, Node>();
      for (const [k, g] of groups)
        virtual.set(
          k,
          virtualNode(g.labels, new Map([...g.key, ...aggregateGroup(g.props, nodeSpec.size > 0 ? nodeSpec : mapOf({ '*': 'count' }))])),
        );
      const relGroups = new Map<string, { type: string; from: string; to: string; props: CypherMap[] }>();
      const relTypes = listArg(cfg.get('includeRels') ?? null).map(String);
      for (const [id, from] of groupOf) {
        for (const r of c.reader.expand(id, 'out', relTypes.length > 0 ? relTypes : undefined)) {
          const to = groupOf.get(r.endId);
          if (to === undefined) continue;
          const k = `${from}\u0000${r.type}\u0000${to}`;
          const e = relGroups.get(k) ?? { type: r.type, from, to, props: [] };
          relGroups.set(k, e);
          e.props.push(c.reader.getRelationship(r.id)?.properties ?? new Map());
        }
      }
      const rels: Relationship[] = [...relGroups.values()].map((e) =>
        virtualRelationship(e.type, virtual.get(e.from)!, virtual.get(e.to)!, aggregateGroup(e.props, relSpec), c.exec.accessor),
      );
      const nodeList = [...virtual.values()];
      for (const node of nodeList) {
        const outgoing = rels.filter((r) => r.startId === node.id);
        if (outgoing.length === 0) yield [nodeList, rels, node, null];
        for (const r of outgoing) yield [nodeList, rels, node, r];
      }
    },
  ),
  fn(
    "apoc.nodes.connected(startNode :: NODE, endNode :: NODE, types = '' :: STRING) :: BOOLEAN",
    'Returns true when a given `NODE` is directly connected to another given `NODE`.',
    ([a, b, types], ctx) => {
      if (!isNode(a!) || !isNode(b!)) return false;
      const reader = readerOf(ctx);
      return parseRelPatterns(types!).some((p) =>
        [...reader.expand(a.id, p.direction, p.type === null ? undefined : [p.type])].some(
          (r) => (r.startId === a.id ? r.endId : r.startId) === b.id,
        ),
      );
    },
  ),
  fn('apoc.nodes.isDense(node :: NODE) :: BOOLEAN', 'Returns true if the given `NODE` is a dense node.', ([node], ctx) =>
    isNode(node!) ? degreeFor(readerOf(ctx), node.id, parseRelPatterns('')) >= DENSE_NODE : false,
  ),
  fn(
    "apoc.nodes.relationship.types(nodes :: ANY, types = '' :: STRING) :: LIST<ANY>",
    'Returns a `LIST<STRING>` of distinct `RELATIONSHIP` types from the given `LIST<NODE>` values.',
    ([nodes, types], ctx) => {
      const reader = readerOf(ctx);
      return nodeIds(nodes!, (e) => reader.idFromElementId(e)).map((id) =>
        mapOf({ node: new NodeRef(id), types: relTypesOf(reader, id, parseRelPatterns(types!)) }),
      );
    },
  ),
  fn(
    "apoc.nodes.relationships.exist(nodes :: ANY, types = '' :: STRING) :: LIST<ANY>",
    'Returns a `BOOLEAN` based on whether or not the given `NODE` values have the given `RELATIONSHIP` values.',
    ([nodes, types], ctx) => {
      const reader = readerOf(ctx);
      return nodeIds(nodes!, (e) => reader.idFromElementId(e)).map((id) =>
        mapOf({ node: new NodeRef(id), exists: existsMap(reader, id, types!) }),
      );
    },
  ),
];
