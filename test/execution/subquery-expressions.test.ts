/**
 * EXISTS { } and COUNT { } subquery expressions with and without a RETURN.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { GraphDB } from '../../src/engine/index.js';
import { exec, openTestDb, rows } from './helpers.js';

let db: GraphDB;
before(async () => {
  db = await openTestDb();
  await exec(db.session(), 'CREATE (:A {n: 1})-[:R]->(:B), (:A {n: 2})');
});
after(async () => {
  await db.close();
});

test('EXISTS { MATCH ... } without RETURN is true when the pattern has rows', async () => {
  assert.deepEqual(await rows(db.session(), 'RETURN EXISTS { MATCH (n) } AS e'), [{ e: true }]);
  assert.deepEqual(await rows(db.session(), 'RETURN EXISTS { MATCH (n:Missing) } AS e'), [{ e: false }]);
});

test('correlated EXISTS and COUNT without RETURN see the outer row', async () => {
  const out = await rows(
    db.session(),
    'MATCH (a:A) RETURN a.n AS n, EXISTS { MATCH (a)-->() } AS e, COUNT { MATCH (a)-->(b) WHERE b:B } AS c ORDER BY n',
  );
  assert.deepEqual(out, [
    { n: 1n, e: true, c: 1n },
    { n: 2n, e: false, c: 0n },
  ]);
});

test('the forms with RETURN agree with the forms without', async () => {
  const out = await rows(db.session(), 'RETURN COUNT { MATCH (n) } AS plain, COUNT { MATCH (n) RETURN n } AS returning');
  assert.deepEqual(out, [{ plain: 3n, returning: 3n }]);
});
