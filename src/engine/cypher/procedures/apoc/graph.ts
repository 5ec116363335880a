/**
 * apoc.graph: virtual graphs as maps `{name, nodes, relationships, properties}` from data, paths,
 * Cypher or the whole database, and graphs built from JSON documents (optionally written).
 */
import { isRelationship, isList, isMap } from '../../../values/kinds.js';
import { NodeRef, RelationshipRef, type CypherMap, type CypherValue } from '../../../values/types.js';
import { randomUUID } from 'node:crypto';
import { illegalArgument, proc, type ApocContext } from './define.js';
import { parseJson } from './json.js';
import { collectCypher } from './run-cypher.js';
import { cfgBoolean, cfgString, listArg, mapArg, mapOf } from './values.js';
import { collectEntities, virtualNode, virtualRelationship } from './virtual.js';
import { withParamMapping } from './cypher.js';
import { valueText } from '../../../values/to-string.js';

function graphMap(name: CypherValue, nodes: Map<bigint, CypherValue>, rels: Map<bigint, CypherValue>, props: CypherValue): CypherMap {
  return mapOf({ name: name ?? null, nodes: [...nodes.values()], relationships: [...rels.values()], properties: mapArg(props ?? null) });
}

function fromValue(name: CypherValue, value: CypherValue, props: CypherValue): CypherValue[] {
  const nodes = new Map<bigint, CypherValue>();
  const rels = new Map<bigint, CypherValue>();
  collectEntities(value, nodes, rels);
  for (const r of rels.values()) {
    if (!isRelationship(r)) continue;
    if (!nodes.has(r.startId)) nodes.set(r.startId, new NodeRef(r.startId));
    if (!nodes.has(r.endId)) nodes.set(r.endId, new NodeRef(r.endId));
  }
  return [graphMap(name, nodes, rels, props)];
}

interface DocConfig {
  readonly write: boolean;
  readonly labelField: string;
  readonly idField: string;
  readonly generateId: boolean;
  readonly defaultLabel: string;
}

function docConfig(config: CypherMap): DocConfig {
  return {
    write: cfgBoolean(config, 'write', false),
    labelField: cfgString(config, 'labelField', 'type') ?? 'type',
    idField: cfgString(config, 'idField', 'id') ?? 'id',
    generateId: cfgBoolean(config, 'generateId', true),
    defaultLabel: cfgString(config, 'defaultLabel', '') ?? '',
  };
}

function documents(json: CypherValue): CypherMap[] {
  const value = typeof json === 'string' ? parseJson(json) : json;
  return listArg(value).map((d) => mapArg(d));
}

/** Problems of one document for validateDocument / fromDocument. */
function problems(doc: CypherMap, cfg: DocConfig): string[] {
  const out: string[] = [];
  const check = (m: CypherMap): void => {
    if (!m.has(cfg.labelField) && cfg.defaultLabel === '')
      out.push(
        `The object \`${JSON.stringify(Object.fromEntries([...m].filter(([, v]) => typeof v !== 'object' || v === null)), (_k, v: unknown) => (typeof v === 'bigint' ? Number(v) : v))}\` must have \`${cfg.labelField}\` as label-field name`,
      );
    if (!m.has(cfg.idField) && !cfg.generateId) out.push(`The object must have \`${cfg.idField}\` as id-field name`);
    for (const v of m.values()) {
      if (v instanceof Map) check(v);
      else if (Array.isArray(v)) for (const x of v) if (x instanceof Map) check(x);
    }
  };
  check(doc);
  return out;
}

function* buildDocument(
  c: ApocContext,
  doc: CypherMap,
  cfg: DocConfig,
  nodes: Map<bigint, CypherValue>,
  rels: Map<bigint, CypherValue>,
): Generator<never, CypherValue, undefined> {
  const label = valueText(doc.get(cfg.labelField) ?? cfg.defaultLabel);
  const props = new Map<string, CypherValue>();
  const children: [string, CypherMap][] = [];
  for (const [k, v] of doc) {
    if (k === cfg.labelField) continue;
    if (v instanceof Map) children.push([k, v]);
    else if (isList(v) && v.some((x) => isMap(x))) for (const x of v) children.push([k, mapArg(x)]);
    else props.set(k, v);
  }
  if (!props.has(cfg.idField) && cfg.generateId) props.set(cfg.idField, randomUUID());
  const labels = label.split(':').filter((l) => l !== '');
  const node: CypherValue = cfg.write
    ? new NodeRef(c.writer().createNode(labels, new Map([...props].filter(([, v]) => v !== null))))
    : virtualNode(labels, props);
  nodes.set(node.id, node);
  for (const [key, child] of children) {
    const target = yield* buildDocument(c, child, cfg, nodes, rels);
    const type = key.toUpperCase();
    if (cfg.write) {
      const id = c.writer().createRelationship(type, node.id, (target as NodeRef).id, new Map());
      rels.set(id, new RelationshipRef(id, type, node.id, (target as NodeRef).id));
    } else {
      const r = virtualRelationship(type, node, target, new Map(), c.exec.accessor);
      rels.set(r.id, r);
    }
  }
  return node;
}

const GRAPH_OUT = '(graph :: MAP)';

/** The apoc.graph procedures. */
export const graphEntries = [
  proc(
    `apoc.graph.fromData(nodes :: LIST<NODE>, rels :: LIST<RELATIONSHIP>, name :: STRING, props :: MAP) :: ${GRAPH_OUT}`,
    'READ',
    'Generates a virtual sub-graph by extracting all of the `NODE` and `RELATIONSHIP` values from the given data.',
    function* ([nodes, rels, name, props]) {
      yield fromValue(name!, [nodes!, rels!], props!);
    },
  ),
  proc(
    `apoc.graph.from(data :: ANY, name :: STRING, props :: MAP) :: ${GRAPH_OUT}`,
    'READ',
    'Generates a virtual sub-graph by extracting all of the `NODE` and `RELATIONSHIP` values from the given data.',
    function* ([data, name, props]) {
      yield fromValue(name!, data!, props!);
    },
  ),
  proc(
    `apoc.graph.fromPath(path :: PATH, name :: STRING, props :: MAP) :: ${GRAPH_OUT}`,
    'READ',
    'Generates a virtual sub-graph by extracting all of the `NODE` and `RELATIONSHIP` values from the data returned by the given `PATH`.',
    function* ([path, name, props]) {
      yield fromValue(name!, path!, props!);
    },
  ),
  proc(
    `apoc.graph.fromPaths(paths :: LIST<PATH>, name :: STRING, props :: MAP) :: ${GRAPH_OUT}`,
    'READ',
    'Generates a virtual sub-graph by extracting all of the `NODE` and `RELATIONSHIP` values from the data returned by the given `PATH` values.',
    function* ([paths, name, props]) {
      yield fromValue(name!, paths!, props!);
    },
  ),
  proc(
    `apoc.graph.fromCypher(statement :: STRING, params :: MAP, name :: STRING, props :: MAP) :: ${GRAPH_OUT}`,
    'READ',
    'Generates a virtual sub-graph by extracting all of the `NODE` and `RELATIONSHIP` values from the data returned by the given Cypher statement.',
    function* ([statement, params, name, props], c) {
      const p = mapArg(params);
      const rows = yield* collectCypher(c.exec, withParamMapping(valueText(statement ?? ''), p), p);
      yield fromValue(
        name!,
        rows.map((r) => [...Object.values(r)]),
        props!,
      );
    },
  ),
  proc(
    `apoc.graph.fromDB(name :: STRING, props :: MAP) :: ${GRAPH_OUT}`,
    'READ',
    'Generates a virtual sub-graph by extracting all of the `NODE` and `RELATIONSHIP` values from the data returned by the given database.',
    function* ([name, props], c) {
      const nodes = new Map<bigint, CypherValue>([...c.reader.allNodeIds()].map((id) => [id, new NodeRef(id)]));
      const rels = new Map<bigint, CypherValue>(
        [...c.reader.allRelationships()].map((r) => [r.id, new RelationshipRef(r.id, r.type, r.startId, r.endId)]),
      );
      yield [graphMap(name!, nodes, rels, props!)];
    },
  ),
  proc(
    `apoc.graph.fromDocument(json :: ANY, config = {} :: MAP) :: ${GRAPH_OUT}`,
    'WRITE',
    'Generates a virtual sub-graph by extracting all of the `NODE` and `RELATIONSHIP` values from the data returned by the given JSON file.',
    function* ([json, config], c) {
      const cfg = docConfig(mapArg(config));
      const nodes = new Map<bigint, CypherValue>();
      const rels = new Map<bigint, CypherValue>();
      for (const doc of documents(json!)) {
        const found = problems(doc, cfg);
        if (found.length > 0) throw illegalArgument(found.join('\n'));
        yield* buildDocument(c, doc, cfg, nodes, rels);
      }
      yield [graphMap('Graph', nodes, rels, new Map())];
    },
  ),
  proc(
    'apoc.graph.validateDocument(json :: ANY, config = {} :: MAP) :: (row :: ANY)',
    'READ',
    'Validates the JSON file and returns the result of the validation.',
    function* ([json, config]) {
      const cfg = docConfig(mapArg(config));
      let index = 0;
      for (const doc of documents(json!)) {
        const found = problems(doc, cfg);
        if (found.length > 0) yield [mapOf({ index: BigInt(index), message: found.join('\n') })];
        index++;
      }
    },
  ),
];
