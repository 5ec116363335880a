/**
 * `graphdb shell` on a real pseudo-terminal: Ctrl-C cancels a running query and the shell stays,
 * readline keys edit the line, :source runs a script, and wide results fit the terminal.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { cliInPty, ensureBuilt } from './cli-process.js';
import { tempDir } from './helpers.js';

const temp = tempDir();
const dataDir = join(temp.dir, 'data');
const shellArgs = ['shell', '--data-dir', dataDir, '--create', '--no-history'];

/** Types a line: the text and Enter as separate writes (ink treats a burst as a paste). */
function type(text: string): object[] {
  return [{ send: text }, { sleep: 0.2 }, { send: '\r' }];
}

/** Sends keys one at a time (each a separate keypress for ink). */
function keys(...sequences: string[]): object[] {
  return sequences.flatMap((send) => [{ send }, { sleep: 0.1 }]);
}

const CTRL = { A: '\x01', B: '\x02', C: '\x03', F: '\x06', K: '\x0b', L: '\x0c', R: '\x12', U: '\x15', W: '\x17', Y: '\x19' };
const DELETE = '\x1b[3~';
const LEFT = '\x1b[D';

before(() => ensureBuilt());
after(() => temp.cleanup());

test('Ctrl-C terminates a running query; the shell stays and runs the next one', () => {
  const run = cliInPty(shellArgs, [
    { expect: 'graphdb>' },
    { sleep: 0.3 },
    ...type('UNWIND range(1, 100000) AS a UNWIND range(1, 100000) AS b RETURN count(*) AS n;'),
    { expect: 'Ctrl-C to cancel' },
    { sleep: 0.5 },
    { send: CTRL.C },
    { expect: 'Neo.ClientError.Transaction.Terminated' },
    { expect: 'graphdb>' },
    ...type('RETURN 40 + 2 AS answer;'),
    { expect: '1 row' },
    { expect: 'graphdb>' },
    { send: CTRL.C },
    { expect: 'Press Ctrl-C again to exit' },
    { send: CTRL.C },
  ]);
  assert.equal(run.status, 0, run.stderr + run.stdout);
  assert.match(run.stdout, /│ 42\s+│/);
  assert.doesNotMatch(run.stdout, /│ 10000000000/);
});

/** 1000 rows at once, then a statement part that runs until it is cancelled. */
const ROWS_THEN_LONG_WORK =
  'UNWIND range(1, 1000) AS i RETURN i UNION ALL UNWIND range(1, 100000) AS a UNWIND range(1, 100000) AS b WITH count(*) AS n RETURN n AS i';

test('results stream: the first rows are drawn while the statement still runs, and the row cap notes the total', () => {
  const run = cliInPty(
    [...shellArgs, '--max-rows', '50'],
    [
      { expect: 'graphdb>' },
      { sleep: 0.3 },
      ...type(`${ROWS_THEN_LONG_WORK};`),
      { expect: '│ 50 ' },
      { sleep: 0.3 },
      { send: CTRL.C },
      { expect: 'Neo.ClientError.Transaction.Terminated' },
      { expect: 'graphdb>' },
      ...type('UNWIND range(1, 120) AS i RETURN i;'),
      { expect: '(50 of 120 rows shown' },
      { expect: 'graphdb>' },
      ...type(':exit'),
    ],
  );
  assert.equal(run.status, 0, run.stderr + run.stdout);
  const beforeCancel = run.stdout.slice(0, run.stdout.indexOf('Terminated'));
  assert.match(beforeCancel, /│ 1\s+│[\s\S]*│ 50\s+│/, 'rows were drawn before the statement was cancelled');
  assert.doesNotMatch(beforeCancel, /│ 51\s+│/, 'the row cap held');
});

test('readline keys: Ctrl-W/U/K/Y, Ctrl-A/F, Delete versus Backspace, Ctrl-R reverse search, Ctrl-L', () => {
  const run = cliInPty(shellArgs, [
    { expect: 'graphdb>' },
    { sleep: 0.3 },
    { send: 'RETURN 1 AS wrong' },
    { sleep: 0.2 },
    ...keys(CTRL.W),
    ...type('right;'),
    { expect: '1 row' },
    { send: 'garbage that is dropped' },
    { sleep: 0.2 },
    ...keys(CTRL.U),
    ...type('RETURN 2 AS two;'),
    { expect: '1 row' },
    { send: 'RETURN 5 AS fivejunk' },
    { sleep: 0.2 },
    ...keys(CTRL.A, ...Array<string>(16).fill(CTRL.F), CTRL.K, CTRL.U),
    ...keys(CTRL.Y),
    ...type(';'),
    { expect: '1 row' },
    { send: 'RETURN 6 AS sixxx;' },
    { sleep: 0.2 },
    ...keys(LEFT, LEFT, DELETE, '\x7f'),
    { send: '\r' },
    { expect: '1 row' },
    ...keys(CTRL.R),
    { send: 'AS two' },
    { expect: "reverse-i-search)'AS two': RETURN 2 AS two;" },
    { send: '\r' },
    { expect: '1 row' },
    ...keys(CTRL.L),
    { sleep: 0.2 },
    ...type(':exit'),
  ]);
  assert.equal(run.status, 0, run.stderr + run.stdout);
  assert.match(run.stdout, /│ right\s+│/, 'Ctrl-W cut the last word');
  assert.doesNotMatch(run.stdout, /Neo\.ClientError/, 'every edited statement ran (Ctrl-U cut the typed garbage)');
  assert.match(run.stdout, /│ two\s+│/);
  assert.match(run.stdout, /│ five\s+│/, 'Ctrl-K cut the rest; Ctrl-U cut the line and Ctrl-Y pasted it back');
  assert.match(run.stdout, /│ six\s+│/, 'Delete removed the character under the cursor, Backspace the one before');
  assert.equal(run.stdout.match(/│ two\s+│/g)?.length, 2, 'Ctrl-R found and ran the earlier statement again');
});

test('keys arriving together in one read (a slow link, fast typing) are handled one by one', () => {
  const burst = ['RETURN 5 AS fivejunk', CTRL.A, ...Array<string>(16).fill(CTRL.F), CTRL.K, CTRL.U, CTRL.Y, ';', '\r'].join('');
  const run = cliInPty(shellArgs, [{ expect: 'graphdb>' }, { send: burst }, { expect: '1 row' }, ...type(':exit')]);
  assert.equal(run.status, 0, run.stderr + run.stdout);
  assert.match(run.stdout, /│ five\s+│/);
  assert.doesNotMatch(run.stdout, /Neo\.ClientError/);
});

test(':source runs a script, and stops at its first error naming the statement and the file line', () => {
  const script = join(temp.dir, 'seed.cypher');
  writeFileSync(
    script,
    '// seed data\nCREATE (:Src {n: 1});\n\nCREATE (:Src {n: 2});\nMATCH (s:Src) RETURN sum(s.n) AS total;\nRETURN nope;\nCREATE (:Src {n: 100});\n',
  );
  const run = cliInPty(shellArgs, [
    { expect: 'graphdb>' },
    { sleep: 0.3 },
    ...type(`:source ${script}`),
    { expect: 'Variable `nope` not defined' },
    { expect: 'graphdb>' },
    ...type('MATCH (s:Src) RETURN count(s) AS sources;'),
    { expect: '1 row' },
    ...type(':help :source'),
    { expect: 'usage: :source <file>' },
    ...type(':exit'),
  ]);
  assert.equal(run.status, 0, run.stderr + run.stdout);
  assert.match(run.stdout, /│ total\s+│[\s\S]*│ 3\s+│/);
  assert.match(run.stdout, new RegExp(`Error in statement 4 at ${script.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}:6`));
  assert.match(run.stdout, /│ sources\s+│[\s\S]*│ 2\s+│/, 'the statement after the error did not run');
});

test('wide results are fitted to an 80-column terminal', () => {
  const long = 'x'.repeat(150);
  const run = cliInPty(
    shellArgs,
    [
      { expect: 'graphdb>' },
      { sleep: 0.3 },
      ...type(`RETURN '${long}' AS wide, 'short' AS narrow, range(1, 40) AS numbers;`),
      { expect: '1 row' },
      ...type(':exit'),
    ],
    { columns: 80 },
  );
  assert.equal(run.status, 0, run.stderr + run.stdout);
  const tableLines = run.stdout.split(/\r?\n/).filter((line) => /^[┌├│└]/.test(line));
  assert.ok(tableLines.length >= 4, run.stdout);
  for (const line of tableLines) assert.ok(line.length <= 80, `${line.length} columns: ${line}`);
  assert.equal((run.stdout.match(/x/g) ?? []).length >= 150, true, 'the long value was wrapped, not lost');
  assert.match(run.stdout, /│ narrow\s*│/);
});
