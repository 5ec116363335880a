/**
 * Graph namespaces against APOC's documented behaviour: path expansion and subgraphs,
 * neighbors, algo, nodes, atomic, lock, schema, stats, diff, data, hashing, spatial, search,
 * graph; in both transaction modes where they read or write the store.
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
  await run(
    session,
    `CREATE (a:City {name: 'a', latitude: 0.0, longitude: 0.0}), (b:City {name: 'b', latitude: 0.0, longitude: 1.0}),
            (c:City {name: 'c', latitude: 0.0, longitude: 2.0}), (d:Closed:City {name: 'd', latitude: 0.0, longitude: 3.0}),
            (a)-[:ROAD {w: 1}]->(b), (b)-[:ROAD {w: 2}]->(c), (a)-[:ROAD {w: 10}]->(c), (c)-[:ROAD {w: 1}]->(d), (c)-[:ROAD {w: 1}]->(a)`,
  );
});
after(() => db.close());

const names = (rows: Record<string, unknown>[], key = 'p') => rows.map((r) => (r[key] as string[]).join(''));

for (const mode of MODES) {
  describe(`path, neighbors and algo (${mode})`, () => {
    test('expand and expandConfig follow relationship and label filters', async () => {
      const rows = await run(
        session,
        "MATCH (a:City {name: 'a'}) CALL apoc.path.expand(a, 'ROAD>', '-Closed', 1, 2) YIELD path RETURN [n IN nodes(path) | n.name] AS p ORDER BY length(path), p",
        undefined,
        mode,
      );
      assert.deepEqual(names(rows), ['ab', 'ac', 'abc', 'aca']);
      const ends = await run(
        session,
        "MATCH (a:City {name: 'a'}) CALL apoc.path.expandConfig(a, {relationshipFilter: 'ROAD>', labelFilter: '>Closed', uniqueness: 'NODE_PATH'}) YIELD path RETURN [n IN nodes(path) | n.name] AS p ORDER BY length(path)",
        undefined,
        mode,
      );
      assert.deepEqual(names(ends), ['acd', 'abcd']);
    });
    test('subgraphNodes, subgraphAll and spanningTree visit each node once', async () => {
      const nodes = await run(
        session,
        "MATCH (a:City {name: 'a'}) CALL apoc.path.subgraphNodes(a, {relationshipFilter: 'ROAD>', maxLevel: 1}) YIELD node RETURN node.name AS n ORDER BY n",
        undefined,
        mode,
      );
      assert.deepEqual(
        nodes.map((r) => r.n),
        ['a', 'b', 'c'],
      );
      const all = await run(
        session,
        "MATCH (a:City {name: 'a'}) CALL apoc.path.subgraphAll(a, {relationshipFilter: 'ROAD>'}) YIELD nodes, relationships RETURN size(nodes) AS n, size(relationships) AS r",
        undefined,
        mode,
      );
      assert.deepEqual(all, [{ n: 4n, r: 5n }]);
      const tree = await run(
        session,
        "MATCH (a:City {name: 'a'}) CALL apoc.path.spanningTree(a, {relationshipFilter: 'ROAD>'}) YIELD path RETURN count(path) AS c",
        undefined,
        mode,
      );
      assert.deepEqual(tree, [{ c: 4n }]);
    });
    test('neighbors by hop', async () => {
      const rows = await run(
        session,
        "MATCH (a:City {name: 'a'}) CALL apoc.neighbors.byhop(a, 'ROAD>', 2) YIELD nodes RETURN [n IN nodes | n.name] AS p",
        undefined,
        mode,
      );
      assert.deepEqual(
        rows.map((r) => [...(r.p as string[])].sort().join('')),
        ['bc', 'd'],
      );
      assert.equal(
        await value(
          session,
          "MATCH (a:City {name: 'a'}) CALL apoc.neighbors.tohop.count(a, 'ROAD>', 2) YIELD value RETURN value",
          undefined,
          mode,
        ),
        3n,
      );
    });
    test('dijkstra finds the cheapest path, allSimplePaths every simple path', async () => {
      const rows = await run(
        session,
        "MATCH (a:City {name: 'a'}), (d:City {name: 'd'}) CALL apoc.algo.dijkstra(a, d, 'ROAD>', 'w') YIELD path, weight RETURN [n IN nodes(path) | n.name] AS p, weight",
        undefined,
        mode,
      );
      assert.deepEqual(rows, [{ p: ['a', 'b', 'c', 'd'], weight: 4 }]);
      const star = await run(
        session,
        "MATCH (a:City {name: 'a'}), (d:City {name: 'd'}) CALL apoc.algo.aStar(a, d, 'ROAD>', 'w', 'latitude', 'longitude') YIELD weight RETURN weight",
        undefined,
        mode,
      );
      assert.deepEqual(star, [{ weight: 4 }]);
      const all = await run(
        session,
        "MATCH (a:City {name: 'a'}), (d:City {name: 'd'}) CALL apoc.algo.allSimplePaths(a, d, 'ROAD>', 5) YIELD path RETURN [n IN nodes(path) | n.name] AS p ORDER BY length(path)",
        undefined,
        mode,
      );
      assert.deepEqual(names(all), ['acd', 'abcd']);
      assert.equal(
        await value(
          session,
          'MATCH (n:City) WITH collect(n) AS ns CALL apoc.algo.cover(ns) YIELD rel RETURN count(rel) AS c',
          undefined,
          mode,
        ),
        5n,
      );
    });
  });

  describe(`nodes, atomic, lock and schema (${mode})`, () => {
    test('nodes.cycles, connected, isDense and link', async () => {
      assert.deepEqual(
        await run(
          session,
          "MATCH (a:City {name: 'a'}) CALL apoc.nodes.cycles([a]) YIELD path RETURN length(path) AS l ORDER BY l",
          undefined,
          mode,
        ),
        [{ l: 2n }, { l: 3n }],
      );
      assert.equal(
        await value(
          session,
          "MATCH (a:City {name: 'a'}), (b:City {name: 'b'}) RETURN apoc.nodes.connected(a, b, 'ROAD>') AS v",
          undefined,
          mode,
        ),
        true,
      );
      assert.equal(await value(session, "MATCH (a:City {name: 'a'}) RETURN apoc.nodes.isDense(a) AS v", undefined, mode), false);
      await run(
        session,
        "CREATE (x:L {m: $m}), (y:L {m: $m}), (z:L {m: $m}) WITH [x, y, z] AS ns CALL apoc.nodes.link(ns, 'NEXT') RETURN 1",
        { m: mode },
        mode,
      );
      assert.equal(await value(session, 'MATCH (:L {m: $m})-[r:NEXT]->(:L {m: $m}) RETURN count(r) AS c', { m: mode }, mode), 2n);
    });
    test('atomic updates return old and new values', async () => {
      await run(session, 'CREATE (:Counter {m: $m, v: 1, s: "a", l: [1, 2]})', { m: mode }, mode);
      const rows = await run(
        session,
        `MATCH (n:Counter {m: $m})
         CALL apoc.atomic.add(n, 'v', 5) YIELD oldValue AS a0, newValue AS a1
         CALL apoc.atomic.subtract(n, 'v', 2) YIELD newValue AS s1
         CALL apoc.atomic.concat(n, 's', 'b') YIELD newValue AS c1
         CALL apoc.atomic.insert(n, 'l', 1, 9) YIELD newValue AS i1
         CALL apoc.atomic.remove(n, 'l', 0) YIELD newValue AS r1
         CALL apoc.atomic.update(n, 'v', 'n.v * 10') YIELD newValue AS u1
         RETURN a0, a1, s1, c1, i1, r1, u1`,
        { m: mode },
        mode,
      );
      assert.deepEqual(rows, [{ a0: 1n, a1: 6n, s1: 4n, c1: 'ab', i1: [1n, 9n, 2n], r1: [9n, 2n], u1: 40n }]);
      assert.deepEqual(await run(session, 'MATCH (n:Counter {m: $m}) CALL apoc.lock.nodes([n]) RETURN n.v AS v', { m: mode }, mode), [
        { v: 40n },
      ]);
    });
    test('schema.assert creates, keeps and drops; listings and checks see the result', async () => {
      const label = `S${mode === 'explicit' ? 'e' : 'a'}`;
      const created = await run(
        session,
        `CALL apoc.schema.assert({${label}: ['v']}, {${label}: ['k']}, false) YIELD label, key, unique, action RETURN * ORDER BY key`,
        undefined,
        mode,
      );
      assert.deepEqual(created, [
        { label, key: 'k', unique: true, action: 'CREATED' },
        { label, key: 'v', unique: false, action: 'CREATED' },
      ]);
      const again = await run(
        session,
        `CALL apoc.schema.assert({${label}: ['v']}, {${label}: ['k']}, false) YIELD action RETURN collect(action) AS a`,
        undefined,
        mode,
      );
      assert.deepEqual(again, [{ a: ['KEPT', 'KEPT'] }]);
      assert.deepEqual(
        await run(
          session,
          `RETURN apoc.schema.node.indexExists('${label}', ['v']) AS i, apoc.schema.node.constraintExists('${label}', ['k']) AS c`,
          undefined,
          mode,
        ),
        [{ i: true, c: true }],
      );
      const listed = await run(
        session,
        `CALL apoc.schema.nodes({labels: ['${label}']}) YIELD label, properties, type RETURN * ORDER BY type`,
        undefined,
        mode,
      );
      assert.deepEqual(listed, [
        { label, properties: ['v'], type: 'INDEX' },
        { label, properties: ['k'], type: 'UNIQUENESS' },
      ]);
    });
    test('schema.properties.distinct and distinctCount', async () => {
      assert.deepEqual(
        await value(session, "CALL apoc.schema.properties.distinct('City', 'latitude') YIELD value RETURN value", undefined, mode),
        [0],
      );
      const counts = await run(
        session,
        "CALL apoc.schema.properties.distinctCount('Closed', 'name') YIELD label, key, value, count RETURN *",
        undefined,
        mode,
      );
      assert.deepEqual(counts, [{ label: 'Closed', key: 'name', value: 'd', count: 1n }]);
    });
  });
}

describe('stats, diff, data, hashing, spatial, search, graph', () => {
  test('documented results', async () => {
    const degrees = await run(session, "CALL apoc.stats.degrees('ROAD>') YIELD type, direction, total, max, min RETURN *");
    assert.deepEqual(degrees, [{ type: 'ROAD', direction: 'OUTGOING', total: 5n, max: 2n, min: 0n }]);
    const diff = plain(
      await value(session, "MATCH (a:City {name: 'a'}), (d:City {name: 'd'}) RETURN apoc.diff.nodes(a, d) AS v"),
    ) as Record<string, unknown>;
    assert.deepEqual(diff, {
      leftOnly: {},
      rightOnly: {},
      inCommon: { latitude: 0 },
      different: { name: { left: 'a', right: 'd' }, longitude: { left: 0, right: 3 } },
    });
    assert.deepEqual(plain(await value(session, "RETURN apoc.data.url('https://user:pw@example.com:8443/a/b?x=1#top') AS v")), {
      protocol: 'https',
      user: 'user:pw',
      host: 'example.com',
      port: 8443n,
      path: '/a/b',
      file: '/a/b?x=1',
      query: 'x=1',
      anchor: 'top',
    });
    const same = await value(
      session,
      'CREATE (x:F {a: 1}), (y:F {a: 1}), (z:F {a: 2}) RETURN [apoc.hashing.fingerprint(x) = apoc.hashing.fingerprint(y), apoc.hashing.fingerprint(x) = apoc.hashing.fingerprint(z)] AS v',
    );
    assert.deepEqual(same, [true, false]);
    assert.match((await value(session, 'RETURN apoc.hashing.fingerprintGraph() AS v')) as string, /^[0-9A-F]{32}$/);
    await assert.rejects(
      run(session, "CALL apoc.spatial.geocodeOnce('Malmö') YIELD latitude RETURN latitude"),
      /external geocoding service/,
    );
    const sorted = await run(
      session,
      "MATCH p1 = (:City {name: 'a'})-->(:City {name: 'c'}), p2 = (:City {name: 'a'})-->(:City {name: 'b'}) CALL apoc.spatial.sortByDistance([p1, p2]) YIELD path, distance RETURN [n IN nodes(path) | n.name] AS p, round(distance) AS km",
    );
    assert.deepEqual(sorted, [
      { p: ['a', 'b'], km: 111 },
      { p: ['a', 'c'], km: 222 },
    ]);
    const found = await run(session, "CALL apoc.search.node({City: 'name'}, 'STARTS WITH', 'c') YIELD node RETURN node.name AS n");
    assert.deepEqual(found, [{ n: 'c' }]);
    const reduced = await run(session, "CALL apoc.search.nodeReduced('{\"City\": [\"name\"]}', '=', 'd') YIELD labels, values RETURN *");
    assert.deepEqual(
      reduced.map((r) => [r.labels, plain(r.values)]),
      [[['City', 'Closed'], { name: 'd' }]],
    );
    const graph = plain(
      await value(
        session,
        "MATCH p = (:City {name: 'a'})-->(:City {name: 'b'}) CALL apoc.graph.fromPath(p, 'trip', {k: 1}) YIELD graph RETURN {name: graph.name, n: size(graph.nodes), r: size(graph.relationships), props: graph.properties} AS v",
      ),
    );
    assert.deepEqual(graph, { name: 'trip', n: 2n, r: 1n, props: { k: 1n } });
    const doc = plain(
      await value(
        session,
        `CALL apoc.graph.fromDocument('{"id": 1, "type": "Artist", "name": "Genesis", "albums": [{"type": "Album", "id": 1, "title": "From Genesis to Revelation"}]}', {write: true}) YIELD graph RETURN size(graph.nodes) AS v`,
      ),
    );
    assert.equal(doc, 2n);
    assert.equal(
      await value(session, "MATCH (:Artist {name: 'Genesis'})-[:ALBUMS]->(a:Album) RETURN a.title AS v"),
      'From Genesis to Revelation',
    );
    const invalid = await run(session, 'CALL apoc.graph.validateDocument(\'[{"id": 1}]\') YIELD row RETURN row');
    assert.match(String((invalid[0].row as Map<string, unknown>).get('message')), /must have `type` as label-field name/);
  });
});
