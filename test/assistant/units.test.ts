/** Unit tests of the assistant's pieces: SSE reading, truncation, the allowlist, the loop with a fake provider, the remote client. */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  allowedTools,
  OpenAiCompatibleProvider,
  readSseData,
  runAgent,
  truncateToolResult,
  type ChatProvider,
  type CompletionRequest,
  type CompletionResult,
  type MemoryTools,
} from '../../src/engine/assistant/index.js';
import { startFakeModelServer, type FakeModelServer } from './fixtures/fake-model-server.js';

async function* bytes(...parts: string[]): AsyncGenerator<Uint8Array> {
  for (const part of parts) yield new TextEncoder().encode(part);
}

async function collect(source: AsyncIterable<string>): Promise<string[]> {
  const out: string[] = [];
  for await (const item of source) out.push(item);
  return out;
}

describe('readSseData', () => {
  it('joins data lines, ignores comments and other fields, handles CRLF and split chunks', async () => {
    const events = await collect(
      readSseData(
        bytes(': keep-alive\r\n', 'event: x\r\ndata: {"a":', '1}\r\n\r\ndata: line1\ndata: line2\n\n', 'data:[DONE]\r', '\n\r\n'),
      ),
    );
    assert.deepEqual(events, ['{"a":1}', 'line1\nline2', '[DONE]']);
  });

  it('keeps a multi-byte character split across chunks', async () => {
    const encoded = new TextEncoder().encode('data: é\n\n');
    async function* halves() {
      yield encoded.slice(0, 7);
      yield encoded.slice(7);
    }
    assert.deepEqual(await collect(readSseData(halves())), ['é']);
  });

  it('yields a last event without its blank line', async () => {
    assert.deepEqual(await collect(readSseData(bytes('data: tail'))), ['tail']);
    assert.deepEqual(await collect(readSseData(bytes('data: cr\r'))), ['cr']);
  });
});

describe('truncateToolResult', () => {
  it('keeps short text and cuts long text, saying how much was cut', () => {
    assert.deepEqual(truncateToolResult('abc', 5), { text: 'abc', cut: 0 });
    const { text, cut } = truncateToolResult('x'.repeat(250), 100);
    assert.equal(cut, 150);
    assert.equal(text, `${'x'.repeat(100)}… [truncated 150 characters]`);
  });
});

describe('allowedTools', () => {
  it('offers all tools for an empty allowlist and filters otherwise (case-insensitive)', () => {
    assert.equal(allowedTools([]).length, 7);
    assert.deepEqual(
      allowedTools([' Recall', 'cypher', 'bogus']).map((t) => t.name),
      ['recall', 'cypher'],
    );
  });
});

/** A provider that always asks for one tool while tools are offered. */
class EagerToolProvider implements ChatProvider {
  readonly kind = 'local_server' as const;
  readonly model = 'm';
  readonly ready = true;
  readonly calls: CompletionRequest[] = [];
  async listModels() {
    return [];
  }
  resolveModel() {
    return 'm';
  }
  async complete(request: CompletionRequest): Promise<CompletionResult> {
    this.calls.push(request);
    if (request.tools.length === 0)
      return { content: 'final', toolCalls: [], finishReason: 'stop', usage: { promptTokens: 1, completionTokens: 1 } };
    return {
      content: '',
      toolCalls: [{ id: `c${this.calls.length}`, name: 'recall', arguments: '{}' }],
      finishReason: 'tool_calls',
      usage: { promptTokens: 2, completionTokens: 3 },
    };
  }
  async close() {}
}

describe('runAgent', () => {
  it('stops after maxRounds, truncates each result, sums usage', async () => {
    const provider = new EagerToolProvider();
    const tools = {
      definitions: allowedTools(['recall']),
      run: async () => ({ ok: true, output: 'y'.repeat(50) }),
    } as unknown as MemoryTools;
    const result = await runAgent(
      { model: 'm', messages: [{ role: 'user', content: 'go' }], maxTokens: 10 },
      { provider, tools, maxRounds: 2, maxToolResultChars: 20 },
    );
    assert.equal(provider.calls.length, 3);
    assert.deepEqual(
      provider.calls.map((c) => c.tools.length),
      [1, 1, 0],
    );
    assert.equal(result.rounds, 2);
    assert.equal(result.roundsExhausted, true);
    assert.equal(result.content, 'final');
    assert.deepEqual(result.usage, { promptTokens: 5, completionTokens: 7 });
    assert.deepEqual(
      result.toolCalls.map((c) => [c.round, c.truncatedChars]),
      [
        [1, 30],
        [2, 30],
      ],
    );
    const last = provider.calls[2].messages;
    assert.equal(last[0].role, 'system');
    assert.deepEqual(
      last.filter((m) => m.role === 'tool').map((m) => m.content),
      [`${'y'.repeat(20)}… [truncated 30 characters]`, `${'y'.repeat(20)}… [truncated 30 characters]`],
    );
  });

  it('offers nothing without tools', async () => {
    const provider = new EagerToolProvider();
    const result = await runAgent(
      { model: 'm', messages: [{ role: 'user', content: 'go' }], maxTokens: 10 },
      { provider, tools: null, maxRounds: 5, maxToolResultChars: 20 },
    );
    assert.equal(provider.calls.length, 1);
    assert.equal(provider.calls[0].messages.length, 1);
    assert.equal(result.rounds, 0);
    assert.equal(result.roundsExhausted, false);
  });
});

describe('OpenAiCompatibleProvider', () => {
  let fake: FakeModelServer;
  before(async () => {
    fake = await startFakeModelServer(() => ({
      content: 'streamed text',
      stream: true,
      toolCalls: [{ name: 'recall', arguments: { query: 'q' } }],
    }));
  });
  after(async () => fake.close());

  it('does not double /v1 and sends the bearer key', async () => {
    const provider = new OpenAiCompatibleProvider({
      kind: 'hosted_api',
      apiUrl: `${fake.url}/v1/`,
      apiKey: 'sekret',
      model: 'fake-model',
      timeoutMs: 5000,
    });
    assert.equal(provider.endpoint('models'), `${fake.url}/v1/models`);
    fake.reset();
    const result = await provider.complete({ model: 'fake-model', messages: [{ role: 'user', content: 'hi' }], tools: [], maxTokens: 5 });
    assert.equal(fake.requests[0].headers.authorization, 'Bearer sekret');
    assert.equal(fake.requests[0].body.stream, false);
    assert.equal(result.content, 'streamed text');
    assert.deepEqual(result.usage, { promptTokens: 11, completionTokens: 7 });
  });

  it('assembles streamed text and tool-call fragments', async () => {
    const provider = new OpenAiCompatibleProvider({
      kind: 'local_server',
      apiUrl: fake.url,
      apiKey: '',
      model: 'fake-model',
      timeoutMs: 5000,
    });
    const deltas: string[] = [];
    const result = await provider.complete({
      model: 'fake-model',
      messages: [{ role: 'user', content: 'hi' }],
      tools: allowedTools(['recall']),
      maxTokens: 5,
      onText: (d) => deltas.push(d),
    });
    assert.ok(deltas.length > 1);
    assert.equal(deltas.join(''), 'streamed text');
    assert.equal(result.finishReason, 'tool_calls');
    assert.equal(result.toolCalls.length, 1);
    assert.equal(result.toolCalls[0].name, 'recall');
    assert.deepEqual(JSON.parse(result.toolCalls[0].arguments), { query: 'q' });
  });
});
