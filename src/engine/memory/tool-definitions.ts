/**
 * The memory tools as offered to a model: the assistant's agentic loop and the MCP server list
 * these same definitions (JSON Schema parameters), and `MemoryTools` runs them.
 */
import type { JsonSchema, ToolDefinition } from '../assistant/types.js';

/** Relationship type `link` uses when none is given. */
export const DEFAULT_LINK_TYPE = 'RELATES_TO';
/** Link types suggested to models (any identifier is accepted). */
export const SUGGESTED_LINK_TYPES = [
  'relates_to',
  'depends_on',
  'implements',
  'blocks',
  'part_of',
  'supersedes',
  'references',
  'caused_by',
];
/** Task statuses; `done` and `cancelled` resolve a blocker. */
export const TASK_STATUSES = ['todo', 'in_progress', 'blocked', 'done', 'cancelled'] as const;

const id: JsonSchema = { oneOf: [{ type: 'integer' }, { type: 'string' }], description: 'memory id (integer) or elementId (string)' };
const ids = (description: string): JsonSchema => ({ type: 'array', items: id, description });
const strings = (description: string): JsonSchema => ({ type: 'array', items: { type: 'string' }, description });
const text = (description: string): JsonSchema => ({ type: 'string', description });
const integer = (description: string): JsonSchema => ({ type: 'integer', description });
const number = (description: string): JsonSchema => ({ type: 'number', description });
const freeObject = (description: string): JsonSchema => ({ type: 'object', additionalProperties: true, description });

/** Every memory tool, in the order they are offered. */
export const MEMORY_TOOLS: readonly ToolDefinition[] = [
  {
    name: 'store',
    description:
      'Store a knowledge memory (a :Memory node): content, a type (note, fact, decision, code, episode, ...), tags. ' +
      'A title is derived when none is given; the node is indexed and embedded for search. Returns its id and similar existing memories as suggestions to link.',
    parameters: {
      type: 'object',
      properties: {
        content: text('the text to remember'),
        title: text('short title (default: derived from the content)'),
        type: text('kind of knowledge: note (default), fact, decision, code, episode, preference, ...'),
        tags: strings('short keywords'),
        labels: strings('extra labels; Episodic, Semantic or Procedural choose the decay half-life'),
        importance: number('0..1, default 0.5; important memories decay slower'),
        no_decay: { type: 'boolean', description: 'never decays nor is archived' },
        properties: freeObject('extra properties (strings, numbers, booleans or lists of them)'),
      },
      required: ['content'],
    },
  },
  {
    name: 'recall',
    description:
      'Read memories by id (full content, also archived ones), or list them by type/tags/since filters, newest first; each with its 1-hop neighbours. Reading counts as an access (promotes decaying memories).',
    parameters: {
      type: 'object',
      properties: {
        id,
        ids: ids('several memory ids'),
        type: text('only this type'),
        tags: strings('only memories with at least one of these tags'),
        since: text('only memories created at or after this ISO date/time, or within a duration such as 7d, 12h'),
        labels: strings('only memories with all these labels'),
        include_archived: { type: 'boolean', description: 'filters: include archived memories' },
        limit: integer('filters: most memories (default 10, at most 50)'),
      },
    },
  },
  {
    name: 'discover',
    description:
      'Search memories by meaning and keywords (hybrid BM25 + vector search, ranked with decay), then expand depth 1-3 hops through their links. Reports the method used.',
    parameters: {
      type: 'object',
      properties: {
        query: text('what to look for'),
        depth: integer('graph expansion hops from each hit, 1..3 (default 1)'),
        limit: integer('most hits (default 5, at most 20)'),
        type: text('only hits of this type'),
        labels: strings('only hits with one of these labels (default Memory)'),
        decay_weight: number('0..1 share of the decay score in the ranking (default from memory_decay.search_weight)'),
      },
      required: ['query'],
    },
  },
  {
    name: 'link',
    description: `Create a typed relationship between two memories, e.g. ${SUGGESTED_LINK_TYPES.join(', ')} (stored upper-case).`,
    parameters: {
      type: 'object',
      properties: {
        from: id,
        to: id,
        type: text(`relationship type (default ${DEFAULT_LINK_TYPE.toLowerCase()})`),
        properties: freeObject('relationship properties'),
      },
      required: ['from', 'to'],
    },
  },
  {
    name: 'tasks',
    description:
      'Manage tasks (:Memory:Task nodes). action create {title, description?, priority?, blocked_by?}; update {id, status?, title?, priority?, blocked_by?}; ' +
      `list {status?, limit?}. Statuses: ${TASK_STATUSES.join(', ')}. A task with unfinished blockers is blocked; finishing a task advances the tasks it blocked.`,
    parameters: {
      type: 'object',
      properties: {
        action: { type: 'string', description: 'create, update or list' },
        id,
        title: text('task title'),
        description: text('details'),
        status: text(TASK_STATUSES.join(' | ')),
        priority: integer('1 (highest) .. 5, default 3'),
        blocked_by: ids('tasks that must be done first'),
        tags: strings('short keywords'),
        limit: integer('list: most tasks (default 20, at most 100)'),
      },
      required: ['action'],
    },
  },
  {
    name: 'forget',
    description: 'Delete a memory and its relationships for good (archiving keeps it; this does not).',
    parameters: { type: 'object', properties: { id }, required: ['id'] },
  },
  {
    name: 'cypher',
    description: 'Run a read-only Cypher query (statements that write or administer are refused). Returns columns and at most 200 rows.',
    parameters: {
      type: 'object',
      properties: {
        query: text('the Cypher query'),
        params: freeObject('query parameters'),
      },
      required: ['query'],
    },
  },
];

/** Names of every memory tool. */
export const MEMORY_TOOL_NAMES: readonly string[] = MEMORY_TOOLS.map((tool) => tool.name);

/** The tools an allowlist permits (an empty allowlist permits all). */
export function allowedTools(allowlist: readonly string[]): readonly ToolDefinition[] {
  const wanted = new Set(allowlist.map((name) => name.trim().toLowerCase()).filter((name) => name !== ''));
  return wanted.size === 0 ? MEMORY_TOOLS : MEMORY_TOOLS.filter((tool) => wanted.has(tool.name));
}
