/**
 * Every setting either acts or is rejected: each accepted declaration names a test file that
 * exists and mentions the setting (its variable, dotted path or key), each rejected one stops
 * startup from every source (environment, config file, flag, per-database override) naming it as
 * unsupported, and docs/configuration.md carries the generated reference of all of them.
 * `UPDATE_DOCS=1 node test/run.mjs test/config/declarations` rewrites the reference.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import {
  ConfigError,
  DEFAULT_CONFIG,
  SETTINGS,
  SETTINGS_DOC_BEGIN,
  SETTINGS_DOC_END,
  loadConfig,
  parseOverrides,
  settingsReferenceMarkdown,
  unsupportedReason,
  type DiscoveryContext,
} from '../../src/engine/config/index.js';
import { CONFIG_SCHEMA } from '../../src/engine/config/schema.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'graphdb-declarations-'));
after(() => fs.rmSync(dir, { recursive: true, force: true }));
const discovery: DiscoveryContext = {
  env: {},
  homeDir: dir,
  binDir: null,
  cwd: dir,
  platform: 'linux',
  systemConfigDir: path.join(dir, 'none'),
  exists: () => false,
};

const accepted = SETTINGS.filter((spec) => unsupportedReason(spec) === null);
const rejected = SETTINGS.filter((spec) => unsupportedReason(spec) !== null);

/** A value of the setting's kind, as text. */
function sampleText(spec: (typeof SETTINGS)[number]): string {
  switch (spec.kind.type) {
    case 'enum':
      return spec.kind.values[0];
    case 'boolean':
      return 'true';
    case 'duration':
      return '1s';
    case 'string':
      return 'x';
    case 'list':
      return 'a,b';
    default:
      return String(spec.kind.type === 'integer' || spec.kind.type === 'number' ? (spec.kind.min ?? 1) : 1);
  }
}

describe('setting declarations', () => {
  it('every accepted setting names an existing test that mentions it', () => {
    const problems: string[] = [];
    for (const spec of accepted) {
      const proof = 'proof' in spec.effect ? spec.effect.proof : '';
      const file = path.join(root, proof);
      if (!proof.startsWith('test/') || !proof.endsWith('.test.ts') || !fs.existsSync(file)) {
        problems.push(`${spec.path}: no test file ${JSON.stringify(proof)}`);
        continue;
      }
      // The test file and the local helpers it imports (`./x.js` / `./x.ts` beside it).
      const own = fs.readFileSync(file, 'utf8');
      const helpers = [...own.matchAll(/from '\.\/([\w-]+)\.(?:js|ts)'/g)]
        .map((match) => path.join(path.dirname(file), `${match[1]}.ts`))
        .filter((helper) => fs.existsSync(helper));
      const text = [own, ...helpers.map((helper) => fs.readFileSync(helper, 'utf8'))].join('\n');
      const leaf = spec.path.split('.').at(-1)!;
      // The variable or the dotted path; a bare key only when it is specific (snake_case, not `max`).
      const specificKey = leaf.includes('_') && new RegExp(`\\b${leaf}\\b`).test(text);
      const mentioned = [...spec.env, spec.path].some((name) => text.includes(name)) || specificKey;
      if (!mentioned) problems.push(`${spec.path}: ${proof} does not mention it`);
    }
    assert.deepEqual(problems, []);
  });

  it('every setting has help text and a variable; defaults satisfy the zod schema', () => {
    for (const spec of SETTINGS) {
      assert.ok(spec.help.length > 10 && spec.help.endsWith('.'), `help of ${spec.path}`);
      assert.ok(spec.env.length > 0, `variable of ${spec.path}`);
    }
    assert.equal(CONFIG_SCHEMA.safeParse(DEFAULT_CONFIG).success, true);
    assert.equal(CONFIG_SCHEMA.safeParse({ ...DEFAULT_CONFIG, extra: {} }).success, false, 'unknown sections are refused');
  });

  it('the issue-listed settings that did nothing now act or are rejected', () => {
    const acts = new Set(accepted.map((s) => s.path));
    for (const path of ['database.max_connections', 'resources.low_memory', 'search.diag_timings', 'vector.kmeans_num_clusters']) {
      assert.ok(acts.has(path), `${path} acts`);
    }
    const refused = new Set(rejected.map((s) => s.path));
    for (const path of [
      'database.connection_timeout',
      'database.storage_serializer',
      'resources.tmp_dir',
      'search.hnsw_lexical_seed_max_terms',
      'search.hnsw_lexical_seed_per_term',
      'vector.kmeans_max_iterations',
      'vector.kmeans_seed_max_terms',
      'vector.kmeans_seed_docs_per_term',
      'vector.routing_mode',
      'vector.hybrid_routing_w_sem',
      'vector.hybrid_routing_w_lex',
      'vector.hybrid_routing_lex_top_terms',
    ]) {
      assert.ok(refused.has(path), `${path} is rejected`);
    }
  });

  it('startup rejects each unsupported setting from the environment, a file and a flag, naming it', () => {
    for (const spec of rejected) {
      const reason = unsupportedReason(spec)!;
      const variable = spec.env[0];
      const fromEnv = () => loadConfig({ env: { [variable]: sampleText(spec) }, discovery });
      assert.throws(fromEnv, (error: unknown) => {
        assert.ok(error instanceof ConfigError);
        assert.match(error.message, new RegExp(`^unsupported configuration key "${variable}" in environment`));
        assert.ok(error.message.includes(reason));
        return true;
      });
      const [section, ...rest] = spec.path.split('.');
      const file = path.join(dir, `${spec.path}.yaml`);
      fs.writeFileSync(file, `${section}:\n  ${rest.join('.')}: ${sampleText(spec)}\n`);
      assert.throws(
        () => loadConfig({ env: {}, configFile: file, discovery }),
        (error: unknown) => error instanceof ConfigError && error.message.startsWith(`unsupported configuration key "${spec.path}"`),
      );
      assert.throws(
        () => loadConfig({ env: {}, discovery, flags: { [spec.path]: sampleText(spec) } }),
        (error: unknown) => error instanceof ConfigError && error.message.startsWith(`unsupported configuration key "${spec.path}"`),
      );
      assert.throws(
        () => parseOverrides({ [variable]: sampleText(spec) }, 'overrides'),
        (error: unknown) => error instanceof ConfigError && error.message.startsWith(`unsupported configuration key "${variable}"`),
      );
    }
  });

  it('docs/configuration.md carries the generated settings reference', () => {
    const file = path.join(root, 'docs', 'configuration.md');
    const text = fs.readFileSync(file, 'utf8');
    const begin = text.indexOf(SETTINGS_DOC_BEGIN);
    const end = text.indexOf(SETTINGS_DOC_END);
    assert.ok(begin >= 0 && end > begin, 'the reference markers are in docs/configuration.md');
    const current = text.slice(begin, end + SETTINGS_DOC_END.length);
    const generated = settingsReferenceMarkdown();
    if (current !== generated && process.env.UPDATE_DOCS === '1') {
      fs.writeFileSync(file, text.slice(0, begin) + generated + text.slice(end + SETTINGS_DOC_END.length));
      return;
    }
    assert.equal(current, generated, 'docs/configuration.md is stale: run UPDATE_DOCS=1 node test/run.mjs test/config/declarations');
    for (const spec of SETTINGS) assert.ok(generated.includes(`| \`${spec.path}\` |`), spec.path);
  });
});
