/**
 * `tasks`: tasks are `:Memory:Task` nodes with `status` (todo, in_progress, blocked, done,
 * cancelled) and `priority` (1..5); `(blocker)-[:BLOCKS]->(task)` relationships order them. A task
 * with an unfinished blocker is `blocked`; when a task is finished (done or cancelled) every task
 * it blocked whose blockers are now all finished advances from `blocked` to `todo`.
 */
import type { CypherValue } from '../values/types.js';
import { ARCHIVED_LABEL } from './decay-model.js';
import { cypherToJson, type JsonValue } from './json-values.js';
import { MEMORY_LABEL, type MemoryToolHost } from './tool-host.js';
import {
  boundedInteger,
  idList,
  memoryJson,
  memoryProjection,
  nodeRef,
  type MemoryJson,
  optionalString,
  optionalStrings,
  requiredString,
  ToolFailure,
  type Args,
} from './tool-args.js';
import { TASK_STATUSES } from './tool-definitions.js';

/** Label of task memories. */
export const TASK_LABEL = 'Task';
/** Relationship from a blocker to the task it blocks. */
export const BLOCKS = 'BLOCKS';
const RESOLVED = ['done', 'cancelled'];

/** Status changes made by one refresh. */
interface StatusChange {
  readonly id: bigint;
  readonly before: string | null;
  readonly after: string | null;
}

function statusArg(args: Args): string | undefined {
  const status = optionalString(args, 'status')?.toLowerCase();
  if (status !== undefined && !(TASK_STATUSES as readonly string[]).includes(status)) {
    throw new ToolFailure(`'status' must be one of ${TASK_STATUSES.join(', ')}`);
  }
  return status;
}

function priorityArg(args: Args): bigint | undefined {
  return args.priority === undefined || args.priority === null ? undefined : BigInt(boundedInteger(args, 'priority', 3, 1, 5));
}

/** Runs the `tasks` tool. */
export async function runTasks(host: MemoryToolHost, args: Args): Promise<JsonValue> {
  const action = requiredString(args, 'action').toLowerCase();
  if (action === 'create') return create(host, args);
  if (action === 'update') return update(host, args);
  if (action === 'list') return list(host, args);
  throw new ToolFailure("'action' must be create, update or list");
}

async function addBlockers(host: MemoryToolHost, taskId: bigint, blockers: readonly bigint[]): Promise<void> {
  if (blockers.length === 0) return;
  if (blockers.includes(taskId)) throw new ToolFailure('a task cannot block itself');
  const { rows } = await host.cypher.run(
    `MATCH (b:${MEMORY_LABEL}) WHERE id(b) IN $blockers MATCH (t:${TASK_LABEL}) WHERE id(t) = $id ` +
      `MERGE (b)-[:${BLOCKS}]->(t) RETURN count(*)`,
    new Map<string, CypherValue>([
      ['blockers', [...blockers]],
      ['id', taskId],
    ]),
  );
  const linked = Number(rows[0]?.[0] ?? 0n);
  if (linked !== new Set(blockers).size) throw new ToolFailure(`some of the blockers ${blockers.join(', ')} are not memories`);
}

/** Recomputes `blocked` / `todo` of the given tasks from their open blockers. */
async function refresh(host: MemoryToolHost, ids: readonly bigint[]): Promise<StatusChange[]> {
  if (ids.length === 0) return [];
  const { rows } = await host.cypher.run(
    `MATCH (t:${TASK_LABEL}) WHERE id(t) IN $ids OPTIONAL MATCH (b)-[:${BLOCKS}]->(t) WHERE NOT coalesce(b.status, 'todo') IN $resolved ` +
      'WITH t, t.status AS before, count(b) AS open ' +
      "WITH t, before, CASE WHEN before IN $resolved THEN before WHEN open > 0 THEN 'blocked' WHEN before = 'blocked' OR before IS NULL THEN 'todo' ELSE before END AS after " +
      'SET t.status = after, t.updated_at = CASE WHEN before = after THEN t.updated_at ELSE datetime({epochMillis: $now}) END ' +
      'RETURN id(t), before, after',
    new Map<string, CypherValue>([
      ['ids', [...ids]],
      ['resolved', RESOLVED],
      ['now', BigInt(host.now())],
    ]),
  );
  return rows.map((row) => ({ id: row[0] as bigint, before: row[1] as string | null, after: row[2] as string | null }));
}

async function readTask(host: MemoryToolHost, id: bigint): Promise<{ [key: string]: JsonValue }> {
  const { rows } = await host.cypher.run(
    `MATCH (t:${TASK_LABEL}) WHERE id(t) = $id OPTIONAL MATCH (b)-[:${BLOCKS}]->(t) ` +
      `WITH t, collect(CASE WHEN b IS NULL THEN null ELSE {id: id(b), title: b.title, status: b.status} END) AS blockers RETURN ${memoryProjection('t')}, blockers`,
    new Map<string, CypherValue>([['id', id]]),
    { mode: 'READ' },
  );
  if (rows.length === 0) throw new ToolFailure(`no task with id ${id}`);
  const task = memoryJson(rows[0]![0]);
  return { ...task, blocked_by: cypherToJson(rows[0]![1] ?? []) };
}

async function create(host: MemoryToolHost, args: Args): Promise<JsonValue> {
  const title = requiredString(args, 'title');
  const blockers = idList(args, 'blocked_by');
  const properties = new Map<string, CypherValue>([
    ['title', title],
    ['content', optionalString(args, 'description') ?? title],
    ['type', 'task'],
    ['status', statusArg(args) ?? 'todo'],
    ['priority', priorityArg(args) ?? 3n],
    ['tags', optionalStrings(args, 'tags')],
  ]);
  const { rows } = await host.cypher.run(
    `CREATE (t:${MEMORY_LABEL}:${TASK_LABEL} $properties) SET t.created_at = datetime({epochMillis: $now}), t.updated_at = t.created_at, t.access_count = 0 RETURN id(t)`,
    new Map<string, CypherValue>([
      ['properties', properties],
      ['now', BigInt(host.now())],
    ]),
  );
  const id = rows[0]![0] as bigint;
  await addBlockers(host, id, blockers);
  await refresh(host, [id]);
  return { created: true, task: await readTask(host, id) };
}

async function update(host: MemoryToolHost, args: Args): Promise<JsonValue> {
  const target = nodeRef(args.id, 'ref', 't');
  const { rows } = await host.cypher.run(
    `MATCH (t:${TASK_LABEL}) WHERE ${target.predicate} RETURN id(t)`,
    new Map([['ref', target.value]]),
    { mode: 'READ' },
  );
  if (rows.length === 0) throw new ToolFailure(`no task with id ${String(args.id)}`);
  const id = rows[0]![0] as bigint;
  const changes = new Map<string, CypherValue>();
  const status = statusArg(args);
  if (status !== undefined) changes.set('status', status);
  const title = optionalString(args, 'title');
  if (title !== undefined) changes.set('title', title);
  const description = optionalString(args, 'description');
  if (description !== undefined) changes.set('content', description);
  const priority = priorityArg(args);
  if (priority !== undefined) changes.set('priority', priority);
  await host.cypher.run(
    `MATCH (t:${TASK_LABEL}) WHERE id(t) = $id SET t += $changes, t.updated_at = datetime({epochMillis: $now})`,
    new Map<string, CypherValue>([
      ['id', id],
      ['changes', changes],
      ['now', BigInt(host.now())],
    ]),
  );
  await addBlockers(host, id, idList(args, 'blocked_by'));
  const [own] = await refresh(host, [id]);
  let advanced: JsonValue[] = [];
  if (own !== undefined && own.after !== null && RESOLVED.includes(own.after)) {
    const { rows: blocked } = await host.cypher.run(
      `MATCH (x)-[:${BLOCKS}]->(t:${TASK_LABEL}) WHERE id(x) = $id RETURN id(t)`,
      new Map<string, CypherValue>([['id', id]]),
      { mode: 'READ' },
    );
    const changed = await refresh(
      host,
      blocked.map((row) => row[0] as bigint),
    );
    advanced = changed.filter((change) => change.before === 'blocked' && change.after === 'todo').map((change) => Number(change.id));
  }
  return { updated: true, task: await readTask(host, id), advanced };
}

async function list(host: MemoryToolHost, args: Args): Promise<JsonValue> {
  const status = statusArg(args) ?? null;
  const limit = boundedInteger(args, 'limit', 20, 1, 100);
  const { rows } = await host.cypher.run(
    `MATCH (t:${MEMORY_LABEL}:${TASK_LABEL}) WHERE ($status IS NULL OR t.status = $status) AND NOT t:${ARCHIVED_LABEL} ` +
      `OPTIONAL MATCH (b)-[:${BLOCKS}]->(t) WHERE NOT coalesce(b.status, 'todo') IN $resolved ` +
      'WITH t, collect(id(b)) AS open_blockers ' +
      'RETURN {id: id(t), title: t.title, status: t.status, priority: t.priority, tags: t.tags}, open_blockers ' +
      "ORDER BY CASE t.status WHEN 'in_progress' THEN 0 WHEN 'todo' THEN 1 WHEN 'blocked' THEN 2 ELSE 3 END, coalesce(t.priority, 3), t.created_at, id(t) LIMIT $limit",
    new Map<string, CypherValue>([
      ['status', status],
      ['resolved', RESOLVED],
      ['limit', BigInt(limit)],
    ]),
    { mode: 'READ' },
  );
  const tasks = rows.map((row): MemoryJson => ({ ...memoryJson(row[0]), open_blockers: cypherToJson(row[1] ?? []) }));
  const next = tasks.find((task) => task.status === 'in_progress' || task.status === 'todo');
  return { count: tasks.length, tasks, ...(next !== undefined ? { next: next.id ?? null } : {}) };
}
