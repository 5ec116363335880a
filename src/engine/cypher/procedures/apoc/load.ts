/**
 * apoc.load.json / jsonArray / jsonParams: JSON documents from allowlisted http(s) URLs (read
 * through the engine's confined opener, `dbms.security.load_url_allowlist`) or from given bytes.
 * JSON text holding an array yields one row per element, JSON lines one row per line. Reading
 * `file:` URLs needs `apoc.import.file.enabled`, which this server does not offer: refused with
 * APOC's message.
 */
import { StatusCodes, graphError } from '../../../errors/index.js';
import type { CypherValue } from '../../../values/types.js';
import { SOURCE_WAIT } from '../../../files/import-files.js';
import { PAUSE, type Signal } from '../../runtime/row.js';
import { apocFailure, fn, proc, type ApocContext, type ProcedureRows } from './define.js';
import { jsonPath, parseJson } from './json.js';
import { cfgBoolean, mapArg } from './values.js';
import { parseXml, selectXml, xmlToMap, type XmlElement } from './xml.js';
import { valueText } from '../../../values/to-string.js';

const IMPORT_DISABLED = 'Import from files not enabled, please set apoc.import.file.enabled=true in your apoc.conf';

/** The whole text behind a URL (or given bytes), yielding while network reads are in flight. */
function* readText(c: ApocContext, source: CypherValue): Generator<Signal, string, undefined> {
  if (source instanceof Uint8Array) return Buffer.from(source).toString('utf8');
  const url = valueText(source ?? '');
  if (!/^https?:/i.test(url)) {
    if (/^file:/i.test(url) || !/^[a-z][a-z0-9+.-]*:/i.test(url)) throw apocFailure(IMPORT_DISABLED);
  }
  const bytes = c.exec.files.openSource(url);
  const chunks: Buffer[] = [];
  try {
    for (;;) {
      c.exec.scheduler.checkAlive();
      const chunk = bytes.read();
      if (chunk === SOURCE_WAIT) {
        c.exec.scheduler.waitFor(bytes.pending ?? Promise.resolve());
        yield PAUSE;
        if (c.exec.scheduler.waitPending)
          throw graphError(
            StatusCodes.ExternalResourceFailed,
            `apoc.load from '${url}' cannot run inside an expression (the URL is read asynchronously)`,
          );
        continue;
      }
      if (chunk === null) return Buffer.concat(chunks).toString('utf8');
      chunks.push(chunk);
    }
  } finally {
    bytes.close();
  }
}

/** The JSON values of a text: the document, or one per line for JSON lines. */
function documents(text: string): CypherValue[] {
  try {
    return [parseJson(text)];
  } catch (error) {
    const lines = text.split('\n').filter((l) => l.trim() !== '');
    if (lines.length <= 1) throw error;
    return lines.map((l) => parseJson(l));
  }
}

function* loadRows(c: ApocContext, source: CypherValue, path: CypherValue, config: CypherValue, asArray: boolean): ProcedureRows {
  const cfg = mapArg(config);
  let text: string;
  try {
    text = yield* readText(c, source);
  } catch (error) {
    if (cfgBoolean(cfg, 'failOnError', true)) throw error;
    return;
  }
  for (const doc of documents(text)) {
    const value = jsonPath(doc, typeof path === 'string' && path !== '' ? path : null);
    if (asArray) {
      for (const item of Array.isArray(value) ? (value as CypherValue[]) : [value]) yield [item];
    } else if (Array.isArray(value)) {
      for (const item of value as CypherValue[]) yield [item instanceof Map ? item : new Map([['value', item]])];
    } else yield [value instanceof Map ? value : new Map([['value', value]])];
  }
}

/** The apoc.load JSON procedures. */
export const loadEntries = [
  proc(
    "apoc.load.json(urlOrKeyOrBinary :: ANY, path = '' :: STRING, config = {} :: MAP) :: (value :: MAP)",
    'READ',
    'Imports JSON file as a stream of values if the given JSON file is a `LIST<ANY>`. If the given JSON file is a `MAP`, this procedure imports a single value instead.',
    ([source, path, config], c) => loadRows(c, source!, path!, config!, false),
  ),
  proc(
    "apoc.load.jsonArray(url :: STRING, path = '' :: STRING, config = {} :: MAP) :: (value :: ANY)",
    'READ',
    'Loads array from a JSON URL (e.g. web-API) to then import the given JSON file as a stream of values.',
    ([source, path, config], c) => loadRows(c, source!, path!, config!, true),
  ),
  proc(
    "apoc.load.jsonParams(urlOrKeyOrBinary :: ANY, headers :: MAP, payload :: STRING, path = '' :: STRING, config = {} :: MAP) :: (value :: MAP)",
    'READ',
    'Loads parameters from a JSON URL (e.g. web-API) as a stream of values if the given JSON file is a `LIST<ANY>`. If the given JSON file is a `MAP`, this procedure imports a single value instead.',
    ([source, headers, payload, path, config], c) => {
      if (mapArg(headers).size > 0 || (payload !== null && payload !== ''))
        throw apocFailure(
          'Request headers and payloads are not sent by this server: apoc.load.jsonParams reads allowlisted URLs with plain GET requests only',
        );
      return loadRows(c, source!, path!, config!, false);
    },
  ),
];

/** Rows of apoc.load.xml: one map per element the path selects. */
function* loadXml(c: ApocContext, source: CypherValue, path: CypherValue, simple: CypherValue): ProcedureRows {
  const text = yield* readText(c, source);
  for (const e of selectXml(parseXml(text), typeof path === 'string' && path !== '' ? path : '/')) yield [xmlToMap(e, simple === true)];
}

/** Creates the nodes and relationships of APOC's JSON export lines; returns the counts. */
function* importJson(c: ApocContext, source: CypherValue): ProcedureRows {
  const started = Date.now();
  const text = yield* readText(c, source);
  const writer = c.writer();
  const ids = new Map<string, bigint>();
  let nodes = 0n;
  let rels = 0n;
  let properties = 0n;
  for (const line of text.split('\n')) {
    if (line.trim() === '') continue;
    const entry = mapArg(parseJson(line));
    const props = mapArg(entry.get('properties') ?? null);
    properties += BigInt(props.size);
    if (entry.get('type') === 'node') {
      const labels = ((entry.get('labels') as CypherValue[] | undefined) ?? []).map(String);
      ids.set(valueText(entry.get('id')), writer.createNode(labels, props));
      nodes++;
    } else if (entry.get('type') === 'relationship') {
      const start = ids.get(valueText(mapArg(entry.get('start') ?? null).get('id')));
      const end = ids.get(valueText(mapArg(entry.get('end') ?? null).get('id')));
      if (start === undefined || end === undefined)
        throw apocFailure(`The relationship ${valueText(entry.get('id'))} refers to a node that is not in the file`);
      writer.createRelationship(valueText(entry.get('label')), start, end, props);
      rels++;
    }
    if (c.exec.scheduler.tick()) yield PAUSE;
  }
  yield [
    typeof source === 'string' ? source : null,
    'file',
    'json',
    nodes,
    rels,
    properties,
    BigInt(Date.now() - started),
    nodes + rels,
    0n,
    0n,
    true,
    null,
  ];
}

function graphmlValue(text: string, type: string | undefined): CypherValue {
  switch (type) {
    case 'int':
    case 'long':
      return /^-?\d+$/.test(text.trim()) ? BigInt(text.trim()) : text;
    case 'float':
    case 'double':
      return Number(text);
    case 'boolean':
      return text.trim() === 'true';
    default:
      return text;
  }
}

/** Creates the nodes and edges of a GraphML document (labels from `labels` when `readLabels`). */
function* importGraphml(c: ApocContext, source: CypherValue, config: CypherValue): ProcedureRows {
  const started = Date.now();
  const cfg = mapArg(config);
  const readLabels = cfgBoolean(cfg, 'readLabels', false);
  const root = parseXml(yield* readText(c, source));
  const elements = (e: XmlElement, name: string) => e.children.filter((x): x is XmlElement => typeof x !== 'string' && x.name === name);
  const keys = new Map(
    elements(root, 'key').map((k) => [
      k.attributes.get('id') ?? '',
      { name: k.attributes.get('attr.name') ?? k.attributes.get('id') ?? '', type: k.attributes.get('attr.type') },
    ]),
  );
  const writer = c.writer();
  const ids = new Map<string, bigint>();
  let nodes = 0n;
  let rels = 0n;
  let properties = 0n;
  const dataOf = (e: XmlElement) => {
    const props = new Map<string, CypherValue>();
    for (const d of elements(e, 'data')) {
      const key = keys.get(d.attributes.get('key') ?? '') ?? { name: d.attributes.get('key') ?? '', type: undefined };
      const text = d.children.filter((x): x is string => typeof x === 'string').join('');
      props.set(key.name, graphmlValue(text, key.type));
    }
    return props;
  };
  for (const graph of elements(root, 'graph')) {
    for (const n of elements(graph, 'node')) {
      const props = dataOf(n);
      const labelText = n.attributes.get('labels') ?? (props.get('labels') as string | undefined) ?? '';
      props.delete('labels');
      const labels = readLabels ? labelText.split(':').filter((l) => l !== '') : [];
      ids.set(n.attributes.get('id') ?? '', writer.createNode(labels, props));
      nodes++;
      properties += BigInt(props.size);
    }
    for (const e of elements(graph, 'edge')) {
      const props = dataOf(e);
      const type =
        e.attributes.get('label') ??
        (props.get('label') as string | undefined) ??
        (typeof cfg.get('defaultRelationshipType') === 'string' ? valueText(cfg.get('defaultRelationshipType')) : 'RELATED');
      props.delete('label');
      const start = ids.get(e.attributes.get('source') ?? '');
      const end = ids.get(e.attributes.get('target') ?? '');
      if (start === undefined || end === undefined)
        throw apocFailure(`The edge ${e.attributes.get('id') ?? ''} refers to a node that is not in the document`);
      writer.createRelationship(type, start, end, props);
      rels++;
      properties += BigInt(props.size);
      if (c.exec.scheduler.tick()) yield PAUSE;
    }
  }
  yield [
    typeof source === 'string' ? source : null,
    'file',
    'graphml',
    nodes,
    rels,
    properties,
    BigInt(Date.now() - started),
    nodes + rels,
    0n,
    0n,
    true,
    null,
  ];
}

/** apoc.load.xml, apoc.xml.parse, apoc.import.json and apoc.import.graphml. */
export const xmlImportEntries = [
  proc(
    "apoc.load.xml(urlOrBinary :: ANY, path = '/' :: STRING, config = {} :: MAP, simple = false :: BOOLEAN) :: (value :: MAP)",
    'READ',
    'Loads a single nested `MAP` from an XML URL (e.g. web-API).',
    ([source, path, , simple], c) => loadXml(c, source!, path!, simple!),
  ),
  fn(
    "apoc.xml.parse(data :: STRING, path = '/' :: STRING, config = {} :: MAP, simple = false :: BOOLEAN) :: MAP",
    'Parses the given XML `STRING` as a `MAP`.',
    ([data, path, , simple]) => {
      if (data === null) return null;
      const e = selectXml(parseXml(valueText(data)), typeof path === 'string' ? path : '/')[0];
      return e === undefined ? null : xmlToMap(e, simple === true);
    },
  ),
  proc(
    'apoc.import.graphml(urlOrBinaryFile :: ANY, config :: MAP) :: (file :: STRING, source :: STRING, format :: STRING, nodes :: INTEGER, relationships :: INTEGER, properties :: INTEGER, time :: INTEGER, rows :: INTEGER, batchSize :: INTEGER, batches :: INTEGER, done :: BOOLEAN, data :: ANY)',
    'WRITE',
    'Imports a graph from the provided GraphML file.',
    ([source, config], c) => importGraphml(c, source!, config!),
  ),
  proc(
    'apoc.import.json(urlOrBinaryFile :: ANY, config = {} :: MAP) :: (file :: STRING, source :: STRING, format :: STRING, nodes :: INTEGER, relationships :: INTEGER, properties :: INTEGER, time :: INTEGER, rows :: INTEGER, batchSize :: INTEGER, batches :: INTEGER, done :: BOOLEAN, data :: ANY)',
    'WRITE',
    'Imports a graph from the provided JSON file.',
    ([source], c) => importJson(c, source!),
  ),
];
