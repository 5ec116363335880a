/**
 * Memories and the search pipeline: with embeddings enabled (a bag-of-words embedding server
 * standing in for a `local_server` embedder), a memory stored by the assistant is embedded by the
 * engine's worker like any node, and `discover` finds it through the vector side of hybrid search.
 */
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, it } from 'node:test';
import { eventually } from '../helpers/eventually.js';
import { request, startTestServer, type TestServer } from '../http/helpers.js';
import { startFakeModelServer, type FakeModelServer, type FakeReply } from './fixtures/fake-model-server.js';

const WORDS = ['otters', 'hold', 'hands', 'while', 'sleeping', 'rivers', 'mountains'];

/** One dimension per known word, plus a small constant one so no vector is zero. */
function embed(text: string): number[] {
  const vector = [...WORDS.map(() => 0), 0.01];
  for (const word of text.toLowerCase().match(/[a-z]+/g) ?? []) {
    const index = WORDS.indexOf(word);
    if (index >= 0) vector[index] += 1;
  }
  return vector;
}

let embedder: Server;
let fake: FakeModelServer;
let t: TestServer;
let script: (body: any, index: number) => FakeReply = () => ({ content: 'unset' });

before(async () => {
  embedder = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      const { input } = JSON.parse(body) as { input: string[] };
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ model: 'bow', embeddings: input.map(embed) }));
    });
  });
  await new Promise<void>((resolve) => embedder.listen(0, '127.0.0.1', resolve));
  fake = await startFakeModelServer((body, index) => script(body, index));
  t = await startTestServer({
    'async_writes.enabled': false,
    'embeddings.enabled': true,
    'embeddings.provider': 'local_server',
    'embeddings.model': 'bow',
    'embeddings.url': `http://127.0.0.1:${(embedder.address() as AddressInfo).port}`,
    'embeddings.dimensions': WORDS.length + 1,
    'assistant.enabled': true,
    'assistant.provider': 'local_server',
    'assistant.api_url': fake.url,
    'assistant.model': 'fake-model',
    'assistant.mcp_enable': true,
  });
});

after(async () => {
  await t?.stop();
  await fake?.close();
  await new Promise((resolve) => embedder?.close(resolve));
});

const chat = (content: string) =>
  request(`${t.url}/assistant/v1/chat/completions`, { method: 'POST', json: { messages: [{ role: 'user', content }] } });

it('embeds a stored memory through the search pipeline and recalls it by vector similarity', async () => {
  script = (_body, index) =>
    index === 0
      ? { content: '', toolCalls: [{ name: 'store', arguments: { content: 'otters hold hands while sleeping' } }] }
      : { content: 'noted' };
  const stored = await chat('remember this otter fact');
  assert.equal(stored.status, 200, stored.text);
  assert.equal(stored.body.graphdb.tool_calls[0].ok, true);

  await eventually(async () => {
    const status = await request(`${t.url}/status`);
    const vector = await request(`${t.url}/graphdb/search`, {
      method: 'POST',
      json: { query: 'sleeping otters', method: 'vector', limit: 1, minSimilarity: 0 },
    });
    const found = vector.body.results?.[0]?.node.properties.content === 'otters hold hands while sleeping';
    return status.body.embeddings.pending === 0 && found ? true : undefined;
  }, 'the memory to be embedded');

  fake.reset();
  script = (_body, index) =>
    index === 0
      ? { content: '', toolCalls: [{ name: 'discover', arguments: { query: 'sleeping otters', limit: 3 } }] }
      : { content: 'they hold hands' };
  const recalled = await chat('what do otters do?');
  assert.equal(recalled.status, 200, recalled.text);
  const toolMessage = fake.requests[1].body.messages.find((m: any) => m.role === 'tool');
  const result = JSON.parse(toolMessage.content);
  assert.match(result.method, /^hybrid/);
  assert.equal(result.results[0].content, 'otters hold hands while sleeping');
  assert.ok(result.results[0].similarity > 0.5, `similarity ${result.results[0].similarity}`);
});
