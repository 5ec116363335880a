/**
 * Cypher 25's `SEARCH` subclause of MATCH over vector indexes: the same hits and scores as
 * `db.index.vector.queryNodes` / `queryRelationships` with the same k, SCORE AS, OPTIONAL MATCH,
 * the MATCH restrictions and errors Neo4j documents, `CYPHER 5` rejecting it, and neo4j-driver.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import neo4j from 'neo4j-driver';
import { GraphDB } from '../../src/engine/index.js';
import type { CypherValue } from '../../src/engine/values/index.js';
import { startBoltServer } from '../../src/server/bolt/index.js';

describe('the SEARCH subclause', () => {
  let db: GraphDB;

  async function rows(query: string, parameters: Record<string, unknown> = {}): Promise<CypherValue[][]> {
    const result = await db.session({}).run(query, parameters as never);
    return (await result.pull(-1)).records as CypherValue[][];
  }

  before(async () => {
    db = await GraphDB.open({ search: { embedder: null, eager: false } });
    await rows(
      "CREATE VECTOR INDEX plots FOR (m:Movie) ON m.embedding OPTIONS {indexConfig: {`vector.dimensions`: 3, `vector.similarity_function`: 'cosine'}}",
    );
    await rows(
      "CREATE VECTOR INDEX reviews FOR ()-[r:REVIEWED]-() ON r.embedding OPTIONS {indexConfig: {`vector.dimensions`: 2, `vector.similarity_function`: 'euclidean'}}",
    );
    await rows('CREATE FULLTEXT INDEX titles FOR (m:Movie) ON EACH [m.title]');
    await rows(
      "CREATE (a:Movie {title: 'Snow White', year: 1937, embedding: [1.0, 2.0, 3.0]}), (b:Movie {title: 'Lion King', year: 1994, embedding: [2.0, 5.0, 2.0]})," +
        " (:Movie {title: 'Frozen', year: 2013, embedding: [1.0, 3.0, 3.0]}), (:Movie {title: 'Up', year: 2009, embedding: [-1.0, 0.5, 4.0]})," +
        " (p:Person {name: 'Ann'}), (p)-[:REVIEWED {embedding: [1.0, 0.0]}]->(a), (p)-[:REVIEWED {embedding: [0.0, 1.0]}]->(b)",
    );
  });
  after(async () => {
    await db.close();
  });

  it('returns the hits and scores of db.index.vector.queryNodes with the same k', async () => {
    const parameters = { embedding: [1, 2, 2.5] };
    const expected = await rows(
      'CALL db.index.vector.queryNodes("plots", 3, $embedding) YIELD node, score RETURN node.title, score',
      parameters,
    );
    assert.equal(expected.length, 3);
    const actual = await rows(
      'MATCH (m:Movie) SEARCH m IN (VECTOR INDEX plots FOR $embedding LIMIT 3) SCORE AS score RETURN m.title, score',
      parameters,
    );
    assert.deepEqual(actual, expected);
    assert.deepEqual(
      await rows('CYPHER 25 MATCH (m:Movie) SEARCH m IN (VECTOR INDEX plots FOR $embedding LIMIT 2) RETURN m.title', parameters),
      expected.slice(0, 2).map((row) => [row[0]]),
    );
  });

  it('keeps only the hits that match the pattern and the WHERE of the MATCH', async () => {
    const hits = await rows(
      'MATCH (m:Movie {title: "Frozen"}) SEARCH m IN (VECTOR INDEX plots FOR [1, 2, 3] LIMIT 4) SCORE AS s RETURN m.title',
    );
    assert.deepEqual(hits, [['Frozen']]);
    const recent = await rows(
      'MATCH (m:Movie) SEARCH m IN (VECTOR INDEX plots FOR [1, 2, 3] LIMIT 4) SCORE AS s WHERE m.year > 1990 RETURN m.title ORDER BY s DESC',
    );
    const all = await rows('CALL db.index.vector.queryNodes("plots", 4, [1, 2, 3]) YIELD node WHERE node.year > 1990 RETURN node.title');
    assert.deepEqual(recent, all);
  });

  it('searches relationship vector indexes', async () => {
    const expected = await rows(
      'CALL db.index.vector.queryRelationships("reviews", 1, [0.9, 0.1]) YIELD relationship, score RETURN relationship.embedding, score',
    );
    const actual = await rows(
      'MATCH ()-[r:REVIEWED]->() SEARCH r IN (VECTOR INDEX reviews FOR [0.9, 0.1] LIMIT 1) SCORE AS score RETURN r.embedding, score',
    );
    assert.deepEqual(actual, expected);
    assert.deepEqual(actual[0][0], [1, 0]);
  });

  it('yields a row of nulls under OPTIONAL MATCH when nothing matches', async () => {
    assert.deepEqual(
      await rows(
        'UNWIND [1, 2] AS i OPTIONAL MATCH (m:Movie {title: "Nope"}) SEARCH m IN (VECTOR INDEX plots FOR [1, 2, 3] LIMIT 2) SCORE AS s RETURN i, m, s',
      ),
      [
        [1n, null, null],
        [2n, null, null],
      ],
    );
    const found = await rows('OPTIONAL MATCH (m:Movie) SEARCH m IN (VECTOR INDEX plots FOR [1, 2, 3] LIMIT 1) RETURN m.title');
    assert.deepEqual(found, [['Snow White']]);
  });

  it('is Cypher 25 only: CYPHER 5 rejects it as a syntax error', async () => {
    await assert.rejects(
      rows('CYPHER 5 MATCH (m:Movie) SEARCH m IN (VECTOR INDEX plots FOR [1, 2, 3] LIMIT 1) RETURN m'),
      (error: Error & { code?: string }) =>
        error.code === 'Neo.ClientError.Statement.SyntaxError' && /Invalid input 'SEARCH'/.test(error.message),
    );
  });

  it('rejects what Neo4j rejects with clear errors', async () => {
    const syntax = (pattern: RegExp) => (error: Error & { code?: string }) =>
      error.code === 'Neo.ClientError.Statement.SyntaxError' && pattern.test(error.message);
    await assert.rejects(rows('MATCH (m:Movie) SEARCH m IN (VECTOR INDEX plots FOR [1, 2, 3]) RETURN m'), syntax(/expected 'LIMIT'/));
    await assert.rejects(
      rows('MATCH (m:Movie)-[r]->() SEARCH m IN (VECTOR INDEX plots FOR [1, 2, 3] LIMIT 1) RETURN m'),
      syntax(/can only have one bound variable/),
    );
    await assert.rejects(
      rows('MATCH (m:Movie), () SEARCH m IN (VECTOR INDEX plots FOR [1, 2, 3] LIMIT 1) RETURN m'),
      syntax(/single node or relationship pattern and no selectors/),
    );
    await assert.rejects(
      rows('MATCH (m:Movie) SEARCH x IN (VECTOR INDEX plots FOR [1, 2, 3] LIMIT 1) RETURN m'),
      syntax(/binding variable `x` must be a variable of the pattern/),
    );
    await assert.rejects(
      rows('MATCH (m:Movie) SEARCH m IN (VECTOR INDEX plots FOR [1, 2, 3] WHERE m.year > 1 LIMIT 1) RETURN m'),
      syntax(/WHERE inside SEARCH .* is not supported/),
    );
    await assert.rejects(
      rows('MATCH (m:Movie) SEARCH m IN (VECTOR INDEX titles FOR [1, 2, 3] LIMIT 1) RETURN m'),
      /There is no such vector schema index: titles/,
    );
    await assert.rejects(
      rows('MATCH (m:Movie) SEARCH m IN (VECTOR INDEX reviews FOR [1, 2] LIMIT 1) RETURN m'),
      /There is no such vector schema index: reviews/,
    );
  });

  it('works through neo4j-driver over Bolt', async () => {
    const server = await startBoltServer({ port: 0, host: '127.0.0.1', engine: db });
    const driver = neo4j.driver(`bolt://127.0.0.1:${server.port}`, neo4j.auth.basic('neo4j', 'any'));
    try {
      const embedding = [1, 2, 2.5];
      const viaProcedure = await driver.executeQuery(
        'CALL db.index.vector.queryNodes("plots", 2, $embedding) YIELD node, score RETURN node.title AS title, score',
        { embedding },
      );
      const viaSearch = await driver.executeQuery(
        'MATCH (m:Movie) SEARCH m IN (VECTOR INDEX plots FOR $embedding LIMIT 2) SCORE AS score RETURN m.title AS title, score',
        { embedding },
      );
      assert.deepEqual(
        viaSearch.records.map((r) => [r.get('title') as string, r.get('score') as number]),
        viaProcedure.records.map((r) => [r.get('title') as string, r.get('score') as number]),
      );
      assert.equal(viaSearch.records.length, 2);
      await assert.rejects(
        driver.executeQuery('CYPHER 5 MATCH (m:Movie) SEARCH m IN (VECTOR INDEX plots FOR $embedding LIMIT 2) RETURN m', { embedding }),
        (error: Error & { code?: string }) => error.code === 'Neo.ClientError.Statement.SyntaxError',
      );
    } finally {
      await driver.close();
      await server.close();
    }
  });
});
