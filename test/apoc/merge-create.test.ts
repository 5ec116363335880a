/**
 * apoc.merge, apoc.create and the entity functions (apoc.any/label/node/rel) against APOC's
 * documented examples, in both transaction modes; writing procedures are refused to read-only
 * transactions.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { GraphDB, Session } from '../../src/engine/index.js';
import { MODES, openDb, plain, run, value } from './helpers.js';

let db: GraphDB;
let session: Session;
before(async () => {
  db = await openDb();
  session = db.session();
});
after(() => db.close());

for (const mode of MODES) {
  describe(`apoc.merge (${mode})`, () => {
    test('merge.node creates once, then matches (ON CREATE / ON MATCH properties)', async () => {
      const q =
        "CALL apoc.merge.node(['Person', 'Actor'], {name: $name}, {created: true}, {matched: true}) YIELD node RETURN labels(node) AS labels, properties(node) AS props";
      const first = await run(session, q, { name: `Tom ${mode}` }, mode);
      assert.deepEqual(plain(first[0].props), { name: `Tom ${mode}`, created: true });
      assert.deepEqual(first[0].labels, ['Person', 'Actor']);
      const second = await run(session, q, { name: `Tom ${mode}` }, mode);
      assert.deepEqual(plain(second[0].props), { name: `Tom ${mode}`, created: true, matched: true });
      assert.equal(await value(session, 'MATCH (p:Person {name: $name}) RETURN count(p) AS c', { name: `Tom ${mode}` }, mode), 1n);
    });
    test('merge.relationship creates once between the given nodes', async () => {
      const q = `MATCH (p:Person {name: $name}) MERGE (m:Movie {title: $title})
                 WITH p, m CALL apoc.merge.relationship(p, 'ACTED_IN', {role: 'Neo'}, {since: 1999}, m, {seen: true}) YIELD rel
                 RETURN type(rel) AS type, properties(rel) AS props`;
      const params = { name: `Tom ${mode}`, title: `Matrix ${mode}` };
      assert.deepEqual(plain((await run(session, q, params, mode))[0].props), { role: 'Neo', since: 1999n });
      assert.deepEqual(plain((await run(session, q, params, mode))[0].props), { role: 'Neo', since: 1999n, seen: true });
      assert.equal(
        await value(session, 'MATCH (:Person {name: $name})-[r:ACTED_IN]->(:Movie {title: $title}) RETURN count(r) AS c', params, mode),
        1n,
      );
    });
    test('nodeWithStats reports the statistics of the merge', async () => {
      const rows = await run(session, "CALL apoc.merge.nodeWithStats(['Stat'], {key: $k}) YIELD stats RETURN stats", { k: mode }, mode);
      assert.deepEqual(plain(rows[0].stats), {
        relationshipsDeleted: 0n,
        relationshipsCreated: 0n,
        nodesDeleted: 0n,
        nodesCreated: 1n,
        labelsRemoved: 0n,
        labelsAdded: 1n,
        propertiesSet: 1n,
      });
    });
    test('an empty identity is refused with APOC message', async () => {
      await assert.rejects(
        run(session, "CALL apoc.merge.node(['X'], {}) YIELD node RETURN node", undefined, mode),
        /you need to supply at least one identifying property for a merge/,
      );
    });
  });

  describe(`apoc.create (${mode})`, () => {
    test('node, relationship, labels and properties with dynamic names', async () => {
      const row = (
        await run(
          session,
          `CALL apoc.create.node(['Dyn'], {key: $k, gone: 1}) YIELD node AS a
           CALL apoc.create.node(['Dyn'], {key: $k + '2'}) YIELD node AS b
           CALL apoc.create.relationship(a, 'LINKS', {w: 2}, b) YIELD rel
           CALL apoc.create.addLabels(a, ['Extra', 'More']) YIELD node AS a1
           CALL apoc.create.removeLabels(a1, ['More']) YIELD node AS a2
           CALL apoc.create.setProperty(a2, 'p', 42) YIELD node AS a3
           CALL apoc.create.removeProperties(a3, ['gone']) YIELD node AS a4
           CALL apoc.create.setRelProperties(rel, ['x', 'y'], [1, 2]) YIELD rel AS r2
           RETURN labels(a4) AS labels, properties(a4) AS props, type(r2) AS type, properties(r2) AS rprops`,
          { k: mode },
          mode,
        )
      )[0];
      assert.deepEqual(row.labels, ['Dyn', 'Extra']);
      assert.deepEqual(plain(row.props), { key: mode, p: 42n });
      assert.equal(row.type, 'LINKS');
      assert.deepEqual(plain(row.rprops), { w: 2n, x: 1n, y: 2n });
    });
    test('setLabels replaces the labels; nodes may be given by id or element id', async () => {
      const labels = await value(
        session,
        "CREATE (n:A:B) WITH n CALL apoc.create.setLabels(elementId(n), ['C']) YIELD node RETURN labels(node) AS l",
        undefined,
        mode,
      );
      assert.deepEqual(labels, ['C']);
    });
    test('virtual nodes and relationships are not stored', async () => {
      const row = (
        await run(
          session,
          "CALL apoc.create.vNode(['Virtual'], {name: 'v'}) YIELD node AS a WITH a, apoc.create.vNode(['Virtual'], {name: 'w'}) AS b RETURN a.name AS an, labels(b) AS bl, apoc.create.vRelationship(a, 'V', {k: 1}, b).k AS k, id(a) < 0 AS negative",
          undefined,
          mode,
        )
      )[0];
      assert.deepEqual(row, { an: 'v', bl: ['Virtual'], k: 1n, negative: true });
      assert.equal(await value(session, 'MATCH (n:Virtual) RETURN count(n) AS c', undefined, mode), 0n);
    });
    test('uuid conversions follow the documented example', async () => {
      assert.equal(
        await value(session, "RETURN apoc.create.uuidHexToBase64('290d6cba-ce94-455e-b59f-029cf1e395c5') AS v", undefined, mode),
        'KQ1sus6URV61nwKc8eOVxQ',
      );
      assert.equal(
        await value(session, "RETURN apoc.create.uuidBase64ToHex('KQ1sus6URV61nwKc8eOVxQ') AS v", undefined, mode),
        '290d6cba-ce94-455e-b59f-029cf1e395c5',
      );
      assert.match((await value(session, 'RETURN apoc.create.uuid() AS v', undefined, mode)) as string, /^[0-9a-f-]{36}$/);
    });
  });

  describe(`entity functions (${mode})`, () => {
    test('degree, relationship types and properties', async () => {
      await run(session, 'CREATE (a:Hub {k: $k})-[:R]->(:Leaf), (a)-[:R]->(:Leaf), (:Leaf)-[:S]->(a)', { k: mode }, mode);
      const row = (
        await run(
          session,
          "MATCH (a:Hub {k: $k}) RETURN apoc.node.degree(a) AS all, apoc.node.degree(a, 'R>') AS outR, apoc.node.degree.in(a) AS ins, apoc.node.relationship.types(a) AS types, apoc.node.relationship.exists(a, '<S') AS hasS, apoc.node.relationships.exist(a, 'R>|T') AS exist, apoc.label.exists(a, 'Hub') AS isHub, apoc.any.properties(a, ['k']) AS props",
          { k: mode },
          mode,
        )
      )[0];
      assert.equal(row.all, 3n);
      assert.equal(row.outR, 2n);
      assert.equal(row.ins, 1n);
      assert.deepEqual([...(row.types as string[])].sort(), ['R', 'S']);
      assert.equal(row.hasS, true);
      assert.deepEqual(plain(row.exist), { 'R>': true, T: false });
      assert.equal(row.isHub, true);
      assert.deepEqual(plain(row.props), { k: mode });
    });
  });
}

describe('modes and listing', () => {
  test('a writing APOC procedure is refused in a read transaction', async () => {
    const tx = await session.beginTransaction({ mode: 'READ' });
    await assert.rejects(tx.run("CALL apoc.create.node(['X'], {}) YIELD node RETURN node"), /read access mode/);
    if (tx.isOpen) await tx.rollback();
  });
  test('SHOW PROCEDURES and SHOW FUNCTIONS list APOC with signature, description and mode', async () => {
    const procs = await run(session, "SHOW PROCEDURES YIELD name, signature, mode, description WHERE name = 'apoc.merge.node' RETURN *");
    assert.deepEqual(procs, [
      {
        name: 'apoc.merge.node',
        signature:
          'apoc.merge.node(labels :: LIST<STRING>, identProps :: MAP, onCreateProps = {} :: MAP, onMatchProps = {} :: MAP) :: (node :: NODE)',
        mode: 'WRITE',
        description: 'Merges the given `NODE` values with the given dynamic labels.',
      },
    ]);
    const fns = await run(session, "SHOW FUNCTIONS YIELD name, signature WHERE name = 'apoc.util.validatePredicate' RETURN *");
    assert.deepEqual(fns, [
      {
        name: 'apoc.util.validatePredicate',
        signature: 'apoc.util.validatePredicate(predicate :: BOOLEAN, message :: STRING, params :: LIST<ANY>) :: BOOLEAN',
      },
    ]);
  });
});
