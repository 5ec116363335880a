/**
 * apoc.util and apoc.meta against APOC's documented examples, in both transaction modes.
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
    `CREATE (keanu:Person {name: 'Keanu Reeves', born: 1964}), (carrie:Person {name: 'Carrie-Anne Moss', born: 1967, tags: ['a']}),
            (matrix:Movie {title: 'The Matrix', released: 1999}),
            (keanu)-[:ACTED_IN {roles: ['Neo']}]->(matrix), (carrie)-[:ACTED_IN {roles: ['Trinity']}]->(matrix)`,
  );
  await run(session, 'CREATE CONSTRAINT movie_title FOR (m:Movie) REQUIRE m.title IS UNIQUE');
});
after(() => db.close());

for (const mode of MODES) {
  describe(`apoc.util (${mode})`, () => {
    test('validate fails in Neo4j form with the formatted message, and passes when false', async () => {
      await assert.rejects(
        run(session, "CALL apoc.util.validate(true, 'wrong %s of %d', ['value', 3])", undefined, mode),
        (e: Error & { code?: string }) => {
          assert.equal(e.code, 'Neo.ClientError.Procedure.ProcedureCallFailed');
          assert.equal(
            e.message,
            'Failed to invoke procedure `apoc.util.validate`: Caused by: java.lang.RuntimeException: wrong value of 3',
          );
          return true;
        },
      );
      assert.deepEqual(await run(session, "CALL apoc.util.validate(false, 'never', []) RETURN 1 AS one", undefined, mode), [{ one: 1n }]);
    });
    test('validatePredicate is true or fails as a function', async () => {
      assert.equal(await value(session, "RETURN apoc.util.validatePredicate(false, 'x', []) AS v", undefined, mode), true);
      await assert.rejects(
        run(
          session,
          "MATCH (p:Person) WHERE apoc.util.validatePredicate(p.born > 1965, '@neo4j/graphql/FORBIDDEN', [0]) RETURN p",
          undefined,
          mode,
        ),
        /Failed to invoke function `apoc.util.validatePredicate`: Caused by: java.lang.RuntimeException: @neo4j\/graphql\/FORBIDDEN/,
      );
    });
    test('hashes and compression', async () => {
      assert.equal(await value(session, "RETURN apoc.util.md5(['ABC']) AS v", undefined, mode), '902fbdd2b1df0c4f70b4a5d23525e932');
      assert.equal(
        await value(session, "RETURN apoc.util.sha1(['ABC']) AS v", undefined, mode),
        '3c01bdbb26f358bab27f267924aa2c9a03fcfdb8',
      );
      assert.equal(
        await value(session, "RETURN apoc.util.sha256(['ABC']) AS v", undefined, mode),
        'b5d4045c3f466fa91fe2cc6abe79232a1a57cdf104f7a26e716e0a1e2789df78',
      );
      assert.equal(
        await value(
          session,
          "RETURN apoc.util.decompress(apoc.util.compress('Mätrix', {compression: 'DEFLATE'}), {compression: 'DEFLATE'}) AS v",
          undefined,
          mode,
        ),
        'Mätrix',
      );
      await assert.rejects(
        run(session, "RETURN apoc.util.compress('x', {compression: 'BZIP2'}) AS v", undefined, mode),
        /BZIP2 is not available/,
      );
    });
    test('sleep waits at least the given time', async () => {
      const start = performance.now();
      await run(session, 'CALL apoc.util.sleep(30)', undefined, mode);
      assert.ok(performance.now() - start >= 29);
    });
  });

  describe(`apoc.meta (${mode})`, () => {
    test('data lists node properties, relationships and relationship properties', async () => {
      const rows = await run(
        session,
        'CALL apoc.meta.data() YIELD label, property, type, elementType, other, unique, array RETURN * ORDER BY elementType, label, property',
        undefined,
        mode,
      );
      const compact = rows.map(
        (r) =>
          `${r.elementType as string} ${r.label as string}.${r.property as string}:${r.type as string}${r.unique ? ' unique' : ''}${r.array ? ' array' : ''}`,
      );
      assert.deepEqual(compact, [
        'node Movie.released:INTEGER',
        'node Movie.title:STRING unique',
        'node Person.ACTED_IN:RELATIONSHIP array',
        'node Person.born:INTEGER',
        'node Person.name:STRING',
        'node Person.tags:LIST array',
        'relationship ACTED_IN.roles:LIST array',
      ]);
      assert.deepEqual(rows.find((r) => r.property === 'ACTED_IN')?.other, ['Movie']);
    });
    test('schema describes labels and relationship types', async () => {
      const schema = plain(await value(session, 'CALL apoc.meta.schema() YIELD value RETURN value', undefined, mode)) as Record<
        string,
        Record<string, unknown>
      >;
      assert.equal(schema.Person.type, 'node');
      assert.equal(schema.Person.count, 2n);
      assert.deepEqual((schema.Person.relationships as Record<string, unknown>).ACTED_IN, {
        count: 2n,
        direction: 'out',
        labels: ['Movie'],
        properties: { roles: { existence: false, type: 'LIST', indexed: false, unique: false, array: true } },
      });
      assert.deepEqual((schema.Movie.properties as Record<string, unknown>).title, {
        existence: false,
        type: 'STRING',
        indexed: true,
        unique: true,
        array: false,
      });
      assert.equal(schema.ACTED_IN.type, 'relationship');
    });
    test('graphSample and graph return virtual nodes and relationships with counts', async () => {
      const rows = await run(
        session,
        "CALL apoc.meta.graphSample() YIELD nodes, relationships RETURN [n IN nodes | n.name + ':' + toString(n.count)] AS nodes, [rel IN relationships | {name: apoc.any.property(rel, 'type'), count: apoc.any.property(rel, 'count')}] AS rels",
        undefined,
        mode,
      );
      assert.deepEqual([...(rows[0].nodes as string[])].sort(), ['Movie:1', 'Person:2']);
      assert.deepEqual(plain(rows[0].rels), [{ name: 'ACTED_IN', count: 2n }]);
    });
    test('stats counts labels and relationship types', async () => {
      const rows = await run(
        session,
        'CALL apoc.meta.stats() YIELD labelCount, relTypeCount, nodeCount, relCount, labels, relTypesCount RETURN *',
        undefined,
        mode,
      );
      assert.deepEqual(plain(rows[0].labels), { Person: 2n, Movie: 1n });
      assert.deepEqual(plain(rows[0].relTypesCount), { ACTED_IN: 2n });
      assert.equal(rows[0].nodeCount, 3n);
      assert.equal(rows[0].relCount, 2n);
    });
    test('nodeTypeProperties and relTypeProperties', async () => {
      const rows = await run(
        session,
        "CALL apoc.meta.nodeTypeProperties() YIELD nodeType, propertyName, propertyTypes, mandatory WHERE nodeType = ':`Person`' RETURN * ORDER BY propertyName",
        undefined,
        mode,
      );
      assert.deepEqual(
        rows.map((r) => [r.propertyName, r.propertyTypes, r.mandatory]),
        [
          ['born', ['Long'], true],
          ['name', ['String'], true],
          ['tags', ['StringArray'], false],
        ],
      );
      const rels = await run(
        session,
        'CALL apoc.meta.relTypeProperties() YIELD relType, sourceNodeLabels, targetNodeLabels, propertyName, propertyTypes RETURN *',
        undefined,
        mode,
      );
      assert.deepEqual(
        plain(rels.map((r) => [r.relType, r.sourceNodeLabels, r.targetNodeLabels, r.propertyName, r.propertyTypes]) as never),
        [[':`ACTED_IN`', ['Person'], ['Movie'], 'roles', ['StringArray']]],
      );
    });
    test('cypher types and node counts', async () => {
      const row = (
        await run(
          session,
          "RETURN apoc.meta.cypher.type(1) AS i, apoc.meta.cypher.type('a') AS s, apoc.meta.cypher.type([1, 2]) AS l, apoc.meta.cypher.type(datetime()) AS d, apoc.meta.cypher.isType(1.5, 'FLOAT') AS f, apoc.meta.nodes.count(['Person', 'Movie']) AS c",
          undefined,
          mode,
        )
      )[0];
      assert.deepEqual(row, { i: 'INTEGER', s: 'STRING', l: 'LIST OF INTEGER', d: 'DATE_TIME', f: true, c: 3n });
    });
  });
}
