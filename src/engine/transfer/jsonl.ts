/**
 * JSON Lines export and import of a whole graph. One JSON object per line:
 *
 * ```
 * {"type":"node","id":"0","labels":["Person"],"properties":{"name":"Ann","born":{"$type":"date",...}}}
 * {"type":"relationship","id":"0","label":"KNOWS","start":{"id":"0"},"end":{"id":"1"},"properties":{}}
 * ```
 *
 * The shape follows APOC's `apoc.export.json` (ids are strings; `start`/`end` may also be plain
 * strings on import); property values use the typed encoding of `value-json.ts`, so every value
 * type survives a round trip. Relationships must come after the nodes they connect.
 */
import { TimeSlice, type ReadTransaction } from '../storage/index.js';
import { decodeProperties, encodeValue, type Json } from './value-json.js';
import type { TextOutput } from './output.js';
import type { ImportSink } from './import-sink.js';
import type { LineReader } from './line-reader.js';
import type { CypherMap, CypherValue } from '../values/types.js';

/** Counts of an export. */
export interface ExportCounts {
  nodes: number;
  relationships: number;
}

function encodeProperties(properties: CypherMap): { [key: string]: Json } {
  const out: { [key: string]: Json } = {};
  for (const [k, v] of properties) out[k] = encodeValue(v);
  return out;
}

/** Writes every node, then every relationship, of the snapshot `reader` as JSON Lines. */
export async function exportJsonl(
  reader: ReadTransaction,
  out: TextOutput,
  progress?: (counts: ExportCounts) => void,
): Promise<ExportCounts> {
  const counts: ExportCounts = { nodes: 0, relationships: 0 };
  for (const id of reader.allNodeIds()) {
    const node = reader.getNode(id);
    if (node === null) continue;
    await out.write(
      JSON.stringify({ type: 'node', id: id.toString(), labels: [...node.labels], properties: encodeProperties(node.properties) }) + '\n',
    );
    if (++counts.nodes % 10_000 === 0) progress?.(counts);
  }
  for (const handle of reader.allRelationships()) {
    const rel = reader.getRelationship(handle.id);
    if (rel === null) continue;
    const line = {
      type: 'relationship',
      id: rel.id.toString(),
      label: rel.type,
      start: { id: rel.startId.toString() },
      end: { id: rel.endId.toString() },
      properties: encodeProperties(rel.properties),
    };
    await out.write(JSON.stringify(line) + '\n');
    if (++counts.relationships % 10_000 === 0) progress?.(counts);
  }
  progress?.(counts);
  return counts;
}

function endpointId(value: Json | undefined): string | null {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' && Number.isSafeInteger(value)) return String(value);
  if (value !== null && typeof value === 'object' && !Array.isArray(value)) return endpointId(value.id);
  return null;
}

function stringList(value: Json | undefined): string[] | null {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value) || !value.every((x) => typeof x === 'string')) return null;
  return value;
}

/** Imports a JSON Lines file into the sink (rows are validated; bad ones reported with file:line). */
export async function importJsonl(input: LineReader, sink: ImportSink, displayName: string): Promise<void> {
  const slice = new TimeSlice();
  for await (const batch of input.batches()) {
    for (let i = 0; i < batch.length; i++) {
      const { text, line } = batch[i]!;
      const wait = importJsonLine(text, line, sink, displayName);
      if (wait) await wait;
      if ((i & 63) === 63 && slice.due) await slice.yield();
    }
  }
}

/** Handles one line; returns a promise only when the sink has to wait. */
function importJsonLine(text: string, line: number, sink: ImportSink, displayName: string): Promise<void> | undefined {
  if (text.trim() === '' || sink.replayed(line)) return undefined;
  const origin = { file: displayName, line };
  let row: Json;
  try {
    row = JSON.parse(text) as Json;
  } catch (error) {
    sink.reject(origin, `Invalid JSON: ${(error as Error).message}`);
    return undefined;
  }
  if (row === null || typeof row !== 'object' || Array.isArray(row)) {
    sink.reject(origin, 'Expected a JSON object');
    return undefined;
  }
  let properties: Map<string, CypherValue>;
  try {
    properties = decodeProperties(row.properties);
  } catch (error) {
    sink.reject(origin, `Invalid properties: ${(error as Error).message}`);
    return undefined;
  }
  if (row.type === 'node') {
    const labels = stringList(row.labels);
    if (labels === null) {
      sink.reject(origin, '"labels" must be a list of strings');
      return undefined;
    }
    return sink.addNode(origin, '', endpointId(row.id), labels, properties);
  } else if (row.type === 'relationship') {
    const start = endpointId(row.start);
    const end = endpointId(row.end);
    const type = row.label ?? row.relType ?? null;
    if (start === null || end === null || typeof type !== 'string') {
      sink.reject(origin, 'A relationship needs "label", "start" and "end"');
      return undefined;
    }
    return sink.addRelationship(origin, type, { idSpace: '', id: start }, { idSpace: '', id: end }, properties);
  } else {
    sink.reject(origin, `Unknown row type ${JSON.stringify(row.type ?? null)} (expected "node" or "relationship")`);
    return undefined;
  }
}
