/**
 * Introspection procedures tools call on connect: `db.ping`, `db.info`, `db.awaitIndexes`,
 * `db.awaitIndex`, `db.schema.nodeTypeProperties`, `db.schema.relTypeProperties`.
 * The two schema procedures scan every node or relationship, as Neo4j's do.
 */
import { StatusCodes, graphError } from '../../errors/index.js';
import { typeName, isList } from '../../values/kinds.js';
import type { CypherMap, CypherValue } from '../../values/types.js';
import type { GraphReader } from '../../storage/graph-store.js';
import type { ProcedureDefinition } from './registry.js';
import { valueText } from '../../values/to-string.js';

const field = (name: string, type: string, defaultValue?: CypherValue) =>
  defaultValue === undefined ? { name, type } : { name, type, default: defaultValue };

/** Neo4j's storage type names (`String`, `Long`, `DoubleArray`, ...) used by the schema procedures. */
export function propertyTypeName(v: CypherValue): string {
  if (isList(v)) {
    const first = v.find((e) => e !== null);
    return first === undefined ? 'StringArray' : `${propertyTypeName(first)}Array`;
  }
  switch (typeName(v)) {
    case 'Integer':
      return 'Long';
    case 'Float':
      return 'Double';
    case 'ByteArray':
      return 'ByteArray';
    default:
      return typeName(v);
  }
}

function escapeName(name: string): string {
  return `\`${name.replace(/`/g, '``')}\``;
}

interface TypeStats {
  readonly tokens: readonly string[];
  count: number;
  readonly properties: Map<string, { types: Set<string>; seen: number }>;
}

function collect(stats: Map<string, TypeStats>, tokens: readonly string[], properties: CypherMap): void {
  const key = JSON.stringify(tokens);
  let entry = stats.get(key);
  if (entry === undefined) {
    entry = { tokens, count: 0, properties: new Map() };
    stats.set(key, entry);
  }
  entry.count++;
  for (const [name, value] of properties) {
    if (value === null) continue;
    let p = entry.properties.get(name);
    if (p === undefined) {
      p = { types: new Set(), seen: 0 };
      entry.properties.set(name, p);
    }
    p.types.add(propertyTypeName(value));
    p.seen++;
  }
}

function rows(stats: Map<string, TypeStats>, render: (tokens: readonly string[]) => CypherValue[]): CypherValue[][] {
  const out: CypherValue[][] = [];
  for (const entry of [...stats.values()].sort((a, b) => (JSON.stringify(a.tokens) < JSON.stringify(b.tokens) ? -1 : 1))) {
    if (entry.properties.size === 0) {
      out.push([...render(entry.tokens), null, null, false]);
      continue;
    }
    for (const [name, p] of [...entry.properties].sort(([a], [b]) => (a < b ? -1 : 1))) {
      out.push([...render(entry.tokens), name, [...p.types].sort(), p.seen === entry.count]);
    }
  }
  return out;
}

function nodeTypeProperties(reader: GraphReader): CypherValue[][] {
  const stats = new Map<string, TypeStats>();
  for (const id of reader.allNodeIds()) {
    const node = reader.getNode(id);
    if (node !== null) collect(stats, [...node.labels].sort(), node.properties);
  }
  return rows(stats, (labels) => [`:${labels.map(escapeName).join(':')}`, [...labels]]);
}

function relTypeProperties(reader: GraphReader): CypherValue[][] {
  const stats = new Map<string, TypeStats>();
  for (const handle of reader.allRelationships()) {
    const rel = reader.getRelationship(handle.id);
    if (rel !== null) collect(stats, [rel.type], rel.properties);
  }
  return rows(stats, ([type]) => [`:${escapeName(type!)}`]);
}

function failedIndexes(reader: GraphReader, name: string | null): void {
  const indexes = reader.indexes().filter((i) => name === null || i.name === name);
  if (name !== null && indexes.length === 0) {
    throw graphError(StatusCodes.ProcedureCallFailed, `No such index '${name}'`);
  }
  const failed = indexes.filter((i) => i.state === 'FAILED');
  if (failed.length > 0) {
    throw graphError(StatusCodes.ProcedureCallFailed, `Index '${failed[0]!.name}' is in a failed state`);
  }
}

/** The introspection procedures. */
export const introspectionProcedures: readonly ProcedureDefinition[] = [
  {
    name: 'db.ping',
    inputs: [],
    outputs: [field('success', 'BOOLEAN')],
    mode: 'READ',
    description: 'Checks that the database is available.',
    call: () => [[true]],
  },
  {
    name: 'db.info',
    inputs: [],
    outputs: [field('id', 'STRING'), field('name', 'STRING'), field('creationDate', 'STRING')],
    mode: 'READ',
    description: 'Information about the current database (its id comes from its element ids).',
    call: (_args, ctx) => {
      const id = ctx.reader.nodeElementId(0n).split(':')[1] ?? null;
      return [[id, ctx.databaseName, null]];
    },
  },
  {
    name: 'db.awaitIndexes',
    inputs: [field('timeOutSeconds', 'INTEGER', 300n)],
    outputs: [],
    mode: 'READ',
    description: 'Waits for all indexes to come online; indexes here are built when created, so this only fails on a FAILED index.',
    call: (_args, ctx) => {
      failedIndexes(ctx.reader, null);
      return [];
    },
  },
  {
    name: 'db.awaitIndex',
    inputs: [field('indexName', 'STRING'), field('timeOutSeconds', 'INTEGER', 300n)],
    outputs: [],
    mode: 'READ',
    description: 'Waits for one index to come online (fails if it does not exist or FAILED).',
    call: (args, ctx) => {
      failedIndexes(ctx.reader, valueText(args[0] ?? null));
      return [];
    },
  },
  {
    name: 'db.schema.nodeTypeProperties',
    inputs: [],
    outputs: [
      field('nodeType', 'STRING'),
      field('nodeLabels', 'LIST<STRING>'),
      field('propertyName', 'STRING'),
      field('propertyTypes', 'LIST<STRING>'),
      field('mandatory', 'BOOLEAN'),
    ],
    mode: 'READ',
    description: 'Property names and types per distinct label set, from a scan of all nodes.',
    call: (_args, ctx) => nodeTypeProperties(ctx.reader),
  },
  {
    name: 'db.schema.relTypeProperties',
    inputs: [],
    outputs: [
      field('relType', 'STRING'),
      field('propertyName', 'STRING'),
      field('propertyTypes', 'LIST<STRING>'),
      field('mandatory', 'BOOLEAN'),
    ],
    mode: 'READ',
    description: 'Property names and types per relationship type, from a scan of all relationships.',
    call: (_args, ctx) => relTypeProperties(ctx.reader),
  },
];
