/**
 * The anchor's known failure shapes: each query here once returned wrong rows somewhere.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { GraphDB } from '../../src/engine/index.js';
import { exec, openTestDb, rows } from './helpers.js';

let db: GraphDB;
before(async () => {
  db = await openTestDb();
});
after(() => db.close());

test('rows survive WITH / UNWIND chains', async () => {
  const out = await rows(
    db.session(),
    'UNWIND [1, 2, 3] AS x WITH x, x * 10 AS y UNWIND [y, y + 1] AS z WITH x, z WHERE z % 2 = 0 RETURN x, z ORDER BY x',
  );
  assert.deepEqual(out, [
    { x: 1n, z: 10n },
    { x: 2n, z: 20n },
    { x: 3n, z: 30n },
  ]);
});

test('aggregation after OPTIONAL MATCH counts nulls as absent', async () => {
  const s = db.session();
  await exec(s, "CREATE (:Team {name: 'a'})-[:HAS]->(:Member), (:Team {name: 'b'})");
  const out = await rows(s, 'MATCH (t:Team) OPTIONAL MATCH (t)-[:HAS]->(m) RETURN t.name AS team, count(m) AS members ORDER BY team');
  assert.deepEqual(out, [
    { team: 'a', members: 1n },
    { team: 'b', members: 0n },
  ]);
  await exec(s, 'MATCH (n) DETACH DELETE n');
});

test('the same query gives the same rows in auto-commit and in an explicit transaction', async () => {
  const s = db.session();
  await exec(s, 'UNWIND range(1, 5) AS i CREATE (:N {i: i})');
  const query = 'MATCH (n:N) WITH n ORDER BY n.i DESC LIMIT 3 RETURN collect(n.i) AS top';
  const auto = await rows(s, query);
  const tx = await s.beginTransaction();
  const result = await tx.run(query);
  const { records } = await result.pull(-1);
  await tx.commit();
  assert.deepEqual(auto, [{ top: [5n, 4n, 3n] }]);
  assert.deepEqual(records, [[[5n, 4n, 3n]]]);
  await exec(s, 'MATCH (n) DETACH DELETE n');
});

test('MERGE matches or creates the whole pattern', async () => {
  const s = db.session();
  await exec(s, "CREATE (:U {name: 'x'}), (:U {name: 'y'})");
  await exec(s, "MERGE (:U {name: 'x'})-[:R]->(:U {name: 'y'})");
  const nodes = await rows(s, 'MATCH (u:U) RETURN count(u) AS c');
  assert.deepEqual(nodes, [{ c: 4n }], 'the unmatched pattern is created whole, not joined to existing nodes');
  await exec(s, "MERGE (:U {name: 'x'})-[:R]->(:U {name: 'y'})");
  assert.deepEqual(await rows(s, 'MATCH (u:U) RETURN count(u) AS c'), [{ c: 4n }], 'a second MERGE matches');
  await exec(s, 'MATCH (n) DETACH DELETE n');
});

test('typed list properties keep their element types', async () => {
  const s = db.session();
  await exec(s, 'CREATE (:L {ints: [1, 2], floats: [1.5, 2.0], strings: ["a"]})');
  const [row] = await rows(s, 'MATCH (l:L) RETURN l.ints AS ints, l.floats AS floats, l.strings AS strings');
  assert.deepEqual(row, { ints: [1n, 2n], floats: [1.5, 2], strings: ['a'] });
  await exec(s, 'MATCH (n) DETACH DELETE n');
});

test('a non-boolean WHERE is rejected', async () => {
  const s = db.session();
  await exec(s, 'CREATE (:W)');
  await assert.rejects(
    async () => rows(s, 'MATCH (w:W) WHERE 1 RETURN w'),
    (error: { code?: string }) =>
      error.code === 'Neo.ClientError.Statement.TypeError' || error.code === 'Neo.ClientError.Statement.SyntaxError',
  );
  await exec(s, 'MATCH (n) DETACH DELETE n');
});
