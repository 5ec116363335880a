/** `graphdb shell` on a real pseudo-terminal (python3 pty): multi-line input, tables, history across runs. */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { cliInPty, ensureBuilt } from './cli-process.js';
import { tempDir } from './helpers.js';

const temp = tempDir();
const dataDir = join(temp.dir, 'data');
const historyFile = join(temp.dir, 'history');
const shellArgs = ['shell', '--data-dir', dataDir, '--create', '--history-file', historyFile];

/** Types a line: the text and Enter as separate writes (ink treats a burst as a paste). */
function type(text: string): object[] {
  return [{ send: text }, { sleep: 0.2 }, { send: '\r' }];
}

before(() => ensureBuilt());
after(() => temp.cleanup());

test('multi-line statement, table output, parameters, errors with position, :exit', () => {
  const run = cliInPty(shellArgs, [
    { expect: 'graphdb>' },
    { sleep: 0.5 },
    ...type("CREATE (a:Person {name: 'Ann', age: 42})"),
    { expect: '| ' },
    ...type("CREATE (b:Person {name: 'Bob', age: 7});"),
    { expect: 'Added 2 nodes' },
    { expect: 'graphdb>' },
    ...type(':param minAge => 10'),
    { expect: 'graphdb>' },
    ...type('MATCH (p:Person) WHERE p.age > $minAge'),
    ...type('RETURN p.name AS name, p.age AS age;'),
    { expect: '1 row' },
    ...type('RETURN 1 +;'),
    { expect: 'Neo.ClientError.Statement.SyntaxError' },
    { expect: 'graphdb>' },
    ...type('MATCH (p:Person) RETURN count(p) AS people;'),
    { expect: '1 row' },
    { expect: 'graphdb>' },
    ...type(':exit'),
  ]);
  assert.equal(run.status, 0, run.stderr + run.stdout);
  assert.match(run.stdout, /│ name\s+│ age\s+│/);
  assert.match(run.stdout, /│ "Ann"\s+│ 42\s+│/);
  assert.doesNotMatch(run.stdout, /│ "Bob"/);
  assert.match(run.stdout, /ready to start consuming query after \d+ ms/);
  assert.ok(existsSync(historyFile));
  const history = readFileSync(historyFile, 'utf8');
  assert.match(history, /CREATE \(a:Person \{name: 'Ann', age: 42\}\)\\nCREATE \(b:Person/);
});

test('history persists across runs: Up recalls the previous statement', () => {
  const run = cliInPty(shellArgs, [
    { expect: 'graphdb>' },
    { sleep: 0.5 },
    { send: '\x1b[A' },
    { sleep: 0.5 },
    { send: '\r' },
    { expect: '1 row' },
    { expect: 'graphdb>' },
    ...type(':exit'),
  ]);
  assert.equal(run.status, 0, run.stderr + run.stdout);
  assert.match(run.stdout, /│ people\s+│/);
  assert.match(run.stdout, /│ 2\s+│/);
});
