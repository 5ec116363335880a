/**
 * The local provider's function calling through node-llama-cpp, with a model whose output is
 * forced: a tiny GGUF whose weights make it a fixed bigram table (fixtures/tiny-llama.ts
 * `steering`) that always starts its answer with the default chat wrapper's call prefix
 * `||call:`; node-llama-cpp then constrains the function name and the JSON parameters with its
 * grammar (which makes every schema property present), and the bigram table picks `discover`
 * and fills its parameters: strings `"otter"`, numbers `-0`, lists empty or `["otter"]`. What this proves: the provider passes the tools as node-llama-cpp chat functions,
 * node-llama-cpp detects and grammar-parses the call, the provider maps it to a ToolCall, and the
 * agentic loop runs the memory tool with it and feeds the result back. What it does not prove:
 * that any real instruction-tuned model chooses to call tools (none can be downloaded here).
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { LocalChatProvider, runAgent } from '../../src/engine/assistant/index.js';
import { allowedTools, GraphDB, MemoryTools } from '../../src/engine/index.js';
import { writeTinyLlama } from './fixtures/tiny-llama.js';

const STEERING = {
  extraPieces: ['||call:', 'otter'],
  preferences: { '||call:': 10, '}': 8, ']': 7, d: 6, '"': 5 },
  successors: { '"': 'otter', otter: '"' },
};

describe('local provider function calling with a forced-output model', () => {
  let modelsDir: string;
  let provider: LocalChatProvider;

  before(() => {
    modelsDir = fs.mkdtempSync(path.join(os.tmpdir(), 'graphdb-tool-model-'));
    writeTinyLlama(path.join(modelsDir, 'tool-caller.gguf'), { contextLength: 4096, steering: STEERING });
    provider = new LocalChatProvider({ model: 'tool-caller', modelsDir, contextSize: 4096, threads: 1, timeoutMs: 120_000 });
  });

  after(async () => {
    await provider.close();
    fs.rmSync(modelsDir, { recursive: true, force: true });
  });

  it('parses the grammar-constrained function call into a ToolCall', async () => {
    const result = await provider.complete({
      model: 'tool-caller',
      messages: [{ role: 'user', content: 'what do you know about otters?' }],
      tools: allowedTools(['recall', 'discover']),
      maxTokens: 200,
      temperature: 0,
    });
    assert.equal(result.finishReason, 'tool_calls', JSON.stringify(result));
    assert.deepEqual(
      result.toolCalls.map((call) => call.name),
      ['discover'],
    );
    const args = JSON.parse(result.toolCalls[0].arguments);
    assert.deepEqual(Object.keys(args), ['query', 'depth', 'limit', 'type', 'labels', 'decay_weight']);
    assert.deepEqual([args.query, args.depth, args.limit, args.type, args.decay_weight], ['otter', 0, 0, 'otter', 0]);
    assert.ok(Array.isArray(args.labels) && args.labels.every((label: unknown) => label === 'otter'), JSON.stringify(args));
    assert.match(result.toolCalls[0].id, /^call_\d+$/);
  });

  it('without tools offered the same model only writes text', async () => {
    const result = await provider.complete({
      model: 'tool-caller',
      messages: [{ role: 'user', content: 'hi' }],
      tools: [],
      maxTokens: 4,
      temperature: 0,
    });
    assert.deepEqual(result.toolCalls, []);
    assert.ok(result.content.startsWith('||call:'), result.content);
  });

  it('runs the called memory tool in the agentic loop and feeds its result back', async () => {
    const db = await GraphDB.open();
    try {
      const host = db.memoryToolHost({ database: 'graphdb' });
      const tools = new MemoryTools(host, allowedTools(['store', 'recall', 'discover']));
      const stored = await tools.run({
        id: 's',
        name: 'store',
        arguments: JSON.stringify({ content: 'the otter colony lives by the river', type: 'otter', labels: ['otter'] }),
      });
      assert.ok(stored.ok, stored.output);
      const outcomes: string[] = [];
      const spy = Object.assign(Object.create(tools) as MemoryTools, {
        run: async (call: Parameters<MemoryTools['run']>[0]) => {
          const outcome = await tools.run(call);
          outcomes.push(outcome.output);
          return outcome;
        },
      });
      const seen: number[] = [];
      const counting = Object.assign(Object.create(provider) as LocalChatProvider, {
        complete: (request: Parameters<LocalChatProvider['complete']>[0]) => {
          seen.push(request.messages.filter((message) => message.role === 'tool').length);
          return provider.complete(request);
        },
      });
      const result = await runAgent(
        { model: 'tool-caller', messages: [{ role: 'user', content: 'otters?' }], maxTokens: 200, temperature: 0 },
        { provider: counting, tools: spy, maxRounds: 1, maxToolResultChars: 4000 },
      );
      assert.deepEqual(
        result.toolCalls.map((call) => [call.name, JSON.parse(call.arguments).query, call.ok]),
        [['discover', 'otter', true]],
      );
      assert.equal(result.rounds, 1);
      assert.equal(JSON.parse(outcomes[0]).results[0].content, 'the otter colony lives by the river');
      assert.deepEqual(seen, [0, 1], 'the second model call carries the tool result');
    } finally {
      await db.close();
    }
  });
});
