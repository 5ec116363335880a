// The layer rules of eslint.config.js reject imports that cross the architecture's boundaries
// (docs/ARCHITECTURE.md) and accept the public entry points. Runs the repository's own config
// through ESLint's Node API, limited to the import rules so no type information is needed.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';

const root = fileURLToPath(new URL('../..', import.meta.url));

const eslint = new ESLint({
  cwd: root,
  ruleFilter: ({ ruleId }) => ruleId.startsWith('import-x/'),
  overrideConfig: { languageOptions: { parserOptions: { projectService: false } } },
});

const facadeLint = new ESLint({
  cwd: root,
  ruleFilter: ({ ruleId }) => ruleId === 'no-restricted-syntax',
  overrideConfig: { languageOptions: { parserOptions: { projectService: false } } },
});

async function importErrors(filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath });
  assert.ok(result, 'ESLint returned no result');
  const fatal = result.messages.filter((m) => m.fatal);
  assert.deepEqual(fatal, [], 'the probe must parse');
  return result.messages.map((m) => `${m.ruleId}: ${m.message}`);
}

describe('layer rules', () => {
  it('reject a listener importing an engine internal', async () => {
    const errors = await importErrors(
      'src/server/layer-probe.ts',
      "import { StorageEngine } from '../engine/storage/index.js';\nexport const probe = StorageEngine;\n",
    );
    assert.equal(errors.length, 1, errors.join('\n'));
    assert.match(errors[0], /^import-x\/no-restricted-paths: .*src\/server imports the engine only through its public entry points/);
  });

  it('reject the CLI and commands importing engine internals', async () => {
    const cli = await importErrors(
      'src/cli/layer-probe.ts',
      "import { tokenize } from '../engine/cypher/lexer/index.js';\nexport const probe = tokenize;\n",
    );
    assert.match(cli.join('\n'), /no-restricted-paths: .*src\/cli imports the engine only through/);
    const command = await importErrors(
      'src/commands/layer-probe.ts',
      "import { GraphDB } from '../engine/graphdb.js';\nexport const probe = GraphDB;\n",
    );
    assert.match(command.join('\n'), /no-restricted-paths: .*src\/commands imports the engine only through/);
  });

  it('accept the public entry points', async () => {
    const errors = await importErrors(
      'src/server/layer-probe.ts',
      [
        "import { GraphDB } from '../engine/index.js';",
        "import { loadConfig } from '../engine/config/index.js';",
        "import { AuthService } from '../engine/auth/index.js';",
        "import { importGraph } from '../engine/transfer/index.js';",
        "import { AssistantService } from '../engine/assistant/index.js';",
        'export const probe = [GraphDB, loadConfig, AuthService, importGraph, AssistantService];',
        '',
      ].join('\n'),
    );
    assert.deepEqual(errors, []);
  });

  it('reject a listener, the CLI or a command taking a store from the facade', async () => {
    const [result] = await facadeLint.lintText(
      "import type { GraphDB } from '../engine/index.js';\nexport const probe = (db: GraphDB) => [db.store('neo4j'), (db as unknown as { storage: unknown }).storage];\n",
      { filePath: 'src/server/facade-probe.ts' },
    );
    const messages = (result?.messages ?? []).map((m) => `${m.ruleId}: ${m.message}`);
    assert.equal(messages.length, 2, messages.join('\n'));
    assert.match(messages[0], /^no-restricted-syntax: .*do not take a store/);
    assert.match(messages[1], /^no-restricted-syntax: .*do not reach the storage engine/);
    const [command] = await facadeLint.lintText(
      "import type { GraphDB } from '../engine/index.js';\nexport const probe = (db: GraphDB) => db.databaseServices.mvccStatus('neo4j');\n",
      { filePath: 'src/commands/facade-probe.ts' },
    );
    assert.deepEqual(command?.messages ?? [], []);
  });

  it('reject a listener, the CLI or a command importing a storage reader, record or store type', async () => {
    const probes = [
      ['src/server/graphql/storage-probe.ts', "import type { GraphReader, NodeRecord } from '../../engine/index.js';"],
      ['src/cli/storage-probe.ts', "import { type RelationshipRecord } from '../engine/index.js';"],
      ['src/commands/storage-probe.ts', "import type { DatabaseStore } from '../engine/index.js';"],
    ] as const;
    const found: string[][] = [];
    for (const [filePath, line] of probes) {
      const [result] = await facadeLint.lintText(`${line}\nexport type Probe = unknown;\n`, { filePath });
      found.push((result?.messages ?? []).map((m) => `${m.ruleId}: ${m.message}`));
    }
    assert.equal(found[0].length, 2, found[0].join('\n'));
    for (const messages of found) {
      for (const message of messages) assert.match(message, /^no-restricted-syntax: .*never handle storage readers, records or stores/);
    }
    assert.equal(found[1].length, 1);
    assert.equal(found[2].length, 1);
    const [allowed] = await facadeLint.lintText(
      "import type { Node, Relationship, EntityChange } from '../../engine/index.js';\nexport type Probe = [Node, Relationship, EntityChange];\n",
      { filePath: 'src/server/graphql/storage-probe.ts' },
    );
    assert.deepEqual(allowed?.messages ?? [], []);
  });

  it('reject storage importing the Cypher pipeline', async () => {
    const errors = await importErrors(
      'src/engine/storage/layer-probe.ts',
      "import { Kind } from '../cypher/ast/index.js';\nexport const probe = Kind;\n",
    );
    assert.match(errors.join('\n'), /no-restricted-paths: .*Storage never imports the Cypher pipeline/);
  });

  it('reject values importing anything above them', async () => {
    const errors = await importErrors(
      'src/engine/values/layer-probe.ts',
      "import type { Session } from '../session/types.js';\nexport type Probe = Session;\n",
    );
    assert.match(errors.join('\n'), /no-restricted-paths: .*Values import nothing above them/);
    const allowed = await importErrors(
      'src/engine/values/layer-probe.ts',
      "import { GraphError } from '../errors/index.js';\nexport const probe = GraphError;\n",
    );
    assert.deepEqual(allowed, []);
  });

  it('reject the engine importing a listener or a command', async () => {
    const errors = await importErrors(
      'src/engine/layer-probe.ts',
      "import { buildHttpServer } from '../server/index.js';\nexport const probe = buildHttpServer;\n",
    );
    assert.match(errors.join('\n'), /no-restricted-paths: .*The engine never imports a listener, the CLI or a command/);
  });

  it('reject the web UI importing the engine or the server', async () => {
    const engine = await importErrors(
      'src/server/browser/app/layer-probe.ts',
      "import { GraphDB } from '../../../engine/index.js';\nexport const probe = GraphDB;\n",
    );
    assert.match(engine.join('\n'), /no-restricted-paths: .*The web UI runs in the browser/);
    const server = await importErrors(
      'src/server/browser/app/layer-probe.ts',
      "import { BROWSER_PATH } from '../routes.js';\nexport const probe = BROWSER_PATH;\n",
    );
    assert.match(server.join('\n'), /no-restricted-paths: .*The web UI runs in the browser/);
    const own = await importErrors('src/server/browser/app/layer-probe.ts', "import { h } from './dom.js';\nexport const probe = h;\n");
    assert.deepEqual(own, []);
  });

  it('reject an import cycle', async () => {
    // graphdb.ts reaches values/kinds.ts through the Cypher pipeline; importing it back closes a cycle.
    const errors = await importErrors(
      'src/engine/values/kinds.ts',
      "import { GraphDB } from '../graphdb.js';\nexport const probe = GraphDB;\n",
    );
    assert.match(errors.join('\n'), /import-x\/no-cycle: Dependency cycle via/);
  });
});
