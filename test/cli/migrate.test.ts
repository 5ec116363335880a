/**
 * `graphdb migrate`: versioned migrations applied once each and recorded with checksums; re-running is a
 * no-op, an edited applied file is detected (validate fails, repair accepts it), a failing migration names
 * its file and line and leaves nothing of itself behind, and --dry-run changes nothing.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { cli, ensureBuilt, oneLine, shellQuery } from './cli-process.js';
import { tempDir } from './helpers.js';

const temp = tempDir();
before(() => ensureBuilt());
after(() => temp.cleanup());

test('apply, re-run, dry run, checksum change, repair, and a failure naming file and line', () => {
  const dataDir = join(temp.dir, 'data');
  const dir = join(temp.dir, 'migrations');
  mkdirSync(dir);
  writeFileSync(
    join(dir, 'V1__people.cypher'),
    "CREATE CONSTRAINT person_name IF NOT EXISTS FOR (p:Person) REQUIRE p.name IS UNIQUE;\nCREATE (:Person {name: 'Ann'});\n",
  );
  writeFileSync(join(dir, 'V2__more_people.cypher'), "// Bob joins\nCREATE (:Person {name: 'Bob'});\n");
  writeFileSync(join(dir, 'V10__knows.cypher'), "MATCH (a:Person {name: 'Ann'}), (b:Person {name: 'Bob'})\nCREATE (a)-[:KNOWS]->(b);\n");
  assert.equal(cli(['shell', '--data-dir', dataDir, '--create', 'RETURN 1']).status, 0);

  const dry = cli(['migrate', '--dir', dir, '--data-dir', dataDir, '--dry-run', '--json']);
  assert.equal(dry.status, 0, dry.stderr);
  assert.deepEqual(
    JSON.parse(dry.stdout).applied.map((m: { version: string }) => m.version),
    ['1', '2', '10'],
  );
  assert.equal(shellQuery(dataDir, 'MATCH (p:Person) RETURN count(p) AS n'), 'n\n0\n', 'a dry run changes nothing');

  const first = cli(['migrate', '--dir', dir, '--data-dir', dataDir]);
  assert.equal(first.status, 0, first.stderr);
  assert.match(first.stdout, /3 migration\(s\) applied; 0 already applied/);
  assert.equal(shellQuery(dataDir, 'MATCH (:Person)-[k:KNOWS]->(:Person) RETURN count(k) AS n'), 'n\n1\n');

  const again = cli(['migrate', '--dir', dir, '--data-dir', dataDir]);
  assert.equal(again.status, 0, again.stderr);
  assert.match(again.stdout, /0 migration\(s\) applied; 3 already applied/);
  assert.equal(shellQuery(dataDir, 'MATCH (p:Person) RETURN count(p) AS n'), 'n\n2\n', 're-running applies nothing again');

  const info = cli(['migrate', 'info', '--dir', dir, '--data-dir', dataDir, '--json']);
  assert.equal(info.status, 0, info.stderr);
  assert.deepEqual(
    JSON.parse(info.stdout).migrations.map((m: { version: string; state: string }) => [m.version, m.state]),
    [
      ['1', 'applied'],
      ['2', 'applied'],
      ['10', 'applied'],
    ],
  );

  writeFileSync(join(dir, 'V2__more_people.cypher'), "// Bob joins, edited after the fact\nCREATE (:Person {name: 'Bob'});\n");
  writeFileSync(join(dir, 'V11__carol.cypher'), "CREATE (:Person {name: 'Carol'});\n");
  const validate = cli(['migrate', 'validate', '--dir', dir, '--data-dir', dataDir]);
  assert.equal(validate.status, 1);
  assert.match(oneLine(validate.stderr), /V2 \(V2__more_people\.cypher\): checksum mismatch/);
  const blocked = cli(['migrate', '--dir', dir, '--data-dir', dataDir]);
  assert.equal(blocked.status, 1, 'a changed applied file stops the run before anything is applied');
  assert.equal(shellQuery(dataDir, "MATCH (p:Person {name: 'Carol'}) RETURN count(p) AS n"), 'n\n0\n');

  const repair = cli(['migrate', 'repair', '--dir', dir, '--data-dir', dataDir]);
  assert.equal(repair.status, 0, repair.stderr);
  assert.match(repair.stdout, /Repaired the checksums of V2/);
  assert.equal(cli(['migrate', 'validate', '--dir', dir, '--data-dir', dataDir]).status, 0);

  writeFileSync(
    join(dir, 'V12__broken.cypher'),
    "CREATE (:Person {name: 'Dan'});\n\n// the next one violates the unique constraint\nCREATE (:Person {name: 'Ann'});\n",
  );
  writeFileSync(join(dir, 'V13__after.cypher'), "CREATE (:Person {name: 'Eve'});\n");
  const failed = cli(['migrate', '--dir', dir, '--data-dir', dataDir]);
  assert.equal(failed.status, 1);
  const message = oneLine(failed.stderr);
  assert.match(message, /Migration V12__broken\.cypher failed at \S*V12__broken\.cypher:4 \(statement 2\)/);
  assert.match(message, /Neo\.ClientError\.Schema\.ConstraintValidationFailed/);
  assert.equal(
    shellQuery(dataDir, "MATCH (p:Person) WHERE p.name IN ['Carol', 'Dan', 'Eve'] RETURN p.name AS name ORDER BY name"),
    'name\n"Carol"\n',
    'V11 applied; the failing V12 left nothing (its own transaction) and V13 did not run',
  );
  const after = cli(['migrate', 'info', '--dir', dir, '--data-dir', dataDir, '--json']);
  const states = JSON.parse(after.stdout).migrations.map((m: { version: string; state: string }) => `${m.version}:${m.state}`);
  assert.deepEqual(states, ['1:applied', '2:applied', '10:applied', '11:applied', '12:pending', '13:pending']);
});

test('file names that are not versioned migrations are refused', () => {
  const dir = join(temp.dir, 'bad-names');
  mkdirSync(dir);
  writeFileSync(join(dir, 'create_people.cypher'), 'RETURN 1;\n');
  const dataDir = join(temp.dir, 'bad-names-data');
  assert.equal(cli(['shell', '--data-dir', dataDir, '--create', 'RETURN 1']).status, 0);
  const run = cli(['migrate', '--dir', dir, '--data-dir', dataDir]);
  assert.equal(run.status, 1);
  assert.match(oneLine(run.stderr), /create_people\.cypher: a migration file is named V<version>__<description>\.cypher/);
});
