/**
 * The `local` provider for real: a tiny random-weight llama GGUF written into a temp models
 * directory, loaded by node-llama-cpp (CPU, one thread) behind the HTTP routes. The text is
 * gibberish; the tests check the shapes: a completion with text, SSE chunks ending with [DONE],
 * the model list, an unknown model, and that memory tools offered to a chat wrapper do not break
 * generation.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { LocalChatProvider, toChatHistory } from '../../src/engine/assistant/index.js';
import { request, startTestServer, type TestServer } from '../http/helpers.js';
import { writeTinyLlama } from './fixtures/tiny-llama.js';
import { sseData } from './fixtures/sse.js';

describe('assistant local provider (tiny llama GGUF)', () => {
  let modelsDir: string;
  let t: TestServer;

  before(async () => {
    modelsDir = fs.mkdtempSync(path.join(os.tmpdir(), 'graphdb-assistant-models-'));
    writeTinyLlama(path.join(modelsDir, 'tiny-chat.gguf'));
    t = await startTestServer({
      'assistant.enabled': true,
      'assistant.provider': 'local',
      'assistant.model': 'tiny-chat.gguf',
      'assistant.max_tokens': 8,
      'assistant.context_size': 1024,
      'assistant.threads': 1,
      'resources.models_dir': modelsDir,
    });
  });

  after(async () => {
    await t.stop();
    fs.rmSync(modelsDir, { recursive: true, force: true });
  });

  it('answers a chat completion with generated text', async () => {
    const response = await request(`${t.url}/assistant/v1/chat/completions`, {
      method: 'POST',
      json: {
        messages: [
          { role: 'system', content: 'be brief' },
          { role: 'user', content: 'hello graph' },
        ],
        temperature: 0,
        max_tokens: 6,
      },
    });
    assert.equal(response.status, 200, response.text);
    assert.equal(response.body.object, 'chat.completion');
    assert.equal(response.body.model, 'tiny-chat.gguf');
    const message = response.body.choices[0].message;
    assert.equal(message.role, 'assistant');
    assert.equal(typeof message.content, 'string');
    assert.ok(message.content.length > 0, 'random weights still produce text');
    assert.ok(['stop', 'length'].includes(response.body.choices[0].finish_reason));
    assert.ok(response.body.usage.completion_tokens > 0 && response.body.usage.completion_tokens <= 6);
    assert.ok(response.body.usage.prompt_tokens > 0);
  });

  it('streams chunks over SSE and ends with [DONE]', async () => {
    const response = await request(`${t.url}/assistant/v1/chat/completions`, {
      method: 'POST',
      json: { model: 'tiny-chat', stream: true, messages: [{ role: 'user', content: 'hello' }], temperature: 0, max_tokens: 6 },
    });
    assert.equal(response.status, 200);
    assert.match(response.headers.get('content-type') ?? '', /^text\/event-stream/);
    const events = sseData(response.text);
    assert.equal(events.at(-1), '[DONE]');
    const chunks = events.slice(0, -1).map((event) => JSON.parse(event));
    assert.ok(chunks.length >= 3, `role chunk, text chunks and a final chunk, got ${chunks.length}`);
    assert.ok(chunks.every((chunk) => chunk.object === 'chat.completion.chunk' && chunk.id === chunks[0].id));
    assert.equal(chunks[0].choices[0].delta.role, 'assistant');
    const text = chunks.map((chunk) => chunk.choices[0].delta.content ?? '').join('');
    assert.ok(text.length > 0);
    assert.ok(['stop', 'length'].includes(chunks.at(-1).choices[0].finish_reason));
    assert.ok(chunks.slice(0, -1).every((chunk) => chunk.choices[0].finish_reason === null));
  });

  it('lists the configured model and refuses another one', async () => {
    const models = await request(`${t.url}/assistant/v1/models`);
    assert.deepEqual(
      models.body.data.map((m: { id: string }) => m.id),
      ['tiny-chat.gguf'],
    );
    const unknown = await request(`${t.url}/assistant/v1/chat/completions`, {
      method: 'POST',
      json: { model: 'gpt-imaginary', messages: [{ role: 'user', content: 'hi' }] },
    });
    assert.equal(unknown.status, 404);
    assert.equal(unknown.body.error.code, 'model_not_found');
    assert.match(unknown.body.error.message, /gpt-imaginary/);
    const status = await request(`${t.url}/assistant/status`);
    assert.equal(status.body.ready, true);
    assert.equal(status.body.provider, 'local');
  });

  it('generates with memory tools offered as chat functions', async () => {
    const provider = new LocalChatProvider({ model: 'tiny-chat', modelsDir, contextSize: 1024, threads: 1, timeoutMs: 60_000 });
    try {
      const result = await provider.complete({
        model: 'tiny-chat',
        messages: [{ role: 'user', content: 'remember the graph' }],
        tools: [
          {
            name: 'store',
            description: 'store a memory',
            parameters: { type: 'object', properties: { content: { type: 'string' } }, required: ['content'] },
          },
        ],
        maxTokens: 6,
        temperature: 0,
      });
      assert.equal(typeof result.content, 'string');
      assert.ok(result.usage.completionTokens <= 6 || result.toolCalls.length > 0);
      const continued = await provider.complete({
        model: 'tiny-chat',
        messages: [
          { role: 'user', content: 'remember the graph' },
          { role: 'assistant', content: null, toolCalls: [{ id: 'call_a', name: 'store', arguments: '{"content":"the graph"}' }] },
          { role: 'tool', toolCallId: 'call_a', name: 'store', content: '{"stored":true,"id":0}' },
        ],
        tools: [
          {
            name: 'store',
            description: 'store a memory',
            parameters: { type: 'object', properties: { content: { type: 'string' } }, required: ['content'] },
          },
        ],
        maxTokens: 4,
        temperature: 0,
      });
      assert.ok(continued.usage.completionTokens >= 1 && continued.usage.completionTokens <= 4, 'generation continues after a tool result');
    } finally {
      await provider.close();
    }
  });

  it('answers 400 context_length_exceeded when the conversation cannot fit the context', async () => {
    const provider = new LocalChatProvider({ model: 'tiny-chat', modelsDir, contextSize: 256, threads: 1, timeoutMs: 60_000 });
    try {
      await assert.rejects(
        provider.complete({
          model: 'tiny-chat',
          messages: [
            { role: 'system', content: 'rules '.repeat(200) },
            { role: 'user', content: 'hi' },
          ],
          tools: [],
          maxTokens: 4,
        }),
        (error: { status?: number; code?: string; message: string }) =>
          error.status === 400 && error.code === 'context_length_exceeded' && /256 tokens/.test(error.message),
      );
    } finally {
      await provider.close();
    }
  });

  it('reports a missing model file as 503 with the file name', async () => {
    const provider = new LocalChatProvider({ model: 'absent-model', modelsDir, contextSize: 512, threads: 1, timeoutMs: 0 });
    await assert.rejects(
      provider.complete({ model: 'absent-model', messages: [{ role: 'user', content: 'hi' }], tools: [], maxTokens: 4 }),
      (error: { status?: number; message: string }) => error.status === 503 && /absent-model/.test(error.message),
    );
  });
});

describe('chat history for node-llama-cpp', () => {
  it('folds tool results into the model turn that called them', () => {
    const history = toChatHistory([
      { role: 'system', content: 'sys' },
      { role: 'user', content: 'remember x' },
      { role: 'assistant', content: null, toolCalls: [{ id: 'c1', name: 'store', arguments: '{"content":"x"}' }] },
      { role: 'tool', toolCallId: 'c1', content: '{"stored":true}' },
      { role: 'tool', toolCallId: 'unknown', name: 'recall', content: '[]' },
    ]);
    assert.deepEqual(history, [
      { type: 'system', text: 'sys' },
      { type: 'user', text: 'remember x' },
      { type: 'model', response: [{ type: 'functionCall', name: 'store', params: { content: 'x' }, result: '{"stored":true}' }] },
      { type: 'user', text: 'Result of tool recall: []' },
    ]);
  });
});
