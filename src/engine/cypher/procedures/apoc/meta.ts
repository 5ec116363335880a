/**
 * apoc.meta: the graph's schema as tables (data, nodeTypeProperties, relTypeProperties), a map
 * (schema), virtual graphs (graph, graphSample, subGraph), counts (stats, nodes.count) and
 * value types (cypher.type/types/isType).
 */
import type { CypherMap, CypherValue, Node } from '../../../values/types.js';
import type { ExecutionContext } from '../../runtime/execution-context.js';
import { fn, proc, type ApocContext } from './define.js';
import { metaFilter, scanDatabase, scanValues, type MetaStats, type PropertyStats } from './meta-scan.js';
import { metaType } from './meta-types.js';
import { collectCypher } from './run-cypher.js';
import { collectEntities, virtualNode, virtualRelationship } from './virtual.js';
import { listArg, mapArg, mapOf } from './values.js';
import type { Signal } from '../../runtime/row.js';
import { valueText } from '../../../values/to-string.js';
import { isMap } from '../../../values/kinds.js';

const META_DATA_OUTPUTS =
  '(label :: STRING, property :: STRING, count :: INTEGER, unique :: BOOLEAN, index :: BOOLEAN, existence :: BOOLEAN, type :: STRING, array :: BOOLEAN, sample :: LIST<ANY>, left :: INTEGER, right :: INTEGER, other :: LIST<STRING>, otherLabels :: LIST<STRING>, elementType :: STRING)';

interface SchemaFacts {
  indexed(entity: 'NODE' | 'RELATIONSHIP', token: string, property: string): boolean;
  unique(entity: 'NODE' | 'RELATIONSHIP', token: string, property: string): boolean;
  existence(entity: 'NODE' | 'RELATIONSHIP', token: string, property: string): boolean;
}

function schemaFacts(exec: ExecutionContext): SchemaFacts {
  const indexes = exec.reader.indexes();
  const constraints = exec.reader.constraints();
  const has = (
    list: readonly { entityType: string; labelsOrTypes: readonly string[]; properties: readonly string[] }[],
    e: string,
    t: string,
    p: string,
  ) => list.some((x) => x.entityType === e && x.labelsOrTypes.includes(t) && x.properties[0] === p);
  return {
    indexed: (e, t, p) =>
      has(
        indexes.filter((i) => i.type !== 'LOOKUP'),
        e,
        t,
        p,
      ),
    unique: (e, t, p) =>
      has(
        constraints.filter((c) => c.type.includes('UNIQUENESS') || c.type.includes('KEY')),
        e,
        t,
        p,
      ),
    existence: (e, t, p) =>
      has(
        constraints.filter((c) => c.type.includes('EXISTENCE') || c.type.includes('KEY')),
        e,
        t,
        p,
      ),
  };
}

function propertyType(p: PropertyStats): string {
  return p.types.size === 1 ? [...p.types][0]! : p.types.has('LIST') ? 'LIST' : 'STRING';
}

function metaDataRows(stats: MetaStats, facts: SchemaFacts): CypherValue[][] {
  const rows: CypherValue[][] = [];
  for (const [label, s] of [...stats.labels].sort(([a], [b]) => (a < b ? -1 : 1))) {
    for (const [type, out] of s.out) {
      rows.push([
        label,
        type,
        BigInt(out.count),
        false,
        false,
        false,
        'RELATIONSHIP',
        true,
        null,
        BigInt(out.count),
        0n,
        [...out.others],
        [],
        'node',
      ]);
    }
    for (const [key, p] of s.properties) {
      rows.push([
        label,
        key,
        BigInt(s.count),
        facts.unique('NODE', label, key),
        facts.indexed('NODE', label, key),
        facts.existence('NODE', label, key),
        propertyType(p),
        p.array,
        null,
        0n,
        0n,
        [],
        [],
        'node',
      ]);
    }
  }
  for (const [type, t] of [...stats.types].sort(([a], [b]) => (a < b ? -1 : 1))) {
    for (const [key, p] of t.properties) {
      rows.push([
        type,
        key,
        BigInt(t.count),
        facts.unique('RELATIONSHIP', type, key),
        facts.indexed('RELATIONSHIP', type, key),
        facts.existence('RELATIONSHIP', type, key),
        propertyType(p),
        p.array,
        null,
        0n,
        0n,
        [],
        [],
        'relationship',
      ]);
    }
  }
  return rows;
}

function propertiesMap(props: Map<string, PropertyStats>, facts: SchemaFacts, entity: 'NODE' | 'RELATIONSHIP', token: string): CypherMap {
  const out = new Map<string, CypherValue>();
  for (const [key, p] of props) {
    out.set(
      key,
      mapOf({
        existence: facts.existence(entity, token, key),
        type: propertyType(p),
        indexed: facts.indexed(entity, token, key),
        unique: facts.unique(entity, token, key),
        array: p.array,
      }),
    );
  }
  return out;
}

function metaSchema(stats: MetaStats, facts: SchemaFacts): CypherMap {
  const value = new Map<string, CypherValue>();
  for (const [label, s] of stats.labels) {
    const relationships = new Map<string, CypherValue>();
    for (const [direction, rels] of [
      ['out', s.out],
      ['in', s.in],
    ] as const) {
      for (const [type, r] of rels) {
        relationships.set(
          type,
          mapOf({
            count: BigInt(r.count),
            properties: propertiesMap(stats.types.get(type)?.properties ?? new Map<string, PropertyStats>(), facts, 'RELATIONSHIP', type),
            direction,
            labels: [...r.others],
          }),
        );
      }
    }
    value.set(
      label,
      mapOf({
        count: BigInt(s.count),
        relationships,
        type: 'node',
        properties: propertiesMap(s.properties, facts, 'NODE', label),
        labels: [],
      }),
    );
  }
  for (const [type, t] of stats.types) {
    value.set(
      type,
      mapOf({ count: BigInt(t.count), type: 'relationship', properties: propertiesMap(t.properties, facts, 'RELATIONSHIP', type) }),
    );
  }
  return value;
}

function metaGraph(stats: MetaStats, c: ApocContext): CypherValue[] {
  const nodes = new Map<string, Node>();
  for (const [label, s] of stats.labels) nodes.set(label, virtualNode([label], mapOf({ name: label, count: BigInt(s.count) })));
  const rels: CypherValue[] = [];
  for (const triple of stats.triples.values()) {
    const start = nodes.get(triple.start);
    const end = nodes.get(triple.end);
    if (start && end)
      rels.push(virtualRelationship(triple.type, start, end, mapOf({ type: triple.type, count: BigInt(triple.count) }), c.exec.accessor));
  }
  return [[...nodes.values()], rels];
}

/** Nodes and relationships of a sub-graph given as Cypher text, `{nodes, relationships}` or a virtual graph. */
function* subgraphStats(c: ApocContext, graph: CypherValue, config: CypherMap): Generator<Signal, MetaStats, undefined> {
  const nodes = new Map<bigint, CypherValue>();
  const rels = new Map<bigint, CypherValue>();
  if (typeof graph === 'string') {
    const rows = yield* collectCypher(c.exec, graph, mapArg(config.get('params') ?? null));
    for (const row of rows) for (const v of Object.values(row)) collectEntities(v, nodes, rels);
  } else if (isMap(graph)) {
    collectEntities(graph.get('nodes') ?? null, nodes, rels);
    collectEntities(graph.get('relationships') ?? null, nodes, rels);
  } else collectEntities(graph, nodes, rels);
  return scanValues([...nodes.values()], [...rels.values()], c.exec.accessor, metaFilter(config));
}

function typeRows(props: Map<string, PropertyStats>, total: number, head: CypherValue[]): CypherValue[][] {
  if (props.size === 0) return [[...head, null, null, false, 0n, BigInt(total)]];
  return [...props].map(([key, p]) => [...head, key, [...p.javaTypes], p.count === total, BigInt(p.count), BigInt(total)]);
}

const graphOutputs = '(nodes :: LIST<NODE>, relationships :: LIST<RELATIONSHIP>)';

/** The apoc.meta procedures and functions. */
export const metaEntries = [
  proc(
    `apoc.meta.data(config = {} :: MAP) :: ${META_DATA_OUTPUTS}`,
    'READ',
    'Examines the full graph and returns a table of metadata.',
    function* ([config], c) {
      const stats = yield* scanDatabase(c.exec, metaFilter(mapArg(config)));
      yield* metaDataRows(stats, schemaFacts(c.exec));
    },
  ),
  proc(
    `apoc.meta.data.of(graph :: ANY, config = {} :: MAP) :: ${META_DATA_OUTPUTS}`,
    'READ',
    'Examines the given sub-graph and returns a table of metadata.',
    function* ([graph, config], c) {
      const stats = yield* subgraphStats(c, graph!, mapArg(config));
      yield* metaDataRows(stats, schemaFacts(c.exec));
    },
  ),
  proc(
    'apoc.meta.schema(config = {} :: MAP) :: (value :: MAP)',
    'READ',
    'Examines the given sub-graph and returns metadata as a `MAP`.',
    function* ([config], c) {
      const stats = yield* scanDatabase(c.exec, metaFilter(mapArg(config)));
      yield [metaSchema(stats, schemaFacts(c.exec))];
    },
  ),
  proc(
    `apoc.meta.graph(config = {} :: MAP) :: ${graphOutputs}`,
    'READ',
    'Examines the full graph and returns a meta-graph.',
    function* ([config], c) {
      yield metaGraph(yield* scanDatabase(c.exec, metaFilter(mapArg(config))), c);
    },
  ),
  proc(
    `apoc.meta.graphSample(config = {} :: MAP) :: ${graphOutputs}`,
    'READ',
    'Examines the full graph and returns a meta-graph (from the counts of labels and relationship types).',
    function* ([config], c) {
      yield metaGraph(yield* scanDatabase(c.exec, metaFilter(mapArg(config))), c);
    },
  ),
  proc(
    `apoc.meta.subGraph(config :: MAP) :: ${graphOutputs}`,
    'READ',
    'Examines a sample sub-graph to create the meta-graph.',
    function* ([config], c) {
      yield metaGraph(yield* scanDatabase(c.exec, metaFilter(mapArg(config))), c);
    },
  ),
  proc(
    `apoc.meta.graph.of(graph = {} :: ANY, config = {} :: MAP) :: ${graphOutputs}`,
    'READ',
    'Examines the given sub-graph and returns a meta-graph.',
    function* ([graph, config], c) {
      yield metaGraph(yield* subgraphStats(c, graph ?? null, mapArg(config)), c);
    },
  ),
  proc(
    'apoc.meta.stats() :: (labelCount :: INTEGER, relTypeCount :: INTEGER, propertyKeyCount :: INTEGER, nodeCount :: INTEGER, relCount :: INTEGER, labels :: MAP, relTypes :: MAP, relTypesCount :: MAP, stats :: MAP)',
    'READ',
    'Returns the metadata stored in the transactional database statistics.',
    function* (_args, c) {
      const stats = yield* scanDatabase(c.exec, metaFilter(new Map()));
      const labels = new Map<string, CypherValue>([...stats.labels].map(([l, s]) => [l, BigInt(s.count)]));
      const relTypes = new Map<string, CypherValue>();
      for (const t of stats.triples.values()) {
        if (t.start)
          relTypes.set(
            `(:${t.start})-[:${t.type}]->()`,
            BigInt(t.count) + ((relTypes.get(`(:${t.start})-[:${t.type}]->()`) as bigint | undefined) ?? 0n),
          );
        if (t.end)
          relTypes.set(
            `()-[:${t.type}]->(:${t.end})`,
            BigInt(t.count) + ((relTypes.get(`()-[:${t.type}]->(:${t.end})`) as bigint | undefined) ?? 0n),
          );
      }
      const relTypesCount = new Map<string, CypherValue>([...stats.types].map(([t, s]) => [t, BigInt(s.count)]));
      for (const [t, n] of relTypesCount) relTypes.set(`()-[:${t}]->()`, n);
      const base = {
        labelCount: BigInt(stats.labels.size),
        relTypeCount: BigInt(stats.types.size),
        propertyKeyCount: BigInt(c.reader.propertyKeys().length),
        nodeCount: BigInt(c.reader.countNodes()),
        relCount: BigInt(c.reader.countRelationships()),
      };
      yield [
        base.labelCount,
        base.relTypeCount,
        base.propertyKeyCount,
        base.nodeCount,
        base.relCount,
        labels,
        relTypes,
        relTypesCount,
        mapOf({ ...base, labels, relTypes }),
      ];
    },
  ),
  proc(
    'apoc.meta.nodeTypeProperties(config = {} :: MAP) :: (nodeType :: STRING, nodeLabels :: LIST<STRING>, propertyName :: STRING, propertyTypes :: LIST<STRING>, mandatory :: BOOLEAN, propertyObservations :: INTEGER, totalObservations :: INTEGER)',
    'READ',
    'Examines the full graph and returns a table of metadata with information about the `NODE` values therein.',
    function* ([config], c) {
      const stats = yield* scanDatabase(c.exec, metaFilter(mapArg(config)));
      for (const [key, combo] of stats.combos)
        if (combo.labelList.length > 0) yield* typeRows(combo.properties, combo.count, [key, [...combo.labelList]]);
    },
  ),
  proc(
    'apoc.meta.relTypeProperties(config = {} :: MAP) :: (relType :: STRING, sourceNodeLabels :: LIST<STRING>, targetNodeLabels :: LIST<STRING>, propertyName :: STRING, propertyTypes :: LIST<STRING>, mandatory :: BOOLEAN, propertyObservations :: INTEGER, totalObservations :: INTEGER)',
    'READ',
    'Examines the full graph and returns a table of metadata with information about the `RELATIONSHIP` values therein.',
    function* ([config], c) {
      const stats = yield* scanDatabase(c.exec, metaFilter(mapArg(config)));
      for (const [type, t] of stats.types) {
        for (const combo of t.combos.values())
          yield* typeRows(combo.properties, combo.count, [`:\`${type}\``, [...combo.start], [...combo.end]]);
      }
    },
  ),
  fn(
    'apoc.meta.nodes.count(nodes = [] :: LIST<STRING>, config = {} :: MAP) :: INTEGER',
    'Returns the sum of the `NODE` values with the given labels in the `LIST<STRING>`.',
    ([labels], ctx) => {
      const reader = (ctx as ExecutionContext).reader;
      const wanted = listArg(labels).filter((l): l is string => typeof l === 'string');
      if (wanted.length === 0) return BigInt(reader.countNodes());
      const ids = new Set<bigint>();
      for (const label of wanted) for (const id of reader.nodeIdsByLabel(label)) ids.add(id);
      return BigInt(ids.size);
    },
  ),
  fn('apoc.meta.cypher.type(value :: ANY) :: STRING', 'Returns the type name of the given value.', ([v]) => metaType(v!)),
  fn('apoc.meta.cypher.types(props :: ANY) :: MAP', 'Returns a `MAP` containing the type names of the given values.', ([v]) =>
    v !== undefined && isMap(v) ? new Map([...v].map(([k, x]) => [k, metaType(x)])) : new Map(),
  ),
  fn(
    'apoc.meta.cypher.isType(value :: ANY, type :: STRING) :: BOOLEAN',
    'Returns true if the given value matches the given type.',
    ([v, type]) => metaType(v!) === valueText(type).toUpperCase(),
  ),
];
