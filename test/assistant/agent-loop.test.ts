/**
 * The agentic loop end to end: a real graphdb server (auth on) whose assistant uses the
 * `local_server` provider against a scripted OpenAI-compatible model server. The fake model asks
 * for memory tools; the tests check the graph, the messages the model received next, the round
 * bound, truncation, RBAC (a viewer cannot store) and the tool allowlist.
 */
import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import { eventually } from '../helpers/eventually.js';
import { commit, request, startTestServer, type TestServer } from '../http/helpers.js';
import { startFakeModelServer, type FakeModelServer, type FakeReply } from './fixtures/fake-model-server.js';
import { sseData } from './fixtures/sse.js';

const basic = (user: string, password: string) => ({ authorization: `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}` });
const ROOT = basic('root', 'rootpw');
const VIEWER = basic('vi', 'vi-pw');
const MAX_ROUNDS = 3;
const MAX_TOOL_CHARS = 1500;

let script: (body: any, index: number) => FakeReply = () => ({ content: 'unset' });

function chat(t: TestServer, json: unknown, headers: Record<string, string> = ROOT) {
  return request(`${t.url}/assistant/v1/chat/completions`, { method: 'POST', headers, json });
}

async function cypherRows(t: TestServer, statement: string): Promise<unknown[][]> {
  const response = await commit(t.url, [statement], 'graphdb', ROOT);
  assert.deepEqual(response.body.errors, []);
  return response.body.results[0].data.map((d: { row: unknown[] }) => d.row);
}

/** The tool messages of a request the fake model received. */
function toolMessages(body: any): any[] {
  return body.messages.filter((m: any) => m.role === 'tool');
}

describe('assistant agentic loop (local_server provider)', () => {
  let fake: FakeModelServer;
  let t: TestServer;

  before(async () => {
    fake = await startFakeModelServer((body, index) => script(body, index));
    t = await startTestServer(
      {
        'auth.enabled': true,
        'async_writes.enabled': false,
        'assistant.enabled': true,
        'assistant.provider': 'local_server',
        'assistant.api_url': fake.url,
        'assistant.model': 'fake-model',
        'assistant.mcp_enable': true,
        'assistant.max_rounds': MAX_ROUNDS,
        'assistant.max_tool_result_chars': MAX_TOOL_CHARS,
      },
      { GRAPHDB_AUTH: 'root:rootpw' },
    );
    const post = (path: string, json: unknown) => request(`${t.url}${path}`, { method: 'POST', headers: ROOT, json });
    assert.equal((await post('/admin/users', { username: 'vi', password: 'vi-pw', roles: ['viewer'] })).status, 201);
    assert.deepEqual((await commit(t.url, ['CREATE DATABASE notes IF NOT EXISTS'], 'graphdb', ROOT)).body.errors, []);
    assert.equal((await post('/admin/roles', { name: 'noteseditor', permissions: ['read', 'write'], databases: ['notes'] })).status, 201);
    assert.equal((await post('/admin/users', { username: 'nt', password: 'nt-pw', roles: ['noteseditor'] })).status, 201);
  });

  after(async () => {
    await t.stop();
    await fake.close();
  });

  beforeEach(() => fake.reset());

  it('stores then recalls a memory; the recall result reaches the model in the next request', async () => {
    script = (_body, index) => {
      if (index === 0)
        return {
          content: '',
          toolCalls: [
            {
              name: 'store',
              arguments: { content: 'Alice prefers graph databases', tags: ['alice', 'preference'], properties: { importance: 3 } },
            },
          ],
        };
      if (index === 1) return { content: '', toolCalls: [{ name: 'discover', arguments: { query: 'graph databases', limit: 3 } }] };
      return { content: 'Alice prefers graph databases.' };
    };
    const response = await chat(t, {
      model: 'fake-model',
      messages: [{ role: 'user', content: 'Remember that Alice prefers graph databases.' }],
    });
    assert.equal(response.status, 200, response.text);
    assert.equal(response.body.object, 'chat.completion');
    assert.equal(response.body.choices[0].message.content, 'Alice prefers graph databases.');
    assert.equal(response.body.choices[0].finish_reason, 'stop');
    assert.deepEqual(
      response.body.graphdb.tool_calls.map((c: any) => [c.name, c.ok]),
      [
        ['store', true],
        ['discover', true],
      ],
    );
    assert.equal(response.body.graphdb.rounds, 2);

    const stored = await cypherRows(
      t,
      "MATCH (m:Memory) WHERE m.content = 'Alice prefers graph databases' RETURN m.tags, m.importance, m.created_at IS NOT NULL",
    );
    assert.deepEqual(stored, [[['alice', 'preference'], 3, true]]);

    assert.equal(fake.requests.length, 3);
    const offered = fake.requests[0].body.tools.map((tool: any) => tool.function.name);
    assert.deepEqual(offered, ['store', 'recall', 'discover', 'link', 'tasks', 'forget', 'cypher']);
    assert.equal(fake.requests[0].body.messages[0].role, 'system', 'a system prompt is added when tools are offered');
    const third = fake.requests[2].body;
    const [storeResult, recallResult] = toolMessages(third);
    const assistantTurns = third.messages.filter((m: any) => m.role === 'assistant');
    assert.equal(assistantTurns.length, 2);
    assert.equal(recallResult.tool_call_id, assistantTurns[1].tool_calls[0].id);
    assert.equal(JSON.parse(storeResult.content).stored, true);
    const recalled = JSON.parse(recallResult.content);
    assert.ok(recalled.results.length >= 1, recallResult.content);
    assert.equal(recalled.results[0].content, 'Alice prefers graph databases');
  });

  it('links, recalls and forgets memories by id', async () => {
    const ids = (
      await cypherRows(t, "CREATE (a:Memory {content: 'first'}), (b:Memory {content: 'second'}) RETURN id(a), id(b)")
    )[0] as number[];
    script = (_body, index) => {
      if (index === 0) return { content: '', toolCalls: [{ name: 'link', arguments: { from: ids[0], to: ids[1], type: 'FOLLOWS' } }] };
      if (index === 1)
        return {
          content: '',
          toolCalls: [
            { name: 'recall', arguments: { id: ids[0] } },
            { name: 'forget', arguments: { id: ids[1] } },
          ],
        };
      return { content: 'done' };
    };
    const response = await chat(t, { messages: [{ role: 'user', content: 'link them, then forget the second' }] });
    assert.equal(response.status, 200, response.text);
    assert.deepEqual(
      response.body.graphdb.tool_calls.map((c: any) => [c.name, c.ok]),
      [
        ['link', true],
        ['recall', true],
        ['forget', true],
      ],
    );
    const [, getResult] = toolMessages(fake.requests[2].body);
    const got = JSON.parse(getResult.content);
    assert.equal(got.memories[0].content, 'first');
    assert.deepEqual(
      got.memories[0].links.map((r: any) => [r.type, r.direction, r.id]),
      [['FOLLOWS', 'out', ids[1]]],
    );
    assert.deepEqual(await cypherRows(t, `MATCH (m:Memory) WHERE id(m) = ${ids[1]} RETURN m`), []);
  });

  it('bounds the loop: after max_rounds tool rounds the model is asked once more without tools', async () => {
    script = (body) =>
      body.tools === undefined
        ? { content: 'final answer without tools' }
        : { content: '', toolCalls: [{ name: 'cypher', arguments: { query: 'RETURN 1 AS one' } }] };
    const response = await chat(t, { messages: [{ role: 'user', content: 'loop forever' }] });
    assert.equal(response.status, 200, response.text);
    assert.equal(fake.requests.length, MAX_ROUNDS + 1);
    assert.ok(fake.requests.slice(0, MAX_ROUNDS).every((r) => Array.isArray(r.body.tools)));
    assert.equal(fake.requests[MAX_ROUNDS].body.tools, undefined);
    assert.equal(response.body.graphdb.rounds, MAX_ROUNDS);
    assert.equal(response.body.graphdb.rounds_exhausted, true);
    assert.equal(response.body.choices[0].message.content, 'final answer without tools');
  });

  it('truncates an oversized tool result before it reaches the model', async () => {
    script = (_body, index) =>
      index === 0
        ? {
            content: '',
            toolCalls: [{ name: 'cypher', arguments: { query: "UNWIND range(1, 150) AS i RETURN i, 'padding-padding' AS pad" } }],
          }
        : { content: 'ok' };
    const response = await chat(t, { messages: [{ role: 'user', content: 'big query' }] });
    assert.equal(response.status, 200, response.text);
    const [result] = toolMessages(fake.requests[1].body);
    assert.ok(result.content.length < MAX_TOOL_CHARS + 60, `tool message is ${result.content.length} characters`);
    assert.match(result.content, /\[truncated \d+ characters\]$/);
    assert.ok(response.body.graphdb.tool_calls[0].truncated_chars > 1000);
  });

  it('refuses writing Cypher in the cypher tool', async () => {
    script = (_body, index) =>
      index === 0 ? { content: '', toolCalls: [{ name: 'cypher', arguments: { query: 'CREATE (:Sneaky {x: 1})' } }] } : { content: 'ok' };
    const response = await chat(t, { messages: [{ role: 'user', content: 'write please' }] });
    assert.equal(response.status, 200, response.text);
    assert.equal(response.body.graphdb.tool_calls[0].ok, false);
    assert.match(toolMessages(fake.requests[1].body)[0].content, /read-only/);
    assert.deepEqual(await cypherRows(t, 'MATCH (n:Sneaky) RETURN n'), []);
  });

  it("gives a viewer's store a tool error (Forbidden), not a crash, and writes nothing", async () => {
    script = (_body, index) =>
      index === 0
        ? { content: '', toolCalls: [{ name: 'store', arguments: { content: 'viewer was here' } }] }
        : { content: 'could not store' };
    const response = await chat(t, { messages: [{ role: 'user', content: 'store something' }] }, VIEWER);
    assert.equal(response.status, 200, response.text);
    assert.equal(response.body.graphdb.tool_calls[0].ok, false);
    const error = JSON.parse(toolMessages(fake.requests[1].body)[0].content).error as string;
    assert.match(error, /not allowed|forbidden|permission/i);
    assert.deepEqual(await cypherRows(t, "MATCH (m:Memory) WHERE m.content = 'viewer was here' RETURN m"), []);
  });

  it('lets a viewer discover (read access is enough)', async () => {
    script = (_body, index) =>
      index === 0 ? { content: '', toolCalls: [{ name: 'discover', arguments: { query: 'Alice' } }] } : { content: 'found' };
    const response = await chat(t, { messages: [{ role: 'user', content: 'what about Alice?' }] }, VIEWER);
    assert.equal(response.status, 200, response.text);
    assert.equal(response.body.graphdb.tool_calls[0].ok, true);
  });

  it('streams a tool-using turn as SSE chunks ending with [DONE]', async () => {
    script = (_body, index) =>
      index === 0
        ? { content: '', stream: true, toolCalls: [{ name: 'store', arguments: { content: 'streamed memory', tags: ['sse'] } }] }
        : { content: 'Stored it for you.', stream: true };
    const response = await chat(t, { stream: true, messages: [{ role: 'user', content: 'remember streamed memory' }] });
    assert.equal(response.status, 200);
    assert.match(response.headers.get('content-type') ?? '', /^text\/event-stream/);
    const events = sseData(response.text);
    assert.equal(events.at(-1), '[DONE]');
    const chunks = events.slice(0, -1).map((e) => JSON.parse(e));
    assert.ok(chunks.every((c) => c.object === 'chat.completion.chunk'));
    assert.equal(chunks[0].choices[0].delta.role, 'assistant');
    assert.equal(chunks.map((c) => c.choices[0].delta.content ?? '').join(''), 'Stored it for you.');
    assert.equal(chunks.at(-1).choices[0].finish_reason, 'stop');
    assert.deepEqual(
      chunks.at(-1).graphdb.tool_calls.map((c: any) => [c.name, c.ok]),
      [['store', true]],
    );
    assert.equal(fake.requests[0].body.stream, true);
    assert.deepEqual(await cypherRows(t, "MATCH (m:Memory {content: 'streamed memory'}) RETURN m.tags"), [[['sse']]]);
  });

  it("enforces the role's database allowlist: 403 elsewhere, tools write into the allowed database", async () => {
    const NOTES = basic('nt', 'nt-pw');
    script = () => ({ content: 'should not be asked' });
    const refused = await chat(t, { messages: [{ role: 'user', content: 'hi' }] }, NOTES);
    assert.equal(refused.status, 403, refused.text);
    assert.equal(refused.body.error.type, 'permission_error');
    assert.equal(refused.body.error.code, 'Neo.ClientError.Security.Forbidden');
    assert.equal(fake.requests.length, 0, 'the model is not called for a refused request');

    script = (_body, index) =>
      index === 0 ? { content: '', toolCalls: [{ name: 'store', arguments: { content: 'a note in notes' } }] } : { content: 'stored' };
    const allowed = await chat(t, { database: 'notes', messages: [{ role: 'user', content: 'store a note' }] }, NOTES);
    assert.equal(allowed.status, 200, allowed.text);
    assert.equal(allowed.body.graphdb.database, 'notes');
    assert.equal(allowed.body.graphdb.tool_calls[0].ok, true);
    const inNotes = await commit(t.url, ["MATCH (m:Memory {content: 'a note in notes'}) RETURN count(m)"], 'notes', ROOT);
    assert.deepEqual(inNotes.body.results[0].data[0].row, [1]);
    assert.deepEqual(await cypherRows(t, "MATCH (m:Memory {content: 'a note in notes'}) RETURN m"), []);
  });

  it('aborts the upstream call when a streaming client disconnects', async () => {
    script = () => ({ content: 'a long and slow answer '.repeat(20), stream: true, delayMs: 20 });
    const before = fake.abortedStreams();
    const controller = new AbortController();
    const response = await fetch(`${t.url}/assistant/v1/chat/completions`, {
      method: 'POST',
      headers: { ...ROOT, 'content-type': 'application/json' },
      body: JSON.stringify({ stream: true, messages: [{ role: 'user', content: 'talk slowly' }] }),
      signal: controller.signal,
    });
    const reader = response.body!.getReader();
    await reader.read();
    controller.abort();
    await eventually(() => (fake.abortedStreams() > before ? true : undefined), 'the upstream stream to close', 5_000).catch(
      () => undefined,
    );
    assert.equal(fake.abortedStreams(), before + 1, 'graphdb closed its upstream stream');
    script = () => ({ content: 'still here' });
    const next = await chat(t, { messages: [{ role: 'user', content: 'hello again' }] });
    assert.equal(next.body.choices[0].message.content, 'still here');
  });

  it('refuses a database the caller does not know about', async () => {
    const response = await chat(t, { database: 'nosuchdb', messages: [{ role: 'user', content: 'hi' }] });
    assert.equal(response.status, 404);
    assert.equal(response.body.error.code, 'Neo.ClientError.Database.DatabaseNotFound');
  });

  it('reports status and models', async () => {
    const status = await request(`${t.url}/assistant/status`, { headers: VIEWER });
    assert.equal(status.status, 200);
    assert.equal(status.body.enabled, true);
    assert.equal(status.body.provider, 'local_server');
    assert.equal(status.body.max_rounds, MAX_ROUNDS);
    assert.deepEqual(status.body.tools, ['store', 'recall', 'discover', 'link', 'tasks', 'forget', 'cypher']);
    const models = await request(`${t.url}/assistant/v1/models`, { headers: VIEWER });
    assert.equal(models.status, 200);
    assert.deepEqual(
      models.body.data.map((m: any) => m.id),
      ['fake-model'],
    );
    const anonymous = await request(`${t.url}/assistant/status`);
    assert.equal(anonymous.status, 401);
  });
});

describe('assistant tool allowlist', () => {
  let fake: FakeModelServer;
  let t: TestServer;

  before(async () => {
    fake = await startFakeModelServer((body, index) => script(body, index));
    t = await startTestServer(
      {
        'assistant.enabled': true,
        'assistant.provider': 'local_server',
        'assistant.api_url': `${fake.url}/v1`,
        'assistant.model': 'fake-model',
        'assistant.mcp_enable': true,
      },
      { GRAPHDB_ASSISTANT_MCP_TOOLS: 'recall,discover,nonsense' },
    );
  });

  after(async () => {
    await t.stop();
    await fake.close();
  });

  it('offers only the allowlisted tools and refuses a call to any other', async () => {
    script = (_body, index) =>
      index === 0 ? { content: '', toolCalls: [{ name: 'store', arguments: { content: 'not allowed' } }] } : { content: 'ok' };
    const response = await chat(t, { messages: [{ role: 'user', content: 'store it' }] }, {});
    assert.equal(response.status, 200, response.text);
    assert.deepEqual(
      fake.requests[0].body.tools.map((tool: any) => tool.function.name),
      ['recall', 'discover'],
    );
    assert.equal(response.body.graphdb.tool_calls[0].ok, false);
    assert.match(toolMessages(fake.requests[1].body)[0].content, /not available/);
    assert.deepEqual((await commit(t.url, ["MATCH (m:Memory {content: 'not allowed'}) RETURN m"])).body.results[0].data, []);
    const status = await request(`${t.url}/assistant/status`);
    assert.deepEqual(status.body.tools, ['recall', 'discover']);
    assert.deepEqual(status.body.unknown_tools, ['nonsense']);
  });
});
