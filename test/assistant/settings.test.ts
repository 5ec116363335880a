/** The `assistant` configuration: YAML section, GRAPHDB_ASSISTANT_* environment, validation, redaction, and what the service derives. */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { AssistantService } from '../../src/engine/assistant/index.js';
import { ConfigError, DEFAULT_CONFIG, loadConfig } from '../../src/engine/config/index.js';
import { redactConfig } from '../../src/engine/config/redact.js';

describe('assistant settings', () => {
  let dir: string;
  let file: string;
  const discovery = () => ({
    env: {},
    homeDir: dir,
    binDir: null,
    cwd: dir,
    platform: 'linux' as const,
    systemConfigDir: path.join(dir, 'none'),
    exists: () => false,
  });

  before(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'graphdb-assistant-config-'));
    file = path.join(dir, 'graphdb.yaml');
    fs.writeFileSync(
      file,
      [
        'assistant:',
        '  enabled: true',
        '  provider: hosted_api',
        '  api_url: https://user:pw@models.example.com/v1',
        '  api_key: sk-secret',
        '  model: some-model',
        '  mcp_enable: true',
        '  mcp_tools: [recall, query]',
        '  max_rounds: 4',
        '  timeout: 30s',
        '',
      ].join('\n'),
    );
  });

  after(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('has off-by-default defaults with a bounded loop', () => {
    const defaults = DEFAULT_CONFIG.assistant;
    assert.equal(defaults.enabled, false);
    assert.equal(defaults.provider, 'local');
    assert.equal(defaults.mcp_enable, false);
    assert.equal(defaults.max_rounds, 8);
    assert.equal(defaults.max_tool_result_chars, 4000);
  });

  it('reads the YAML section; the environment overrides it', () => {
    const env = {
      GRAPHDB_ASSISTANT_MAX_ROUNDS: '2',
      GRAPHDB_ASSISTANT_MCP_TOOLS: 'store, recall',
      GRAPHDB_ASSISTANT_MAX_TOOL_RESULT_CHARS: '500',
    };
    const { config } = loadConfig({ configFile: file, env, discovery: discovery() });
    assert.equal(config.assistant.enabled, true);
    assert.equal(config.assistant.provider, 'hosted_api');
    assert.equal(config.assistant.model, 'some-model');
    assert.equal(config.assistant.timeout, 30_000);
    assert.equal(config.assistant.max_rounds, 2);
    assert.equal(config.assistant.max_tool_result_chars, 500);
    assert.deepEqual(config.assistant.mcp_tools, ['store', 'recall']);
    const redacted = redactConfig(config) as { assistant: { api_key: string } };
    assert.notEqual(redacted.assistant.api_key, 'sk-secret');

    const service = new AssistantService({ settings: config.assistant, modelsDir: dir });
    const status = service.status();
    assert.deepEqual(status.tools, ['store', 'recall']);
    assert.equal(status.max_rounds, 2);
    assert.equal(status.api_url, 'https://models.example.com/v1', 'credentials in the URL are not shown');
    assert.ok(!JSON.stringify(status).includes('sk-secret'));
  });

  it('refuses out-of-range values and unknown providers', () => {
    assert.throws(() => loadConfig({ env: { GRAPHDB_ASSISTANT_MAX_ROUNDS: '0' }, discovery: discovery() }), ConfigError);
    assert.throws(() => loadConfig({ env: { GRAPHDB_ASSISTANT_PROVIDER: 'openai' }, discovery: discovery() }), ConfigError);
  });

  it('offers no tools unless mcp_enable is set', () => {
    const service = new AssistantService({
      settings: { ...DEFAULT_CONFIG.assistant, enabled: true, mcp_tools: ['store'] },
      modelsDir: dir,
    });
    assert.deepEqual(service.toolDefinitions(), []);
  });
});
