/**
 * The graphdb MCP server (docs/ai-memory.md) on the official SDK: the memory tools (the same
 * definitions and implementation as the assistant's loop, filtered by the
 * `GRAPHDB_ASSISTANT_MCP_TOOLS` allowlist), resources (the graph schema, recent memories, one
 * memory by id) and prompts. One server serves one caller: the host carries that caller's rights
 * (HTTP: the authenticated user; stdio: the embedded engine or the `--connect` credentials).
 * Tool results are JSON text cut to `max_tool_result_chars`.
 */
import { McpServer, ResourceTemplate } from '@modelcontextprotocol/sdk/server/mcp.js';
import { CallToolRequestSchema, ListToolsRequestSchema, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import {
  ARCHIVED_LABEL,
  cypherToJson,
  MEMORY_LABEL,
  memoryJson,
  memoryProjection,
  MemoryTools,
  truncateToolResult,
  type MemoryToolHost,
  type ToolDefinition,
} from '../../engine/index.js';

/** Inputs of `createMcpServer`. */
export interface McpServerOptions {
  readonly host: MemoryToolHost;
  /** The tools offered (already filtered by the allowlist). */
  readonly tools: readonly ToolDefinition[];
  /** Characters of one tool result sent to the client. */
  readonly maxResultChars: number;
  readonly version: string;
}

const RECENT_LIMIT = 20;

function json(value: unknown): string {
  return JSON.stringify(value, null, 1);
}

/** Labels, relationship types and property keys of the database, and memory counts. */
async function schemaDocument(host: MemoryToolHost): Promise<unknown> {
  const read = { mode: 'READ' as const };
  const column = async (query: string) => (await host.cypher.run(query, new Map(), read)).rows.map((row) => cypherToJson(row[0] ?? null));
  const [labels, relationshipTypes, propertyKeys] = await Promise.all([
    column('CALL db.labels() YIELD label RETURN label ORDER BY label'),
    column('CALL db.relationshipTypes() YIELD relationshipType RETURN relationshipType ORDER BY relationshipType'),
    column('CALL db.propertyKeys() YIELD propertyKey RETURN propertyKey ORDER BY propertyKey'),
  ]);
  const { rows } = await host.cypher.run(
    `MATCH (m:${MEMORY_LABEL}) RETURN count(m), sum(CASE WHEN m:${ARCHIVED_LABEL} THEN 1 ELSE 0 END), sum(CASE WHEN m:Task THEN 1 ELSE 0 END)`,
    new Map(),
    read,
  );
  const [memories, archived, tasks] = (rows[0] ?? []).map((value) => cypherToJson(value ?? 0n));
  return {
    database: host.database,
    labels,
    relationshipTypes,
    propertyKeys,
    memories: { total: memories, archived, tasks },
    memoryModel:
      ':Memory {content, title, type, tags, importance, created_at, last_accessed, access_count, no_decay}; extra labels Episodic/Semantic/Procedural pick the decay half-life; :Task adds status, priority and (blocker)-[:BLOCKS]->(task).',
  };
}

async function recentMemories(host: MemoryToolHost): Promise<unknown> {
  const { rows } = await host.cypher.run(
    `MATCH (m:${MEMORY_LABEL}) WHERE NOT m:${ARCHIVED_LABEL} WITH m ORDER BY m.created_at DESC, id(m) DESC LIMIT ${RECENT_LIMIT} RETURN ${memoryProjection('m')}`,
    new Map(),
    { mode: 'READ' },
  );
  return { database: host.database, memories: rows.map((row) => memoryJson(row[0])) };
}

function registerResources(server: McpServer, host: MemoryToolHost): void {
  server.registerResource(
    'schema',
    'graphdb://schema',
    {
      title: 'Graph schema',
      description: 'Labels, relationship types, property keys and memory counts of the database',
      mimeType: 'application/json',
    },
    async (uri) => ({ contents: [{ uri: uri.href, mimeType: 'application/json', text: json(await schemaDocument(host)) }] }),
  );
  server.registerResource(
    'recent-memories',
    'graphdb://memories/recent',
    { title: 'Recent memories', description: `The ${RECENT_LIMIT} newest memories that are not archived`, mimeType: 'application/json' },
    async (uri) => ({ contents: [{ uri: uri.href, mimeType: 'application/json', text: json(await recentMemories(host)) }] }),
  );
  server.registerResource(
    'memory',
    new ResourceTemplate('graphdb://memory/{id}', { list: undefined }),
    { title: 'One memory', description: 'A memory by node id, with its properties (archived ones too)', mimeType: 'application/json' },
    async (uri, variables) => {
      const id = String(variables.id ?? '');
      if (!/^\d+$/.test(id)) throw new Error(`memory id must be an integer, got ${id}`);
      const { rows } = await host.cypher.run(
        `MATCH (m:${MEMORY_LABEL}) WHERE id(m) = $id RETURN ${memoryProjection('m')}`,
        new Map([['id', BigInt(id)]]),
        { mode: 'READ' },
      );
      if (rows.length === 0) throw new Error(`no memory with id ${id}`);
      return { contents: [{ uri: uri.href, mimeType: 'application/json', text: json(memoryJson(rows[0]![0], true)) }] };
    },
  );
}

function registerPrompts(server: McpServer): void {
  server.registerPrompt(
    'recall-context',
    {
      title: 'Recall project context',
      description: 'Ask the model to look up what graphdb remembers about a topic before working on it',
      argsSchema: { topic: z.string().describe('what the work is about') },
    },
    ({ topic }) => ({
      messages: [
        {
          role: 'user',
          content: {
            type: 'text',
            text:
              `Before working on "${topic}", call the discover tool with that topic and depth 2, read the most relevant memories ` +
              'in full with recall, and list open tasks with tasks {action: "list"}. Summarise what is known, what was decided and what is blocked.',
          },
        },
      ],
    }),
  );
  server.registerPrompt(
    'save-session',
    {
      title: 'Save what was learned',
      description: 'Ask the model to store the decisions and facts of the current session as linked memories',
      argsSchema: { summary: z.string().optional().describe('optional hints about what mattered') },
    },
    ({ summary }) => ({
      messages: [
        {
          role: 'user',
          content: {
            type: 'text',
            text:
              'Store each durable decision, fact and procedure from this session with the store tool (type decision, fact or procedure; ' +
              'labels Semantic or Procedural for lasting knowledge, Episodic for events), then link each to the suggestions it returns ' +
              `with a fitting type (implements, depends_on, relates_to, supersedes).${summary ? ` Focus: ${summary}` : ''}`,
          },
        },
      ],
    }),
  );
}

/** An MCP server for one caller. */
export function createMcpServer(options: McpServerOptions): McpServer {
  const server = new McpServer(
    { name: 'graphdb', version: options.version },
    {
      capabilities: { tools: {}, resources: {}, prompts: {} },
      instructions:
        'graphdb long-term memory. discover before you answer from memory; store durable facts, decisions and procedures; ' +
        'link related memories (depends_on, implements, relates_to, blocks); track work with tasks; cypher reads the graph.',
    },
  );
  const tools = new MemoryTools(options.host, options.tools);
  let calls = 0;
  server.server.setRequestHandler(ListToolsRequestSchema, async () => ({
    tools: options.tools.map((tool) => ({
      name: tool.name,
      description: tool.description,
      inputSchema: tool.parameters,
      annotations: { readOnlyHint: ['discover', 'cypher'].includes(tool.name), destructiveHint: tool.name === 'forget' },
    })),
  }));
  server.server.setRequestHandler(CallToolRequestSchema, async (request): Promise<CallToolResult> => {
    const outcome = await tools.run({
      id: `mcp_${++calls}`,
      name: request.params.name,
      arguments: JSON.stringify(request.params.arguments ?? {}),
    });
    const { text } = truncateToolResult(outcome.output, options.maxResultChars);
    return { content: [{ type: 'text', text }], ...(outcome.ok ? {} : { isError: true }) };
  });
  registerResources(server, options.host);
  registerPrompts(server);
  return server;
}
