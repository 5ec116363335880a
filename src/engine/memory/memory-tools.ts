/**
 * The memory tools (docs/ai-memory.md), one implementation for the assistant's agentic loop and
 * the MCP server. A memory is a `:Memory` node (`content`, `title`, `type`, `tags`, `importance`,
 * `created_at`, `last_accessed`, `access_count`, optional `no_decay`, extra labels and
 * properties). Every statement goes through the host's `CypherRunner`, so the caller's rights
 * apply exactly as on Bolt and HTTP: a reader's `store` fails with Forbidden, which becomes the
 * tool's `{error}` result. Results are compact JSON with ids for chaining.
 */
import { Kind } from '../cypher/ast/kinds.js';
import { parse } from '../cypher/parser/index.js';
import { isSecurityStatement } from '../cypher/runtime/operators/security-commands.js';
import type { ToolCall, ToolDefinition } from '../assistant/types.js';
import type { CypherValue } from '../values/types.js';
import { ARCHIVED_LABEL } from './decay-model.js';
import { discover, findSimilar } from './discover.js';
import { cypherToJson, type JsonValue } from './json-values.js';
import { runTasks } from './tasks.js';
import { MEMORY_LABEL, type MemoryToolHost } from './tool-host.js';
import {
  boundedInteger,
  deriveTitle,
  idList,
  memoryJson,
  type MemoryJson,
  memoryProjection,
  nodeRef,
  optionalBoolean,
  optionalNumber,
  optionalString,
  optionalStrings,
  parameterMap,
  propertyMap,
  quoted,
  requiredString,
  sinceMillis,
  ToolFailure,
  type Args,
} from './tool-args.js';
import { DEFAULT_LINK_TYPE } from './tool-definitions.js';

/** Most rows the `cypher` tool returns. */
export const QUERY_ROW_LIMIT = 200;
/** Neighbours listed per recalled memory. */
const NEIGHBOUR_LIMIT = 20;

/** A tool's answer for the model: JSON text, and whether it succeeded. */
export interface ToolOutcome {
  readonly ok: boolean;
  readonly output: string;
}

/** The neighbours clause: `links` of `m` (at most 20), after `WITH m, ...`. */
export const NEIGHBOURS =
  'OPTIONAL MATCH (m)-[r]-(o) WITH m, collect(CASE WHEN r IS NULL THEN null ELSE ' +
  "{type: type(r), direction: CASE WHEN id(startNode(r)) = id(m) THEN 'out' ELSE 'in' END, id: id(o), title: coalesce(o.title, o.name), status: o.status} END)" +
  `[..${NEIGHBOUR_LIMIT}] AS links`;

/** Runs memory tools for one caller. */
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
    if (!this.offered.has(call.name))
      return failure(`tool '${call.name}' is not available (available: ${[...this.offered].join(', ') || 'none'})`);
    let args: unknown;
    try {
      args = call.arguments.trim() === '' ? {} : JSON.parse(call.arguments);
    } catch {
      return failure(`the arguments of '${call.name}' are not valid JSON: ${call.arguments.slice(0, 200)}`);
    }
    if (args === null || typeof args !== 'object' || Array.isArray(args))
      return failure(`the arguments of '${call.name}' must be a JSON object`);
    try {
      return { ok: true, output: JSON.stringify(await this.dispatch(call.name, args as Args)) };
    } catch (error) {
      return failure(error instanceof Error ? error.message : String(error));
    }
  }

  private dispatch(name: string, args: Args): Promise<JsonValue> {
    switch (name) {
      case 'store':
        return this.store(args);
      case 'recall':
        return this.recall(args);
      case 'discover':
        return discover(this.host, args);
      case 'link':
        return this.link(args);
      case 'tasks':
        return runTasks(this.host, args);
      case 'forget':
        return this.forget(args);
      case 'cypher':
        return this.cypher(args);
      default:
        throw new ToolFailure(`unknown tool '${name}'`);
    }
  }

  private async store(args: Args): Promise<JsonValue> {
    const content = requiredString(args, 'content');
    const properties = propertyMap(args, 'properties');
    properties.set('content', content);
    properties.set('title', optionalString(args, 'title') ?? deriveTitle(content));
    properties.set('type', (optionalString(args, 'type') ?? 'note').toLowerCase());
    properties.set('tags', optionalStrings(args, 'tags'));
    const importance = optionalNumber(args, 'importance', 0, 1);
    if (importance !== undefined) properties.set('importance', importance);
    if (optionalBoolean(args, 'no_decay') === true) properties.set('no_decay', true);
    const extra = optionalStrings(args, 'labels').filter((label) => label !== MEMORY_LABEL && label !== ARCHIVED_LABEL);
    const labels = [MEMORY_LABEL, ...extra].map(quoted).join(':');
    const { rows } = await this.host.cypher.run(
      `CREATE (m:${labels} $properties) SET m.created_at = datetime({epochMillis: $now}), m.updated_at = m.created_at, m.access_count = 0 ` +
        `RETURN ${memoryProjection('m')}`,
      new Map<string, CypherValue>([
        ['properties', properties],
        ['now', BigInt(this.host.now())],
      ]),
    );
    const memory = memoryJson(rows[0]?.[0]);
    const search = this.host.search();
    const similar = await findSimilar(this.host, content, Number(memory.id));
    return {
      stored: true,
      id: memory.id ?? null,
      elementId: memory.elementId ?? null,
      title: memory.title ?? null,
      type: memory.type ?? null,
      embedding:
        search === null
          ? 'unavailable (search disabled or remote)'
          : search.embeddingWorker === null
            ? 'disabled (embeddings.enabled is false)'
            : 'queued',
      suggestions: similar,
      ...(similar.length > 0 ? { hint: 'link related memories with the link tool' } : {}),
    };
  }

  private async recall(args: Args): Promise<JsonValue> {
    const single = args.id === undefined || args.id === null ? null : nodeRef(args.id, 'ref', 'm');
    const ids = idList(args, 'ids');
    if (single !== null || ids.length > 0) return this.recallByIds(single, ids);
    const limit = boundedInteger(args, 'limit', 10, 1, 50);
    const type = optionalString(args, 'type');
    const tags = optionalStrings(args, 'tags');
    const since = optionalString(args, 'since');
    const labels = optionalStrings(args, 'labels').map(quoted).join(':');
    const includeArchived = optionalBoolean(args, 'include_archived') === true;
    const params = new Map<string, CypherValue>([
      ['type', type?.toLowerCase() ?? null],
      ['tags', tags],
      ['since', since === undefined ? 0n : BigInt(Math.round(sinceMillis(since, this.host.now())))],
      ['archived', includeArchived],
      ['limit', BigInt(limit)],
    ]);
    const { rows } = await this.host.cypher.run(
      `MATCH (m:${MEMORY_LABEL}${labels === '' ? '' : `:${labels}`}) WHERE ($type IS NULL OR m.type = $type) ` +
        'AND (size($tags) = 0 OR any(t IN coalesce(m.tags, []) WHERE t IN $tags)) ' +
        (since === undefined ? '' : 'AND m.created_at >= datetime({epochMillis: $since}) ') +
        `AND ($archived OR NOT m:${ARCHIVED_LABEL}) ` +
        `WITH m ORDER BY m.created_at DESC, id(m) DESC LIMIT $limit ${NEIGHBOURS} ` +
        `RETURN ${memoryProjection('m')}, links ORDER BY m.created_at DESC, id(m) DESC`,
      params,
      { mode: 'READ' },
    );
    const memories = rows.map((row): MemoryJson => ({ ...memoryJson(row[0]), links: cypherToJson(row[1] ?? []) }));
    const accessed = await this.recordAccess(memories.map((memory) => BigInt(memory.id as number)));
    return { count: memories.length, memories, access_recorded: accessed };
  }

  private async recallByIds(single: { predicate: string; value: CypherValue } | null, ids: bigint[]): Promise<JsonValue> {
    const params = new Map<string, CypherValue>([
      ['ids', ids],
      ['ref', single?.value ?? null],
    ]);
    const { rows } = await this.host.cypher.run(
      `MATCH (m:${MEMORY_LABEL}) WHERE id(m) IN $ids${single === null ? '' : ` OR ${single.predicate}`} ${NEIGHBOURS} ` +
        `RETURN ${memoryProjection('m')}, properties(m), links LIMIT 50`,
      params,
      { mode: 'READ' },
    );
    if (rows.length === 0)
      throw new ToolFailure(`no memory with id ${single === null ? ids.join(', ') : JSON.stringify(cypherToJson(single.value))}`);
    const memories = rows.map((row): MemoryJson => {
      const memory = memoryJson(row[0], true);
      const extra = cypherToJson(row[1] ?? null) as { [key: string]: JsonValue } | null;
      const shown = new Set([...Object.keys(memory), 'embedding', 'updated_at']);
      const properties = Object.fromEntries(Object.entries(extra ?? {}).filter(([key]) => !shown.has(key)));
      return { ...memory, ...(Object.keys(properties).length > 0 ? { properties } : {}), links: cypherToJson(row[2] ?? []) };
    });
    const promoted = memories.filter((memory) => memory.archived === true).map((memory) => memory.id ?? null);
    const accessed = await this.recordAccess(memories.map((memory) => BigInt(memory.id as number)));
    return {
      count: memories.length,
      memories,
      access_recorded: accessed,
      ...(accessed && promoted.length > 0 ? { unarchived: promoted } : {}),
    };
  }

  /**
   * Promotion on access: `last_accessed` = now, `access_count` + 1, and an archived memory
   * returns to search. Best effort: a caller without write rights reads without recording.
   */
  private async recordAccess(ids: readonly bigint[]): Promise<boolean> {
    if (ids.length === 0) return true;
    try {
      await this.host.cypher.run(
        `MATCH (m:${MEMORY_LABEL}) WHERE id(m) IN $ids SET m.last_accessed = datetime({epochMillis: $now}), ` +
          `m.access_count = coalesce(m.access_count, 0) + 1 REMOVE m:${ARCHIVED_LABEL}`,
        new Map<string, CypherValue>([
          ['ids', [...ids]],
          ['now', BigInt(this.host.now())],
        ]),
      );
      return true;
    } catch {
      return false;
    }
  }

  private async link(args: Args): Promise<JsonValue> {
    const from = nodeRef(args.from, 'from', 'a');
    const to = nodeRef(args.to, 'to', 'b');
    const type = (optionalString(args, 'type') ?? DEFAULT_LINK_TYPE).toUpperCase().replace(/[^A-Z0-9_]+/g, '_');
    const { rows } = await this.host.cypher.run(
      `MATCH (a:${MEMORY_LABEL}) WHERE ${from.predicate} MATCH (b:${MEMORY_LABEL}) WHERE ${to.predicate} ` +
        `CREATE (a)-[r:${quoted(type)}]->(b) SET r += $properties, r.created_at = datetime({epochMillis: $now}) ` +
        'RETURN id(r), elementId(r), id(a), a.title, id(b), b.title',
      new Map<string, CypherValue>([
        ['from', from.value],
        ['to', to.value],
        ['properties', propertyMap(args, 'properties')],
        ['now', BigInt(this.host.now())],
      ]),
    );
    const row = rows[0];
    if (row === undefined) throw new ToolFailure('no relationship created: both ends must be existing memories');
    const [id, elementId, fromId, fromTitle, toId, toTitle] = row.map((value) => cypherToJson(value));
    return {
      linked: true,
      id: id!,
      elementId: elementId!,
      type,
      from: { id: fromId!, title: fromTitle! },
      to: { id: toId!, title: toTitle! },
    };
  }

  private async forget(args: Args): Promise<JsonValue> {
    const target = nodeRef(args.id, 'id', 'm');
    const { rows } = await this.host.cypher.run(
      `MATCH (m:${MEMORY_LABEL}) WHERE ${target.predicate} DETACH DELETE m RETURN count(*)`,
      new Map([['id', target.value]]),
    );
    const deleted = Number(rows[0]?.[0] ?? 0n);
    if (deleted === 0) throw new ToolFailure(`no memory with id ${JSON.stringify(args.id)}`);
    return { forgotten: deleted };
  }

  private async cypher(args: Args): Promise<JsonValue> {
    const query = requiredString(args, 'query');
    const params = parameterMap(args.params);
    if (isAdministration(query)) throw new ToolFailure('user and role administration is not allowed in the cypher tool');
    if ((await this.host.cypher.queryType(query, params)) !== 'r') {
      throw new ToolFailure(
        'the cypher tool only runs read-only queries; this statement writes or changes the schema (use store, link, tasks or forget)',
      );
    }
    const result = await this.host.cypher.run(query, params, { mode: 'READ', limit: QUERY_ROW_LIMIT });
    return {
      columns: [...result.keys],
      rows: result.rows.map((row) => row.map((value) => cypherToJson(value))),
      ...(result.more ? { truncated: `only the first ${QUERY_ROW_LIMIT} rows` } : {}),
    };
  }
}

/** Whether a statement is user/role administration (false when it does not parse). */
function isAdministration(query: string): boolean {
  try {
    const body = parse(query).body;
    return body.kind !== Kind.SingleQuery && body.kind !== Kind.Union && isSecurityStatement(body);
  } catch {
    return false;
  }
}

function failure(message: string): ToolOutcome {
  return { ok: false, output: JSON.stringify({ error: message }) };
}
