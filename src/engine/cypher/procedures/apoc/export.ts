/**
 * apoc.export.{json,csv,graphml,cypher}.*: the whole database, given nodes and relationships, a
 * virtual graph or a query's rows, serialized as APOC does. With `{stream: true}` (and no file)
 * the text comes back in the `data` column (`cypherStatements` for Cypher). Writing files needs
 * `apoc.export.file.enabled`, which this server does not offer: a file name is refused with
 * APOC's own message.
 */
import { isNode, isRelationship } from '../../../values/kinds.js';
import { NodeRef, RelationshipRef, type CypherMap, type CypherValue, type EntityAccessor } from '../../../values/types.js';
import { formatLiteral, valueText } from '../../../values/to-string.js';
import { apocFailure, proc, type ApocContext, type ProcedureRows } from './define.js';
import { toJsonText } from './json.js';
import { collectCypher, rowMap } from './run-cypher.js';
import { labelsOf, listArg, mapArg, propsOf } from './values.js';
import { collectEntities } from './virtual.js';
import { withParamMapping } from './cypher.js';

const FILES_DISABLED = 'Export to files not enabled, please set apoc.export.file.enabled=true in your apoc.conf.';

interface Subgraph {
  readonly nodes: readonly (NodeRef | CypherValue)[];
  readonly rels: readonly CypherValue[];
  readonly rows?: readonly Record<string, CypherValue>[];
  readonly columns?: readonly string[];
  readonly source: string;
}

function checkTarget(file: CypherValue): void {
  if (file !== null && file !== '') throw apocFailure(FILES_DISABLED);
}

function idOf(v: CypherValue): bigint {
  return (v as { readonly id: bigint }).id;
}

function jsonLines(g: Subgraph, a: EntityAccessor): string {
  if (g.rows) return g.rows.map((r) => toJsonText(new Map(Object.entries(r)), a)).join('\n');
  return [...g.nodes, ...g.rels].map((e) => toJsonText(e, a)).join('\n');
}

function csvCell(v: CypherValue | undefined, a: EntityAccessor): string {
  if (v === undefined || v === null) return '';
  const text =
    typeof v === 'string' ? v : typeof v === 'bigint' || typeof v === 'number' || typeof v === 'boolean' ? String(v) : toJsonText(v, a);
  return `"${text.replace(/"/g, '""')}"`;
}

function csv(g: Subgraph, a: EntityAccessor): string {
  if (g.rows) {
    const cols = g.columns ?? [];
    return [cols.map((c) => `"${c}"`).join(','), ...g.rows.map((r) => cols.map((c) => csvCell(r[c], a)).join(','))].join('\n');
  }
  const nodeKeys = [...new Set(g.nodes.flatMap((n) => [...propsOf(n, a).keys()]))].sort();
  const relKeys = [...new Set(g.rels.flatMap((r) => [...propsOf(r, a).keys()]))].sort();
  const header = ['_id', '_labels', ...nodeKeys, '_start', '_end', '_type', ...relKeys.filter((k) => !nodeKeys.includes(k))];
  const lines = [header.map((h) => `"${h}"`).join(',')];
  for (const n of g.nodes) {
    const props = propsOf(n, a);
    const labels = labelsOf(n as NodeRef, a);
    lines.push(
      [
        csvCell(String(idOf(n)), a),
        csvCell(labels.length ? `:${labels.join(':')}` : '', a),
        ...nodeKeys.map((k) => csvCell(props.get(k), a)),
        '',
        '',
        '',
        ...relKeys.filter((k) => !nodeKeys.includes(k)).map(() => ''),
      ].join(','),
    );
  }
  for (const r of g.rels) {
    const props = propsOf(r, a);
    const rel = r as RelationshipRef;
    lines.push(
      [
        '',
        '',
        ...nodeKeys.map((k) => csvCell(props.get(k), a)),
        csvCell(String(rel.startId), a),
        csvCell(String(rel.endId), a),
        csvCell(rel.type, a),
        ...relKeys.filter((k) => !nodeKeys.includes(k)).map((k) => csvCell(props.get(k), a)),
      ].join(','),
    );
  }
  return lines.join('\n');
}

function xml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

function graphmlValue(v: CypherValue, a: EntityAccessor): string {
  return xml(typeof v === 'string' ? v : Array.isArray(v) || v instanceof Map ? toJsonText(v, a) : valueText(v));
}

function graphml(g: Subgraph, a: EntityAccessor): string {
  const nodeKeys = [...new Set(g.nodes.flatMap((n) => [...propsOf(n, a).keys()]))];
  const relKeys = [...new Set(g.rels.flatMap((r) => [...propsOf(r, a).keys()]))];
  const out = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<graphml xmlns="http://graphml.graphdrawing.org/xmlns" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xsi:schemaLocation="http://graphml.graphdrawing.org/xmlns http://graphml.graphdrawing.org/xmlns/1.0/graphml.xsd">',
  ];
  for (const k of nodeKeys) out.push(`<key id="${xml(k)}" for="node" attr.name="${xml(k)}"/>`);
  for (const k of relKeys) out.push(`<key id="${xml(k)}" for="edge" attr.name="${xml(k)}"/>`);
  out.push(
    '<key id="labels" for="node" attr.name="labels"/>',
    '<key id="label" for="edge" attr.name="label"/>',
    '<graph id="G" edgedefault="directed">',
  );
  for (const n of g.nodes) {
    const labels = `:${labelsOf(n as NodeRef, a).join(':')}`;
    const data = [...propsOf(n, a)].map(([k, v]) => `<data key="${xml(k)}">${graphmlValue(v, a)}</data>`).join('');
    out.push(`<node id="n${idOf(n)}" labels="${xml(labels)}"><data key="labels">${xml(labels)}</data>${data}</node>`);
  }
  for (const r of g.rels) {
    const rel = r as RelationshipRef;
    const data = [...propsOf(r, a)].map(([k, v]) => `<data key="${xml(k)}">${graphmlValue(v, a)}</data>`).join('');
    out.push(
      `<edge id="e${rel.id}" source="n${rel.startId}" target="n${rel.endId}" label="${xml(rel.type)}"><data key="label">${xml(rel.type)}</data>${data}</edge>`,
    );
  }
  out.push('</graph>', '</graphml>');
  return out.join('\n');
}

const q = (name: string) => `\`${name.replace(/`/g, '``')}\``;

function propsText(props: CypherMap, extra: string): string {
  const parts = [...props].map(([k, v]) => `${q(k)}:${formatLiteral(v)}`);
  if (extra) parts.push(extra);
  return `{${parts.join(', ')}}`;
}

/** Cypher statements re-creating the sub-graph (cypher-shell format, APOC's UNIQUE IMPORT label/id). */
function cypherScript(
  g: Subgraph,
  a: EntityAccessor,
  schema: string[],
): { nodes: string; rels: string; schema: string; cleanup: string; all: string } {
  const wrap = (lines: string[]) => (lines.length === 0 ? '' : [':begin', ...lines, ':commit'].join('\n'));
  const nodeLines = g.nodes.map(
    (n) =>
      `CREATE (${labelsOf(n as NodeRef, a)
        .map((l) => `:${q(l)}`)
        .join('')}:\`UNIQUE IMPORT LABEL\` ${propsText(propsOf(n, a), `\`UNIQUE IMPORT ID\`:${idOf(n)}`)});`,
  );
  const relLines = g.rels.map((r) => {
    const rel = r as RelationshipRef;
    return `MATCH (n1:\`UNIQUE IMPORT LABEL\`{\`UNIQUE IMPORT ID\`:${rel.startId}}), (n2:\`UNIQUE IMPORT LABEL\`{\`UNIQUE IMPORT ID\`:${rel.endId}}) CREATE (n1)-[r:${q(rel.type)}${propsOf(r, a).size > 0 ? ` ${propsText(propsOf(r, a), '')}` : ''}]->(n2);`;
  });
  const schemaLines = [
    ...schema,
    'CREATE CONSTRAINT UNIQUE_IMPORT_NAME FOR (node:`UNIQUE IMPORT LABEL`) REQUIRE (node.`UNIQUE IMPORT ID`) IS UNIQUE;',
  ];
  const cleanup = [
    'MATCH (n:`UNIQUE IMPORT LABEL`)  WITH n LIMIT 20000 REMOVE n:`UNIQUE IMPORT LABEL` REMOVE n.`UNIQUE IMPORT ID`;',
    'DROP CONSTRAINT UNIQUE_IMPORT_NAME;',
  ];
  const parts = {
    nodes: wrap(nodeLines),
    rels: wrap(relLines),
    schema: [':begin', ...schemaLines, ':commit', 'CALL db.awaitIndexes(300);'].join('\n'),
    cleanup: wrap(cleanup),
  };
  return { ...parts, all: [parts.schema, parts.nodes, parts.rels, parts.cleanup].filter((s) => s !== '').join('\n') };
}

function schemaStatements(c: ApocContext): string[] {
  const out: string[] = [];
  for (const x of c.reader.constraints()) {
    if (x.entityType === 'NODE' && x.type === 'UNIQUENESS')
      out.push(
        `CREATE CONSTRAINT ${q(x.name)} FOR (node:${q(x.labelsOrTypes[0]!)}) REQUIRE (${x.properties.map((p) => `node.${q(p)}`).join(', ')}) IS UNIQUE;`,
      );
  }
  for (const i of c.reader.indexes()) {
    if (i.entityType === 'NODE' && i.type === 'RANGE' && i.owningConstraint === null)
      out.push(
        `CREATE RANGE INDEX ${q(i.name)} FOR (n:${q(i.labelsOrTypes[0]!)}) ON (${i.properties.map((p) => `n.${q(p)}`).join(', ')});`,
      );
  }
  return out;
}

function* database(c: ApocContext): Generator<never, Subgraph, undefined> {
  return {
    nodes: [...c.reader.allNodeIds()].map((id) => new NodeRef(id)),
    rels: [...c.reader.allRelationships()].map((r) => new RelationshipRef(r.id, r.type, r.startId, r.endId)),
    source: 'database',
  };
}

function fromValues(value: CypherValue, source: string): Subgraph {
  const nodes = new Map<bigint, CypherValue>();
  const rels = new Map<bigint, CypherValue>();
  collectEntities(value, nodes, rels);
  return { nodes: [...nodes.values()], rels: [...rels.values()], source };
}

function* query(
  c: ApocContext,
  statement: CypherValue,
  config: CypherMap,
): Generator<import('../../runtime/row.js').Signal, Subgraph, undefined> {
  const params = mapArg(config.get('params') ?? null);
  const rows = yield* collectCypher(c.exec, withParamMapping(valueText(statement ?? ''), params), params);
  const sub = fromValues(
    rows.map((r) => [...Object.values(r)]),
    `statement: cols(${rows[0] ? Object.keys(rows[0]).length : 0})`,
  );
  return { ...sub, rows: rows.map((r) => Object.fromEntries(rowMap(r))), columns: rows[0] ? Object.keys(rows[0]) : [] };
}

type Format = 'json' | 'csv' | 'graphml' | 'cypher';

function* emit(c: ApocContext, format: Format, file: CypherValue, g: Subgraph, started: number): ProcedureRows {
  checkTarget(file);
  const a = c.exec.accessor;
  const properties = BigInt(
    [...g.nodes, ...g.rels].reduce<number>((n, e) => n + (isNode(e) || isRelationship(e) ? propsOf(e, a).size : 0), 0),
  );
  const nodes = BigInt(g.nodes.length);
  const rels = BigInt(g.rels.length);
  const time = BigInt(Date.now() - started);
  const rows = BigInt(g.rows?.length ?? g.nodes.length + g.rels.length);
  if (format === 'cypher') {
    const script = cypherScript(g, a, schemaStatements(c));
    yield [
      file ?? null,
      1n,
      g.source,
      'cypher',
      nodes,
      rels,
      properties,
      time,
      rows,
      20000n,
      script.all,
      script.nodes,
      script.rels,
      script.schema,
      script.cleanup,
    ];
    return;
  }
  const data = format === 'json' ? jsonLines(g, a) : format === 'csv' ? csv(g, a) : graphml(g, a);
  yield [file ?? null, g.source, format, nodes, rels, properties, time, rows, 20000n, 1n, true, data];
}

const OUT =
  '(file :: STRING, source :: STRING, format :: STRING, nodes :: INTEGER, relationships :: INTEGER, properties :: INTEGER, time :: INTEGER, rows :: INTEGER, batchSize :: INTEGER, batches :: INTEGER, done :: BOOLEAN, data :: ANY)';
const CYPHER_OUT =
  '(file :: STRING, batches :: INTEGER, source :: STRING, format :: STRING, nodes :: INTEGER, relationships :: INTEGER, properties :: INTEGER, time :: INTEGER, rows :: INTEGER, batchSize :: INTEGER, cypherStatements :: ANY, nodeStatements :: ANY, relationshipStatements :: ANY, schemaStatements :: ANY, cleanupStatements :: ANY)';

function family(format: Format, label: string) {
  const out = format === 'cypher' ? CYPHER_OUT : OUT;
  const fileParam = format === 'cypher' ? "file = '' :: STRING" : 'file :: STRING';
  const base = `apoc.export.${format}`;
  return [
    proc(
      `${base}.all(${fileParam}, config = {} :: MAP) :: ${out}`,
      'READ',
      `Exports the full database as ${label}.`,
      function* ([file], c) {
        const started = Date.now();
        yield* emit(c, format, file!, yield* database(c), started);
      },
    ),
    proc(
      `${base}.data(nodes :: LIST<NODE>, rels :: LIST<RELATIONSHIP>, ${fileParam}, config = {} :: MAP) :: ${out}`,
      'READ',
      `Exports the given \`NODE\` and \`RELATIONSHIP\` values as ${label}.`,
      function* ([nodes, rels, file], c) {
        yield* emit(c, format, file!, fromValues([listArg(nodes), listArg(rels)], 'data'), Date.now());
      },
    ),
    proc(
      `${base}.graph(graph :: MAP, ${fileParam}, config = {} :: MAP) :: ${out}`,
      'READ',
      `Exports the given graph as ${label}.`,
      function* ([graph, file], c) {
        const g = mapArg(graph);
        yield* emit(c, format, file!, fromValues([g.get('nodes') ?? null, g.get('relationships') ?? null], 'graph'), Date.now());
      },
    ),
    proc(
      `${base}.query(statement :: STRING, ${fileParam}, config = {} :: MAP) :: ${out}`,
      'READ',
      `Exports the results from running the given Cypher statement as ${label}.`,
      function* ([statement, file, config], c) {
        const started = Date.now();
        yield* emit(c, format, file!, yield* query(c, statement!, mapArg(config)), started);
      },
    ),
  ];
}

/** The apoc.export entries (streams; files refused). */
export const exportEntries = [
  ...family('json', 'JSON lines'),
  ...family('csv', 'CSV'),
  ...family('graphml', 'GraphML'),
  ...family('cypher', 'Cypher statements'),
  proc(
    `apoc.export.cypher.schema(file = '' :: STRING, config = {} :: MAP) :: ${CYPHER_OUT}`,
    'READ',
    'Exports all schema indexes and constraints to Cypher statements.',
    function* ([file], c) {
      checkTarget(file!);
      const schema = [':begin', ...schemaStatements(c), ':commit'].join('\n');
      yield [file ?? null, 1n, 'database', 'cypher', 0n, 0n, 0n, 0n, 0n, 20000n, schema, '', '', schema, ''];
    },
  ),
];
