/**
 * apoc.load.json / jsonArray / jsonParams from an allowlisted local HTTP URL (read through the
 * engine's confined opener) and from bytes, in both transaction modes; file URLs and URLs outside
 * the allowlist are refused with clear errors.
 */
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { GraphDB, type Session } from '../../src/engine/index.js';
import { MODES, plain, run } from './helpers.js';

let db: GraphDB;
let session: Session;
let server: Server;
let base: string;
before(async () => {
  server = createServer((req, res) => {
    res.setHeader('content-type', 'application/json');
    if (req.url === '/person.json') res.end('{"name": "Alice", "address": {"city": "Malmö"}, "ids": [1, 9007199254740993]}');
    else if (req.url === '/people.json') res.end('[{"name": "A"}, {"name": "B"}]');
    else if (req.url === '/lines.json') res.end('{"n": 1}\n{"n": 2}\n');
    else if (req.url === '/books.xml')
      res.end(
        '<?xml version="1.0"?><catalog><book id="b1"><title>XML &amp; You</title></book><book id="b2"><title>B</title></book></catalog>',
      );
    else {
      res.statusCode = 404;
      res.end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  db = await GraphDB.open({ search: false, files: { urlAllowlist: [base] } });
  session = db.session();
});
after(async () => {
  await db.close();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

for (const mode of MODES) {
  describe(`apoc.load (${mode})`, () => {
    test('load.json reads a document, an array and JSON lines; path selects a part', async () => {
      const person = await run(session, 'CALL apoc.load.json($url) YIELD value RETURN value', { url: `${base}person.json` }, mode);
      assert.deepEqual(plain(person[0].value), { name: 'Alice', address: { city: 'Malmö' }, ids: [1n, 9007199254740993n] });
      const people = await run(
        session,
        'CALL apoc.load.json($url) YIELD value RETURN value.name AS n',
        { url: `${base}people.json` },
        mode,
      );
      assert.deepEqual(people, [{ n: 'A' }, { n: 'B' }]);
      const lines = await run(session, 'CALL apoc.load.json($url) YIELD value RETURN value.n AS n', { url: `${base}lines.json` }, mode);
      assert.deepEqual(lines, [{ n: 1n }, { n: 2n }]);
      const city = await run(
        session,
        "CALL apoc.load.json($url, '$.address') YIELD value RETURN value.city AS c",
        { url: `${base}person.json` },
        mode,
      );
      assert.deepEqual(city, [{ c: 'Malmö' }]);
    });
    test('jsonArray yields the elements; jsonParams without headers reads like load.json', async () => {
      const ids = await run(
        session,
        "CALL apoc.load.jsonArray($url, '$.ids') YIELD value RETURN value",
        { url: `${base}person.json` },
        mode,
      );
      assert.deepEqual(ids, [{ value: 1n }, { value: 9007199254740993n }]);
      const params = await run(
        session,
        'CALL apoc.load.jsonParams($url, {}, null) YIELD value RETURN value.name AS n',
        { url: `${base}person.json` },
        mode,
      );
      assert.deepEqual(params, [{ n: 'Alice' }]);
      await assert.rejects(
        run(
          session,
          "CALL apoc.load.jsonParams($url, {Authorization: 'x'}, null) YIELD value RETURN value",
          { url: `${base}person.json` },
          mode,
        ),
        /headers and payloads are not sent/,
      );
    });
    test('bytes are read directly; file URLs and other hosts are refused', async () => {
      const bytes = await run(
        session,
        "CALL apoc.load.json(apoc.util.compress('{\"a\": 1}', {compression: 'NONE'})) YIELD value RETURN value.a AS a",
        undefined,
        mode,
      );
      assert.deepEqual(bytes, [{ a: 1n }]);
      await assert.rejects(
        run(session, "CALL apoc.load.json('file:///etc/passwd') YIELD value RETURN value", undefined, mode),
        /Import from files not enabled, please set apoc.import.file.enabled=true/,
      );
      await assert.rejects(
        run(session, "CALL apoc.load.json('http://192.0.2.1/x.json') YIELD value RETURN value", undefined, mode),
        /load_url_allowlist/,
      );
      assert.deepEqual(
        await run(
          session,
          "CALL apoc.load.json('http://192.0.2.1/x.json', '', {failOnError: false}) YIELD value RETURN count(*) AS c",
          undefined,
          mode,
        ),
        [{ c: 0n }],
      );
    });
  });
}

describe('apoc.xml.parse, apoc.load.xml and apoc.import.json', () => {
  test('XML as APOC maps, selected by path', async () => {
    const parsed = await run(
      session,
      'RETURN apoc.xml.parse(\'<catalog><book id="b1"><title>XML &amp; You</title></book><book id="b2"/></catalog>\') AS x',
    );
    assert.deepEqual(plain(parsed[0].x), {
      _type: 'catalog',
      _children: [
        { _type: 'book', id: 'b1', _children: [{ _type: 'title', _text: 'XML & You' }] },
        { _type: 'book', id: 'b2' },
      ],
    });
    const books = await run(
      session,
      "CALL apoc.load.xml($url, '/catalog/book') YIELD value RETURN value.id AS id, value._children[0]._text AS title",
      { url: `${base}books.xml` },
    );
    assert.deepEqual(books, [
      { id: 'b1', title: 'XML & You' },
      { id: 'b2', title: 'B' },
    ]);
  });
  test('import.json re-creates what export.json wrote', async () => {
    const other = await GraphDB.open({ search: false });
    try {
      const s = other.session();
      await run(s, "CREATE (:U {name: 'a'})-[:K {w: 1}]->(:U {name: 'b'})");
      const data = (await run(s, 'CALL apoc.export.json.all(null, {stream: true}) YIELD data RETURN data'))[0].data;
      await run(s, 'MATCH (n) DETACH DELETE n');
      const counts = await run(
        s,
        "CALL apoc.import.json(apoc.util.compress($data, {compression: 'NONE'})) YIELD nodes, relationships RETURN nodes, relationships",
        { data },
      );
      assert.deepEqual(counts, [{ nodes: 2n, relationships: 1n }]);
      assert.deepEqual(await run(s, 'MATCH (a:U)-[k:K]->(b:U) RETURN a.name AS a, k.w AS w, b.name AS b'), [{ a: 'a', w: 1n, b: 'b' }]);
    } finally {
      await other.close();
    }
  });
  test('import.graphml re-creates what export.graphml wrote (labels with readLabels)', async () => {
    const other = await GraphDB.open({ search: false });
    try {
      const s = other.session();
      await run(s, "CREATE (:U {name: 'a', n: 1})-[:K {w: 1}]->(:U {name: 'b'})");
      const data = (await run(s, 'CALL apoc.export.graphml.all(null, {stream: true}) YIELD data RETURN data'))[0].data;
      await run(s, 'MATCH (n) DETACH DELETE n');
      const counts = await run(
        s,
        "CALL apoc.import.graphml(apoc.util.compress($data, {compression: 'NONE'}), {readLabels: true}) YIELD nodes, relationships RETURN nodes, relationships",
        { data },
      );
      assert.deepEqual(counts, [{ nodes: 2n, relationships: 1n }]);
      assert.deepEqual(await run(s, 'MATCH (a:U)-[k:K]->(b:U) RETURN a.name AS a, k.w AS w, b.name AS b'), [{ a: 'a', w: '1', b: 'b' }]);
    } finally {
      await other.close();
    }
  });
});
