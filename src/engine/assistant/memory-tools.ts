/**
 * The in-process memory tools of the agentic loop. A memory is a `:Memory` node (`content`,
 * `tags`, `created_at`, any other properties, extra labels). Every tool runs Cypher through a
 * session carrying the caller's security context on the chosen database, so RBAC applies exactly
 * as on HTTP and Bolt: a viewer's `store` fails with Forbidden, which becomes the tool's error
 * result for the model. `recall` uses the database's hybrid search (BM25 + vectors, embedded by
 * the search pipeline's worker when embeddings are enabled), or a text match when search is off.
 */
import { parseAuthCommand } from '../auth/commands/parse.js';
import type { DatabaseSearch } from '../search/index.js';
import type { Session } from '../session/types.js';
import type { CypherValue } from '../values/types.js';
import { cypherToJson, jsonToCypher, type JsonValue } from './json-values.js';
import type { ToolCall, ToolDefinition } from './types.js';

/** Label of memory nodes. */
export const MEMORY_LABEL = 'Memory';
/** Relationship type `link` uses when the model gives none. */
export const DEFAULT_LINK_TYPE = 'RELATED_TO';
/** Most rows the `query` tool returns. */
export const QUERY_ROW_LIMIT = 200;

/** What the tools need from the edge: the caller's sessions and the database's search. */
export interface MemoryToolHost {
  readonly database: string;
  /** A session on `database` with the caller's security context. */
  openSession(): Session;
  /** The database's search services, or null when search is disabled. */
  search(): DatabaseSearch | null;
}

/** A tool's answer for the model: JSON text, and whether it succeeded. */
export interface ToolOutcome {
  readonly ok: boolean;
  readonly output: string;
}

const id = { oneOf: [{ type: 'integer' }, { type: 'string' }], description: 'node id (integer) or elementId (string)' } as const;
const stringList = (description: string) => ({ type: 'array', items: { type: 'string' }, description }) as const;
const freeObject = (description: string) => ({ type: 'object', additionalProperties: true, description }) as const;

/** Every memory tool, in the order they are offered. */
export const MEMORY_TOOLS: readonly ToolDefinition[] = [
  {
    name: 'store',
    description: 'Store a new memory (a :Memory node) with its text content, optional tags, extra labels and properties. Returns its id.',
    parameters: {
      type: 'object',
      properties: {
        content: { type: 'string', description: 'the text to remember' },
        tags: stringList('short keywords'),
        labels: stringList('extra node labels besides Memory'),
        properties: freeObject('extra properties (strings, numbers, booleans or lists of them)'),
      },
      required: ['content'],
    },
  },
  {
    name: 'recall',
    description: 'Find memories relevant to a query (hybrid full-text and vector search). Returns the best matches with scores.',
    parameters: {
      type: 'object',
      properties: {
        query: { type: 'string', description: 'what to look for' },
        limit: { type: 'integer', description: 'most results (default 5, at most 50)' },
        labels: stringList('only nodes with one of these labels (default Memory)'),
      },
      required: ['query'],
    },
  },
  {
    name: 'link',
    description: 'Create a relationship between two memories.',
    parameters: {
      type: 'object',
      properties: {
        from: id,
        to: id,
        type: { type: 'string', description: `relationship type (default ${DEFAULT_LINK_TYPE})` },
        properties: freeObject('relationship properties'),
      },
      required: ['from', 'to'],
    },
  },
  {
    name: 'forget',
    description: 'Delete a memory and its relationships.',
    parameters: { type: 'object', properties: { id }, required: ['id'] },
  },
  {
    name: 'query',
    description: 'Run a read-only Cypher query (statements that write are refused). Returns columns and rows.',
    parameters: {
      type: 'object',
      properties: {
        cypher: { type: 'string', description: 'the Cypher query' },
        params: freeObject('query parameters'),
      },
      required: ['cypher'],
    },
  },
  {
    name: 'get',
    description: 'Read one node by id with its relationships.',
    parameters: { type: 'object', properties: { id }, required: ['id'] },
  },
];

/** Names of every memory tool. */
export const MEMORY_TOOL_NAMES: readonly string[] = MEMORY_TOOLS.map((tool) => tool.name);

/** The tools an allowlist permits (an empty allowlist permits all). */
export function allowedTools(allowlist: readonly string[]): readonly ToolDefinition[] {
  const wanted = new Set(allowlist.map((name) => name.trim().toLowerCase()).filter((name) => name !== ''));
  return wanted.size === 0 ? MEMORY_TOOLS : MEMORY_TOOLS.filter((tool) => wanted.has(tool.name));
}

/** A tool failure the model should see (bad arguments, not found, refused). */
class ToolFailure extends Error {}

type Args = { readonly [key: string]: unknown };

function requiredString(args: Args, key: string): string {
  const value = args[key];
  if (typeof value !== 'string' || value.trim() === '') throw new ToolFailure(`'${key}' must be a non-empty string`);
  return value;
}

function optionalStrings(args: Args, key: string): string[] {
  const value = args[key];
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value) || !value.every((item) => typeof item === 'string')) throw new ToolFailure(`'${key}' must be a list of strings`);
  return (value as string[]).filter((item) => item.trim() !== '');
}

function isScalar(value: unknown): boolean {
  return value === null || ['string', 'number', 'boolean'].includes(typeof value);
}

function propertyMap(args: Args, key: string): Map<string, CypherValue> {
  const value = args[key];
  if (value === undefined || value === null) return new Map();
  if (typeof value !== 'object' || Array.isArray(value)) throw new ToolFailure(`'${key}' must be an object`);
  const map = new Map<string, CypherValue>();
  for (const [name, item] of Object.entries(value as Record<string, unknown>)) {
    if (!isScalar(item) && !(Array.isArray(item) && item.every(isScalar))) {
      throw new ToolFailure(`property '${name}' must be a string, number, boolean or a list of them`);
    }
    if (item !== null) map.set(name, jsonToCypher(item));
  }
  return map;
}

/** A node reference argument: the Cypher predicate on `variable` and its parameter value. */
function nodeRef(args: Args, key: string, variable: string): { predicate: string; value: CypherValue } {
  const value = args[key];
  if (typeof value === 'number' && Number.isSafeInteger(value) && value >= 0) return { predicate: `id(${variable}) = $${key}`, value: BigInt(value) };
  if (typeof value === 'string' && /^\d+$/.test(value)) return { predicate: `id(${variable}) = $${key}`, value: BigInt(value) };
  if (typeof value === 'string' && value !== '') return { predicate: `elementId(${variable}) = $${key}`, value };
  throw new ToolFailure(`'${key}' must be a node id (integer) or an elementId (string)`);
}

/** A label or type as a backtick-quoted Cypher identifier. */
function quoted(name: string): string {
  return `\`${name.replace(/`/g, '``')}\``;
}

async function records(session: Session, query: string, params: ReadonlyMap<string, CypherValue>, limit = -1) {
  const result = await session.run(query, params);
  const page = await result.pull(limit);
  if (page.hasMore) await result.discard();
  return { keys: result.keys, records: page.records, more: page.hasMore };
}

/** Runs memory tools for one request. */
export class MemoryTools {
  private readonly offered: ReadonlySet<string>;

  constructor(
    private readonly host: MemoryToolHost,
    readonly definitions: readonly ToolDefinition[],
  ) {
    this.offered = new Set(definitions.map((tool) => tool.name));
  }

  /** Runs one call; failures (including refused permissions) are returned as `{error}` outcomes. */
  async run(call: ToolCall): Promise<ToolOutcome> {
    if (!this.offered.has(call.name)) return this.failure(`tool '${call.name}' is not available (available: ${[...this.offered].join(', ') || 'none'})`);
    let args: unknown;
    try {
      args = call.arguments.trim() === '' ? {} : JSON.parse(call.arguments);
    } catch {
      return this.failure(`the arguments of '${call.name}' are not valid JSON: ${call.arguments.slice(0, 200)}`);
    }
    if (args === null || typeof args !== 'object' || Array.isArray(args)) return this.failure(`the arguments of '${call.name}' must be a JSON object`);
    const session = this.host.openSession();
    try {
      const output = await this.dispatch(call.name, args as Args, session);
      return { ok: true, output: JSON.stringify(output) };
    } catch (error) {
      return this.failure(error instanceof Error ? error.message : String(error));
    } finally {
      await session.close();
    }
  }

  private failure(message: string): ToolOutcome {
    return { ok: false, output: JSON.stringify({ error: message }) };
  }

  private dispatch(name: string, args: Args, session: Session): Promise<JsonValue> {
    switch (name) {
      case 'store':
        return this.store(args, session);
      case 'recall':
        return this.recall(args, session);
      case 'link':
        return this.link(args, session);
      case 'forget':
        return this.forget(args, session);
      case 'query':
        return this.query(args, session);
      case 'get':
        return this.get(args, session);
      default:
        throw new ToolFailure(`unknown tool '${name}'`);
    }
  }

  private async store(args: Args, session: Session): Promise<JsonValue> {
    const content = requiredString(args, 'content');
    const properties = propertyMap(args, 'properties');
    properties.set('content', content);
    properties.set('tags', optionalStrings(args, 'tags'));
    const labels = [MEMORY_LABEL, ...optionalStrings(args, 'labels').filter((label) => label !== MEMORY_LABEL)].map(quoted).join(':');
    const { records: rows } = await records(
      session,
      `CREATE (m:${labels} $properties) SET m.created_at = datetime() RETURN id(m), elementId(m)`,
      new Map([['properties', properties]]),
    );
    const [nodeId, elementId] = rows[0] ?? [];
    return { stored: true, id: cypherToJson(nodeId ?? null), elementId: cypherToJson(elementId ?? null), database: this.host.database };
  }

  private async recall(args: Args, session: Session): Promise<JsonValue> {
    const query = requiredString(args, 'query');
    const requestedLimit = typeof args.limit === 'number' && Number.isInteger(args.limit) ? args.limit : 5;
    const limit = Math.min(Math.max(requestedLimit, 1), 50);
    const labels = optionalStrings(args, 'labels');
    const search = this.host.search();
    if (search === null) return this.recallByText(query, limit, labels, session);
    const page = await search.search({ query, limit, labels: labels.length > 0 ? labels : [MEMORY_LABEL] });
    const ids = page.results.map((result) => result.nodeId);
    const { records: rows } = await records(session, 'MATCH (m) WHERE id(m) IN $ids RETURN m', new Map([['ids', ids]]));
    const found = new Map(rows.map((row) => [(row[0] as { id: bigint }).id, row[0]!]));
    const results = page.results.flatMap((result) => {
      const node = found.get(result.nodeId);
      if (node === undefined) return [];
      return [{ node: cypherToJson(node), score: result.score, ...(result.similarity !== null ? { similarity: result.similarity } : {}) }];
    });
    return { method: page.method, results };
  }

  private async recallByText(query: string, limit: number, labels: string[], session: Session): Promise<JsonValue> {
    const words = query.toLowerCase().split(/[^\p{L}\p{N}]+/u).filter((word) => word.length > 1);
    const label = quoted(labels[0] ?? MEMORY_LABEL);
    const { records: rows } = await records(
      session,
      `MATCH (m:${label}) WHERE any(w IN $words WHERE toLower(toString(m.content)) CONTAINS w) RETURN m LIMIT $limit`,
      new Map<string, CypherValue>([['words', words], ['limit', BigInt(limit)]]),
    );
    return { method: 'text-match', results: rows.map((row) => ({ node: cypherToJson(row[0] ?? null) })) };
  }

  private async link(args: Args, session: Session): Promise<JsonValue> {
    const from = nodeRef(args, 'from', 'a');
    const to = nodeRef(args, 'to', 'b');
    const type = typeof args.type === 'string' && args.type.trim() !== '' ? args.type.trim() : DEFAULT_LINK_TYPE;
    const { records: rows } = await records(
      session,
      `MATCH (a:${MEMORY_LABEL}) WHERE ${from.predicate} MATCH (b:${MEMORY_LABEL}) WHERE ${to.predicate} ` +
        `CREATE (a)-[r:${quoted(type)}]->(b) SET r += $properties RETURN id(r), elementId(r)`,
      new Map<string, CypherValue>([['from', from.value], ['to', to.value], ['properties', propertyMap(args, 'properties')]]),
    );
    if (rows.length === 0) throw new ToolFailure('no relationship created: both ends must be existing memories');
    return { linked: true, id: cypherToJson(rows[0]![0] ?? null), elementId: cypherToJson(rows[0]![1] ?? null), type };
  }

  private async forget(args: Args, session: Session): Promise<JsonValue> {
    const target = nodeRef(args, 'id', 'm');
    const { records: rows } = await records(
      session,
      `MATCH (m:${MEMORY_LABEL}) WHERE ${target.predicate} DETACH DELETE m RETURN count(*)`,
      new Map([['id', target.value]]),
    );
    const deleted = Number(rows[0]?.[0] ?? 0n);
    if (deleted === 0) throw new ToolFailure(`no memory with id ${String(args.id)}`);
    return { forgotten: deleted };
  }

  private async query(args: Args, session: Session): Promise<JsonValue> {
    const cypher = requiredString(args, 'cypher');
    const params = propertyMapDeep(args.params);
    let administrative = false;
    try {
      administrative = parseAuthCommand(cypher) !== null;
    } catch {
      administrative = false;
    }
    if (administrative) throw new ToolFailure('user and role administration is not allowed in the query tool');
    const explained = await session.run(`EXPLAIN ${cypher}`, params);
    await explained.pull(-1);
    if (explained.summary().queryType !== 'r') throw new ToolFailure('the query tool only runs read-only queries; this statement writes or changes the schema');
    const result = await session.run(cypher, params, { mode: 'READ' });
    const page = await result.pull(QUERY_ROW_LIMIT);
    if (page.hasMore) await result.discard();
    return {
      columns: [...result.keys],
      rows: page.records.map((row) => row.map(cypherToJson)),
      ...(page.hasMore ? { truncated: `only the first ${QUERY_ROW_LIMIT} rows` } : {}),
    };
  }

  private async get(args: Args, session: Session): Promise<JsonValue> {
    const target = nodeRef(args, 'id', 'm');
    const { records: rows } = await records(
      session,
      `MATCH (m) WHERE ${target.predicate} OPTIONAL MATCH (m)-[r]-(o) ` +
        'RETURN m, type(r), id(startNode(r)) = id(m), id(o), o.content LIMIT 101',
      new Map([['id', target.value]]),
    );
    if (rows.length === 0) throw new ToolFailure(`no node with id ${String(args.id)}`);
    const links = rows
      .filter((row) => row[1] !== null)
      .map(([, type, outgoing, other, otherContent]) => ({
        type: cypherToJson(type ?? null),
        direction: outgoing === true ? 'out' : 'in',
        other: cypherToJson(other ?? null),
        content: cypherToJson(otherContent ?? null),
      }));
    return { node: cypherToJson(rows[0]![0] ?? null), relationships: links };
  }
}

/** Query parameters from the model's JSON (any nesting). */
function propertyMapDeep(value: unknown): ReadonlyMap<string, CypherValue> {
  if (value === undefined || value === null) return new Map();
  if (typeof value !== 'object' || Array.isArray(value)) throw new ToolFailure("'params' must be an object");
  return jsonToCypher(value) as ReadonlyMap<string, CypherValue>;
}
