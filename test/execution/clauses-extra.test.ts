/**
 * Clauses the TCK does not cover: LOAD CSV from local files and schema commands.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import type { GraphDB } from '../../src/engine/index.js';
import { exec, openTestDb, rows } from './helpers.js';

let db: GraphDB;
let dir: string;
before(async () => {
  db = await openTestDb();
  dir = mkdtempSync(join(tmpdir(), 'graphdb-csv-'));
});
after(async () => {
  await db.close();
  rmSync(dir, { recursive: true, force: true });
});

test('LOAD CSV WITH HEADERS reads a local file, quoted fields included', async () => {
  const file = join(db.importDirectory, 'people.csv');
  writeFileSync(file, 'name,city\nAnn,"Oslo, Norway"\n"Bob ""B""",Rome\n');
  const out = await rows(db.session(), 'LOAD CSV WITH HEADERS FROM $url AS line RETURN line.name AS name, line.city AS city', {
    url: 'file:///people.csv',
  });
  assert.deepEqual(out, [
    { name: 'Ann', city: 'Oslo, Norway' },
    { name: 'Bob "B"', city: 'Rome' },
  ]);
});

test('LOAD CSV without headers yields lists and honours FIELDTERMINATOR', async () => {
  const file = join(db.importDirectory, 'plain.csv');
  writeFileSync(file, '1;2\n3;4\n');
  const out = await rows(db.session(), "LOAD CSV FROM 'file:///plain.csv' AS r FIELDTERMINATOR ';' RETURN r");
  assert.deepEqual(out, [{ r: ['1', '2'] }, { r: ['3', '4'] }]);
});

test('LOAD CSV refuses remote URLs', async () => {
  await assert.rejects(async () => rows(db.session(), "LOAD CSV FROM 'http://example.org/x.csv' AS r RETURN r"));
});

test('CREATE / SHOW / DROP INDEX and CONSTRAINT run through the storage catalog', async () => {
  const s = db.session();
  await exec(s, 'CREATE INDEX idx_city IF NOT EXISTS FOR (c:City) ON (c.name)');
  await exec(s, 'CREATE CONSTRAINT user_email IF NOT EXISTS FOR (u:User) REQUIRE u.email IS UNIQUE');
  const indexes = (await rows(s, 'SHOW INDEXES')).map((r) => r.name);
  assert.ok(indexes.includes('idx_city'), JSON.stringify(indexes));
  const constraints = (await rows(s, 'SHOW CONSTRAINTS')).map((r) => r.name);
  assert.ok(constraints.includes('user_email'), JSON.stringify(constraints));
  await exec(s, "CREATE (:User {email: 'a@x'})");
  await assert.rejects(
    async () => exec(s, "CREATE (:User {email: 'a@x'})"),
    (error: { code?: string }) => error.code === 'Neo.ClientError.Schema.ConstraintValidationFailed',
  );
  await exec(s, 'DROP CONSTRAINT user_email');
  await exec(s, 'DROP INDEX idx_city');
  assert.ok(!(await rows(s, 'SHOW INDEXES')).some((r) => r.name === 'idx_city'));
});
