/**
 * apoc.export.* as streams (`{stream: true}`, no file): JSON lines, CSV, GraphML and Cypher in
 * APOC's shapes, in both transaction modes; the Cypher script re-creates the graph in another
 * database; a file name is refused with APOC's message (file export is not enabled).
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { GraphDB, Session } from '../../src/engine/index.js';
import { MODES, openDb, run, value } from './helpers.js';

let db: GraphDB;
let session: Session;
before(async () => {
  db = await openDb();
  session = db.session();
  await run(session, "CREATE (:User {name: 'Adam', age: 42})-[:KNOWS {since: 2010}]->(:User {name: 'Jim'})");
});
after(() => db.close());

for (const mode of MODES) {
  describe(`apoc.export (${mode})`, () => {
    test('json.all streams one JSON line per node and relationship', async () => {
      const rows = await run(
        session,
        'CALL apoc.export.json.all(null, {stream: true}) YIELD nodes, relationships, format, data RETURN *',
        undefined,
        mode,
      );
      assert.deepEqual([rows[0].nodes, rows[0].relationships, rows[0].format], [2n, 1n, 'json']);
      const lines = (rows[0].data as string).split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
      assert.deepEqual(lines[0], { id: '0', type: 'node', labels: ['User'], properties: { name: 'Adam', age: 42 } });
      assert.deepEqual(lines[2], {
        id: '0',
        type: 'relationship',
        label: 'KNOWS',
        start: { id: '0', labels: ['User'] },
        end: { id: '1', labels: ['User'] },
        properties: { since: 2010 },
      });
    });
    test('csv.all and csv.query', async () => {
      const all = (await value(
        session,
        'CALL apoc.export.csv.all(null, {stream: true}) YIELD data RETURN data',
        undefined,
        mode,
      )) as string;
      assert.deepEqual(all.split('\n'), [
        '"_id","_labels","age","name","_start","_end","_type","since"',
        '"0",":User","42","Adam",,,,',
        '"1",":User",,"Jim",,,,',
        ',,,,"0","1","KNOWS","2010"',
      ]);
      const query = (await value(
        session,
        "CALL apoc.export.csv.query('MATCH (u:User) RETURN u.name AS name ORDER BY name', null, {stream: true}) YIELD data RETURN data",
        undefined,
        mode,
      )) as string;
      assert.equal(query, '"name"\n"Adam"\n"Jim"');
    });
    test('graphml.all', async () => {
      const xml = (await value(
        session,
        'CALL apoc.export.graphml.all(null, {stream: true}) YIELD data RETURN data',
        undefined,
        mode,
      )) as string;
      assert.match(
        xml,
        /<node id="n0" labels=":User"><data key="labels">:User<\/data><data key="name">Adam<\/data><data key="age">42<\/data><\/node>/,
      );
      assert.match(
        xml,
        /<edge id="e0" source="n0" target="n1" label="KNOWS"><data key="label">KNOWS<\/data><data key="since">2010<\/data><\/edge>/,
      );
    });
    test('a file target is refused with APOC message', async () => {
      await assert.rejects(
        run(session, "CALL apoc.export.json.all('out.json', {})", undefined, mode),
        /Export to files not enabled, please set apoc.export.file.enabled=true in your apoc.conf./,
      );
    });
  });
}

test('cypher.all re-creates the graph in another database', async () => {
  const script = (await value(
    session,
    'CALL apoc.export.cypher.all(null, {stream: true}) YIELD cypherStatements RETURN cypherStatements',
  )) as string;
  const other = await openDb();
  try {
    const s = other.session();
    for (const statement of script.split('\n').filter((l) => l !== '' && !l.startsWith(':') && !l.startsWith('CALL db.awaitIndexes')))
      await run(s, statement.replace(/;$/, ''));
    assert.deepEqual(
      await run(s, 'MATCH (a:User)-[r:KNOWS]->(b:User) RETURN a.name AS a, a.age AS age, r.since AS since, b.name AS b, labels(a) AS l'),
      [{ a: 'Adam', age: 42n, since: 2010n, b: 'Jim', l: ['User'] }],
    );
  } finally {
    await other.close();
  }
});
