/**
 * Failure paths of the assistant routes: a disabled assistant, bad JSON and bad bodies, an
 * unknown model, a provider that is down, upstream errors, a hosted API without a key. Each is
 * a 4xx/5xx `{error: {message, type, code}}` body, and the server keeps answering afterwards.
 */
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { request, startTestServer, type TestServer } from '../http/helpers.js';
import { startFakeModelServer, type FakeModelServer } from './fixtures/fake-model-server.js';

const HELLO = { messages: [{ role: 'user', content: 'hello' }] };

/** A port nothing listens on (bound once, then released). */
async function closedPort(): Promise<number> {
  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

function post(t: TestServer, json: unknown, init: RequestInit = {}) {
  return request(`${t.url}/assistant/v1/chat/completions`, { method: 'POST', json, ...init });
}

describe('assistant disabled (default)', () => {
  let t: TestServer;
  before(async () => {
    t = await startTestServer();
  });
  after(async () => t.stop());

  it('answers 404 with a clear error on chat and models, and status says disabled', async () => {
    const chat = await post(t, HELLO);
    assert.equal(chat.status, 404);
    assert.equal(chat.body.error.code, 'assistant_disabled');
    assert.match(chat.body.error.message, /GRAPHDB_ASSISTANT_ENABLED/);
    const models = await request(`${t.url}/assistant/v1/models`);
    assert.equal(models.status, 404);
    const status = await request(`${t.url}/assistant/status`);
    assert.equal(status.status, 200);
    assert.equal(status.body.enabled, false);
  });
});

describe('assistant errors with a remote provider', () => {
  let fake: FakeModelServer;
  let t: TestServer;
  let down: TestServer;
  let hosted: TestServer;

  before(async () => {
    fake = await startFakeModelServer((body) =>
      body.model === 'fake-model' ? { content: 'fine' } : { status: 404, error: `The model '${body.model}' does not exist` },
    );
    const assistant = { 'assistant.enabled': true, 'assistant.provider': 'local_server', 'assistant.model': 'fake-model' };
    t = await startTestServer({ ...assistant, 'assistant.api_url': fake.url });
    down = await startTestServer({ ...assistant, 'assistant.api_url': `http://127.0.0.1:${await closedPort()}` });
    hosted = await startTestServer({ ...assistant, 'assistant.provider': 'hosted_api', 'assistant.api_url': fake.url });
  });

  after(async () => {
    await Promise.all([t.stop(), down.stop(), hosted.stop()]);
    await fake.close();
  });

  it('answers bad JSON with 400 and the parser message', async () => {
    const response = await post(t, undefined, { headers: { 'content-type': 'application/json' }, body: '{"messages": [' });
    assert.equal(response.status, 400);
    assert.equal(response.body.error.type, 'invalid_request_error');
    assert.match(response.body.error.message, /deserialize|JSON/i);
  });

  it('names the bad field of an invalid body', async () => {
    const cases: [unknown, RegExp][] = [
      [{}, /messages/],
      [{ messages: [] }, /messages/],
      [{ messages: [{ role: 'wizard', content: 'x' }] }, /role/],
      [{ messages: [{ role: 'user', content: [{ type: 'image_url', image_url: {} }] }] }, /text/],
      [{ messages: [{ role: 'tool', content: 'x' }] }, /tool_call_id/],
      [{ ...HELLO, max_tokens: 0 }, /max_tokens/],
      [{ ...HELLO, temperature: 'hot' }, /temperature/],
      [{ ...HELLO, stream: 'yes' }, /stream/],
      [[1, 2], /JSON object/],
    ];
    for (const [body, pattern] of cases) {
      const response = await post(t, body);
      assert.equal(response.status, 400, JSON.stringify(body));
      assert.equal(response.body.error.type, 'invalid_request_error');
      assert.match(response.body.error.message, pattern);
    }
  });

  it('maps an unknown model (upstream 404) to 404 model_not_found', async () => {
    const response = await post(t, { ...HELLO, model: 'no-such-model' });
    assert.equal(response.status, 404);
    assert.equal(response.body.error.code, 'model_not_found');
    assert.match(response.body.error.message, /no-such-model/);
  });

  it('answers 503 when the provider is down, for chat (also streaming) and models', async () => {
    for (const body of [HELLO, { ...HELLO, stream: true }]) {
      const response = await post(down, body);
      assert.equal(response.status, 503, response.text);
      assert.equal(response.body.error.code, 'provider_unavailable');
      assert.match(response.body.error.message, /unreachable/);
    }
    const models = await request(`${down.url}/assistant/v1/models`);
    assert.equal(models.status, 503);
  });

  it('requires an API key for hosted_api', async () => {
    const response = await post(hosted, HELLO);
    assert.equal(response.status, 503);
    assert.match(response.body.error.message, /GRAPHDB_ASSISTANT_API_KEY/);
  });

  it('keeps serving after every failure', async () => {
    const response = await post(t, HELLO);
    assert.equal(response.status, 200, response.text);
    assert.equal(response.body.choices[0].message.content, 'fine');
    assert.equal((await request(`${down.url}/assistant/status`)).status, 200);
    assert.equal(
      (await request(`${down.url}/db/graphdb/tx/commit`, { method: 'POST', json: { statements: [{ statement: 'RETURN 1' }] } })).status,
      200,
    );
  });

  it('sends no tools when memory tools are not enabled', async () => {
    fake.reset();
    await post(t, HELLO);
    assert.equal(fake.requests[0].body.tools, undefined);
    assert.deepEqual(fake.requests[0].body.messages, [{ role: 'user', content: 'hello' }]);
  });
});
