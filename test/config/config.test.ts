import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import {
  ConfigError,
  DEFAULT_CONFIG,
  DatabaseConfigRegistry,
  SETTINGS,
  configCandidates,
  loadConfig,
  overridableKeys,
  parseDuration,
  redactConfig,
  REDACTED,
  unsupportedReason,
  type DiscoveryContext,
} from '../../src/engine/config/index.js';
import { leafPaths } from '../../src/engine/config/tree.js';

const root = fs.mkdtempSync(path.join(os.tmpdir(), 'graphdb-config-'));
after(() => fs.rmSync(root, { recursive: true, force: true }));

let counter = 0;
function freshDir(): string {
  const dir = path.join(root, `case-${counter++}`);
  fs.mkdirSync(dir, { recursive: true });
  return dir;
}

function write(file: string, text: string): string {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, text);
  return file;
}

/** A discovery context rooted in a temp dir: home, binary dir, cwd and /config all inside it. */
function sandbox(env: Record<string, string> = {}): { context: DiscoveryContext; dir: string } {
  const dir = freshDir();
  const context: DiscoveryContext = {
    env: { XDG_CONFIG_HOME: path.join(dir, 'xdg'), ...env },
    homeDir: path.join(dir, 'home'),
    binDir: path.join(dir, 'bin'),
    cwd: path.join(dir, 'cwd'),
    platform: 'linux',
    systemConfigDir: path.join(dir, 'config'),
    exists: fs.existsSync,
  };
  return { context, dir };
}

function expectConfigError(run: () => unknown, ...fragments: string[]): ConfigError {
  let caught: unknown;
  try {
    run();
  } catch (error) {
    caught = error;
  }
  assert.ok(caught instanceof ConfigError, `expected a ConfigError, got ${String(caught)}`);
  for (const fragment of fragments) assert.ok(caught.message.includes(fragment), `"${caught.message}" should mention ${fragment}`);
  return caught;
}

describe('settings table', () => {
  it('covers exactly the leaves of the typed defaults', () => {
    const accepted = SETTINGS.filter((s) => unsupportedReason(s) === null);
    assert.deepEqual(accepted.map((s) => s.path).sort(), leafPaths(DEFAULT_CONFIG).sort());
  });

  it('uses each environment variable once', () => {
    const names = SETTINGS.flatMap((s) => s.env);
    assert.equal(new Set(names).size, names.length);
  });

  it('has the SPEC defaults', () => {
    assert.equal(DEFAULT_CONFIG.server.http_port, 7474);
    assert.equal(DEFAULT_CONFIG.server.bolt_port, 7687);
    assert.equal(DEFAULT_CONFIG.server.https.port, 7473);
    assert.equal(DEFAULT_CONFIG.async_writes.flush_interval, 50);
    assert.equal(DEFAULT_CONFIG.async_writes.max_node_cache_size, 50000);
    assert.equal(DEFAULT_CONFIG.async_writes.max_edge_cache_size, 100000);
    assert.equal(DEFAULT_CONFIG.database.path, './data');
    assert.equal(DEFAULT_CONFIG.search.bm25_engine, 'v2');
  });
});

describe('durations', () => {
  it('parses Go-style durations into milliseconds', () => {
    assert.equal(parseDuration('50ms'), 50);
    assert.equal(parseDuration('30s'), 30_000);
    assert.equal(parseDuration('168h'), 168 * 3_600_000);
    assert.equal(parseDuration('1h30m'), 5_400_000);
    assert.equal(parseDuration('0s'), 0);
    assert.equal(parseDuration('250'), 250);
    assert.equal(parseDuration('5 parsecs'), null);
    assert.equal(parseDuration('10x'), null);
  });
});

describe('precedence', () => {
  it('flags > environment > file > defaults', () => {
    const { context, dir } = sandbox();
    const file = write(
      path.join(dir, 'explicit.yaml'),
      ['server:', '  http_port: 1111', '  bolt_port: 2222', '  bolt_address: 10.0.0.1', 'async_writes:', '  flush_interval: 2s'].join('\n'),
    );
    const env = { GRAPHDB_HTTP_PORT: '3333', GRAPHDB_BOLT_PORT: '4444' };
    const loaded = loadConfig({ configFile: file, env, discovery: context, flags: { 'server.http_port': 5555 } });
    assert.equal(loaded.config.server.http_port, 5555, 'flag wins');
    assert.equal(loaded.config.server.bolt_port, 4444, 'env beats file');
    assert.equal(loaded.config.server.bolt_address, '10.0.0.1', 'file beats default');
    assert.equal(loaded.config.async_writes.flush_interval, 2000);
    assert.equal(loaded.config.server.http_address, '127.0.0.1', 'default');
    assert.equal(loaded.origins.get('server.http_port'), 'flag');
    assert.equal(loaded.origins.get('server.bolt_port'), 'env');
    assert.equal(loaded.origins.get('server.bolt_address'), 'file');
    assert.equal(loaded.file, file);
  });

  it('reads the documented environment variables', () => {
    const { context } = sandbox();
    const loaded = loadConfig({
      discovery: context,
      env: {
        GRAPHDB_DATA_DIR: '/srv/graph',
        GRAPHDB_ADDRESS: '127.0.0.1',
        GRAPHDB_NO_AUTH: 'true',
        GRAPHDB_AUTH: 'admin:s3cret',
        GRAPHDB_LOG_LEVEL: 'debug',
        GRAPHDB_BASE_PATH: '/graph',
        GRAPHDB_HTTP_TRUSTED_PROXIES: '10.0.0.0/8, 192.168.1.1',
        GRAPHDB_ASYNC_WRITES_ENABLED: 'false',
        GRAPHDB_EMBEDDING_PROPERTIES_INCLUDE: 'title,body',
      },
    });
    const c = loaded.config;
    assert.equal(c.database.path, '/srv/graph');
    assert.equal(c.server.http_address, '127.0.0.1');
    assert.equal(c.auth.enabled, false);
    assert.equal(c.auth.initial_credentials, 'admin:s3cret');
    assert.equal(c.logging.level, 'debug');
    assert.equal(c.server.base_path, '/graph');
    assert.deepEqual(c.server.trusted_proxies, ['10.0.0.0/8', '192.168.1.1']);
    assert.equal(c.async_writes.enabled, false);
    assert.deepEqual(c.embedding_worker.properties_include, ['title', 'body']);
  });
});

describe('discovery order', () => {
  it('lists candidates in SPEC order', () => {
    const { context, dir } = sandbox({ GRAPHDB_CONFIG: 'custom.yaml' });
    assert.deepEqual(configCandidates(context), [
      path.join(dir, 'cwd', 'custom.yaml'),
      path.join(dir, 'home', '.graphdb', 'config.yaml'),
      path.join(dir, 'bin', 'config.yaml'),
      path.join(dir, 'bin', 'graphdb.yaml'),
      path.join(dir, 'cwd', 'config.yaml'),
      path.join(dir, 'cwd', 'graphdb.yaml'),
      path.join(dir, 'config', 'graphdb.yaml'),
      path.join(dir, 'config', 'config.yaml'),
      path.join(dir, 'xdg', 'graphdb', 'config.yaml'),
      path.join(dir, 'xdg', 'graphdb', 'graphdb.yaml'),
    ]);
  });

  it('picks the first existing file, removing them one by one', () => {
    const { context, dir } = sandbox();
    const files = [
      path.join(dir, 'explicit.yaml'),
      path.join(dir, 'home', '.graphdb', 'config.yaml'),
      path.join(dir, 'bin', 'config.yaml'),
      path.join(dir, 'bin', 'graphdb.yaml'),
      path.join(dir, 'cwd', 'config.yaml'),
      path.join(dir, 'cwd', 'graphdb.yaml'),
      path.join(dir, 'config', 'graphdb.yaml'),
      path.join(dir, 'config', 'config.yaml'),
      path.join(dir, 'xdg', 'graphdb', 'config.yaml'),
    ];
    files.forEach((file, index) => write(file, `server:\n  http_port: ${9000 + index}\n`));
    for (let index = 0; index < files.length; index++) {
      const env =
        index === 0
          ? { GRAPHDB_CONFIG: files[0], XDG_CONFIG_HOME: context.env.XDG_CONFIG_HOME! }
          : { XDG_CONFIG_HOME: context.env.XDG_CONFIG_HOME! };
      const loaded = loadConfig({ env, discovery: { ...context, env } });
      assert.equal(loaded.config.server.http_port, 9000 + index, `candidate ${index} (${files[index]})`);
      fs.rmSync(files[index]);
    }
    assert.equal(loadConfig({ env: {}, discovery: { ...context, env: {} } }).file, null);
  });

  it('rejects a GRAPHDB_CONFIG path that does not exist', () => {
    const { context } = sandbox({ GRAPHDB_CONFIG: 'nope.yaml' });
    expectConfigError(() => loadConfig({ env: context.env, discovery: context }), 'nope.yaml', 'GRAPHDB_CONFIG');
  });
});

describe('validation', () => {
  it('rejects an unknown key, naming it, the file and the closest key', () => {
    const { context, dir } = sandbox();
    const file = write(path.join(dir, 'bad.yaml'), 'server:\n  htp_port: 80\n');
    const error = expectConfigError(
      () => loadConfig({ configFile: file, env: {}, discovery: context }),
      '"server.htp_port"',
      file,
      'did you mean "server.http_port"',
    );
    assert.equal(error.key, 'server.htp_port');
    assert.equal(error.source, file);
  });

  it('rejects an unknown section', () => {
    const { context, dir } = sandbox();
    const file = write(path.join(dir, 'bad.yaml'), 'servre:\n  http_port: 80\n');
    expectConfigError(() => loadConfig({ configFile: file, env: {}, discovery: context }), '"servre"', file);
  });

  it('rejects bad values with the expected type', () => {
    const { context, dir } = sandbox();
    const cases: [string, string][] = [
      ['async_writes:\n  flush_interval: soon\n', '"async_writes.flush_interval"'],
      ['server:\n  http_port: 70000\n', '"server.http_port"'],
      ['logging:\n  level: loud\n', 'one of fatal, error'],
      ['database:\n  storage_serializer: msgpack\n', 'unsupported configuration key "database.storage_serializer"'],
      ['async_writes:\n  enabled: maybe\n', 'true or false'],
      ['search:\n  min_similarity: 1.5\n', 'between 0 and 1'],
      ['server:\n  trusted_proxies: [proxy.example.com]\n', '"server.trusted_proxies"'],
      ['server:\n  https:\n    enabled: true\n', '"server.https.cert_file" is not set'],
      ['server: 12\n', '"server"'],
    ];
    for (const [text, fragment] of cases) {
      const file = write(path.join(dir, `case-${counter++}.yaml`), text);
      expectConfigError(() => loadConfig({ configFile: file, env: {}, discovery: context }), fragment, file);
    }
  });

  it('rejects YAML syntax errors naming the file', () => {
    const { context, dir } = sandbox();
    const file = write(path.join(dir, 'broken.yaml'), 'server:\n  http_port: [1,\n');
    expectConfigError(() => loadConfig({ configFile: file, env: {}, discovery: context }), file);
  });

  it('rejects a bad environment value naming the variable', () => {
    const { context } = sandbox();
    expectConfigError(() => loadConfig({ env: { GRAPHDB_HTTP_PORT: 'eighty' }, discovery: context }), 'GRAPHDB_HTTP_PORT', 'environment');
    expectConfigError(
      () => loadConfig({ env: { GRAPHDB_JWT_SECRET: 'short' }, discovery: context }),
      'auth.jwt_secret',
      'GRAPHDB_JWT_SECRET',
    );
  });

  it('lists unknown GRAPHDB_* variables for a warning instead of failing', () => {
    const { context } = sandbox();
    const loaded = loadConfig({
      env: { GRAPHDB_HTTP_PROT: '1', GRAPHDB_CONFIG: '', GRAPHDB_HTTP_PORT: '2', OTHER: 'x' },
      discovery: context,
    });
    assert.deepEqual(loaded.unknownEnv, ['GRAPHDB_HTTP_PROT']);
  });

  it('rejects an unknown flag path', () => {
    const { context } = sandbox();
    expectConfigError(() => loadConfig({ env: {}, discovery: context, flags: { 'server.htp_port': 1 } }), 'server.htp_port', 'flags');
  });
});

describe('per-database configuration', () => {
  it('overlays the file section and saved overrides over the global config', () => {
    const { context, dir } = sandbox();
    const file = write(
      path.join(dir, 'dbs.yaml'),
      [
        'embeddings:',
        '  model: global-model',
        'databases:',
        '  movies:',
        '    embeddings:',
        '      model: movie-model',
        '      dimensions: 384',
      ].join('\n'),
    );
    const loaded = loadConfig({ configFile: file, env: {}, discovery: context });
    const persist = path.join(dir, 'data', 'overrides.json');
    const registry = new DatabaseConfigRegistry(loaded, persist);
    assert.equal(registry.effectiveConfig('other').embeddings.model, 'global-model');
    assert.equal(registry.effectiveConfig('movies').embeddings.model, 'movie-model');
    assert.equal(registry.effectiveConfig('movies').embeddings.dimensions, 384);

    registry.setOverrides('movies', { GRAPHDB_EMBEDDING_MODEL: 'saved-model', 'async_writes.flush_interval': '5ms' });
    assert.equal(registry.effectiveConfig('movies').embeddings.model, 'saved-model');
    assert.equal(registry.effectiveConfig('movies').async_writes.flush_interval, 5);
    assert.equal(registry.global.embeddings.model, 'global-model', 'global untouched');

    const reopened = new DatabaseConfigRegistry(loaded, persist);
    assert.equal(reopened.effectiveConfig('movies').embeddings.model, 'saved-model', 'overrides persisted');
    assert.ok(overridableKeys().some((k) => k.key === 'GRAPHDB_EMBEDDING_MODEL' && k.category === 'embeddings'));
  });

  it('rejects non-overridable keys and bad values', () => {
    const { context } = sandbox();
    const registry = new DatabaseConfigRegistry(loadConfig({ env: {}, discovery: context }), null);
    expectConfigError(() => registry.setOverrides('db', { GRAPHDB_HTTP_PORT: '1' }), 'GRAPHDB_HTTP_PORT');
    expectConfigError(() => registry.setOverrides('db', { GRAPHDB_ASYNC_FLUSH_INTERVAL: 'later' }), 'GRAPHDB_ASYNC_FLUSH_INTERVAL');
  });

  it('rejects non-overridable keys in the file databases section', () => {
    const { context, dir } = sandbox();
    const file = write(path.join(dir, 'dbs.yaml'), 'databases:\n  movies:\n    server:\n      http_port: 1\n');
    expectConfigError(() => loadConfig({ configFile: file, env: {}, discovery: context }), 'server.http_port', 'not overridable');
  });
});

describe('redaction', () => {
  it('hides secrets that are set and leaves the rest', () => {
    const { context } = sandbox();
    const { config } = loadConfig({ env: { GRAPHDB_AUTH: 'admin:pw', GRAPHDB_EMBEDDING_API_KEY: 'k' }, discovery: context });
    const redacted = redactConfig(config);
    assert.equal(redacted.auth.initial_credentials, REDACTED);
    assert.equal(redacted.embeddings.api_key, REDACTED);
    assert.equal(redacted.auth.jwt_secret, '', 'unset secret stays empty');
    assert.equal(redacted.server.http_port, 7474);
    assert.equal(config.auth.initial_credentials, 'admin:pw', 'original untouched');
  });
});
