/**
 * apoc.refactor against APOC's documented examples, in both transaction modes.
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
  describe(`apoc.refactor (${mode})`, () => {
    test('invert, setType, from and to re-create the relationship with its properties', async () => {
      const m = { m: mode };
      await run(session, 'CREATE (:R {m: $m, n: 1})-[:FOO {w: 1}]->(:R {m: $m, n: 2}), (:R {m: $m, n: 3})', m, mode);
      assert.deepEqual(
        await run(
          session,
          'MATCH (:R {m: $m})-[r:FOO]->() CALL apoc.refactor.invert(r) YIELD output RETURN startNode(output).n AS s, endNode(output).n AS e, output.w AS w',
          m,
          mode,
        ),
        [{ s: 2n, e: 1n, w: 1n }],
      );
      assert.deepEqual(
        await run(
          session,
          "MATCH (:R {m: $m})-[r:FOO]->() CALL apoc.refactor.setType(r, 'BAR') YIELD output RETURN type(output) AS t, output.w AS w",
          m,
          mode,
        ),
        [{ t: 'BAR', w: 1n }],
      );
      assert.deepEqual(
        await run(
          session,
          'MATCH (:R {m: $m})-[r:BAR]->(), (x:R {m: $m, n: 3}) CALL apoc.refactor.to(r, x) YIELD output RETURN startNode(output).n AS s, endNode(output).n AS e',
          m,
          mode,
        ),
        [{ s: 2n, e: 3n }],
      );
      assert.deepEqual(
        await run(
          session,
          'MATCH (:R {m: $m})-[r:BAR]->(), (x:R {m: $m, n: 1}) CALL apoc.refactor.from(r, x) YIELD output RETURN startNode(output).n AS s, endNode(output).n AS e',
          m,
          mode,
        ),
        [{ s: 1n, e: 3n }],
      );
    });
    test('mergeNodes moves relationships and combines properties', async () => {
      const m = { m: mode };
      await run(
        session,
        "CREATE (a:Person:A {m: $m, name: 'Tom', age: 1})-[:KNOWS]->(c:Other {m: $m}), (b:Person:B {m: $m, name: 'Thomas', city: 'X'})-[:LIVES]->(c)",
        m,
        mode,
      );
      const merged = await run(
        session,
        "MATCH (a:A {m: $m}), (b:B {m: $m}) CALL apoc.refactor.mergeNodes([a, b], {properties: 'combine'}) YIELD node RETURN labels(node) AS l, properties(node) AS p",
        m,
        mode,
      );
      assert.deepEqual([...(merged[0].l as string[])].sort(), ['A', 'B', 'Person']);
      assert.deepEqual(plain(merged[0].p), { m: mode, name: ['Tom', 'Thomas'], age: 1n, city: 'X' });
      assert.equal(await value(session, 'MATCH (p:Person {m: $m})-[r]->(:Other {m: $m}) RETURN count(r) AS c', m, mode), 2n);
      assert.equal(await value(session, 'MATCH (p:Person {m: $m}) RETURN count(p) AS c', m, mode), 1n);
    });
    test('extractNode and collapseNode are inverses', async () => {
      const m = { m: mode };
      await run(session, 'CREATE (:E {m: $m, n: 1})-[:FLIGHT {flight: "AB"}]->(:E {m: $m, n: 2})', m, mode);
      const extracted = await run(
        session,
        "MATCH (:E {m: $m})-[r:FLIGHT]->() CALL apoc.refactor.extractNode(r, ['Flight'], 'OUT', 'IN') YIELD output RETURN labels(output) AS l, output.flight AS f",
        m,
        mode,
      );
      assert.deepEqual(extracted, [{ l: ['Flight'], f: 'AB' }]);
      assert.equal(
        await value(session, 'MATCH (:E {m: $m, n: 1})-[:OUT]->(:Flight)-[:IN]->(:E {m: $m, n: 2}) RETURN count(*) AS c', m, mode),
        1n,
      );
      const collapsed = await run(
        session,
        "MATCH (:E {m: $m})-[:OUT]->(f:Flight) CALL apoc.refactor.collapseNode(f, 'FLIGHT') YIELD output RETURN type(output) AS t, output.flight AS f",
        m,
        mode,
      );
      assert.deepEqual(collapsed, [{ t: 'FLIGHT', f: 'AB' }]);
    });
    test('cloneNodes and cloneSubgraph', async () => {
      const m = { m: mode };
      await run(session, "CREATE (:C {m: $m, k: 'a', secret: 1})-[:L]->(:C {m: $m, k: 'b'})", m, mode);
      const clones = await run(
        session,
        "MATCH (n:C {m: $m, k: 'a'}) CALL apoc.refactor.cloneNodes([n], true, ['secret']) YIELD output RETURN properties(output) AS p",
        m,
        mode,
      );
      assert.deepEqual(plain(clones[0].p), { m: mode, k: 'a' });
      assert.equal(await value(session, "MATCH (:C {m: $m, k: 'a'})-[:L]->(:C {m: $m, k: 'b'}) RETURN count(*) AS c", m, mode), 2n);
      await run(
        session,
        'MATCH (n:C {m: $m}) WITH collect(n) AS ns CALL apoc.refactor.cloneSubgraph(ns) YIELD output RETURN count(output)',
        m,
        mode,
      );
      assert.equal(await value(session, 'MATCH (n:C {m: $m}) RETURN count(n) AS c', m, mode), 6n);
    });
    test('rename label, type and properties; normalizeAsBoolean; categorize', async () => {
      const m = { m: mode };
      await run(
        session,
        "CREATE (:Old {m: $m, oldProp: 'Y', genre: 'Drama'})-[:OLDTYPE {op: 1}]->(:Old {m: $m, oldProp: 'N', genre: 'Drama'})",
        m,
        mode,
      );
      const renamed = await run(session, "CALL apoc.refactor.rename.label('Old', 'New') YIELD total RETURN total", undefined, mode);
      assert.ok((renamed[0].total as bigint) >= 2n);
      await run(session, "CALL apoc.refactor.rename.type('OLDTYPE', 'NEWTYPE')", undefined, mode);
      await run(
        session,
        "MATCH (n:New {m: $m}) WITH collect(n) AS ns CALL apoc.refactor.rename.nodeProperty('oldProp', 'flag', ns) YIELD total RETURN total",
        m,
        mode,
      );
      await run(session, "CALL apoc.refactor.rename.typeProperty('op', 'np')", undefined, mode);
      await run(
        session,
        "MATCH (n:New {m: $m}) WITH collect(n) AS ns CALL apoc.refactor.normalizeAsBoolean(ns, 'flag', ['Y'], ['N']) RETURN 1",
        m,
        mode,
      );
      assert.deepEqual(
        await run(session, 'MATCH (a:New {m: $m})-[r:NEWTYPE]->(b:New) RETURN a.flag AS a, b.flag AS b, r.np AS np', m, mode),
        [{ a: true, b: false, np: 1n }],
      );
      await run(session, "CALL apoc.refactor.categorize('genre', 'GENRE', true, 'Genre', 'name', [], 100)", undefined, mode);
      assert.equal(
        await value(session, "MATCH (:New {m: $m})-[:GENRE]->(g:Genre {name: 'Drama'}) RETURN count(DISTINCT g) AS c", m, mode),
        1n,
      );
    });
  });
}
