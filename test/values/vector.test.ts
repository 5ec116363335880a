/**
 * The VECTOR value type of Cypher 25: `vector()`, the vector functions, type predicates and
 * property type constraints, storage across a reopen, export/import JSON, vector indexes over
 * VECTOR properties, the `CYPHER 5` dialect, and neo4j-driver over Bolt 6 (Vector structures) and
 * Bolt 5.8 (Neo4j's placeholder map).
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import neo4j, { type Driver } from 'neo4j-driver';
import { GraphDB } from '../../src/engine/index.js';
import { decodePropertyValue, encodePropertyValue } from '../../src/engine/storage/index.js';
import { decodeValue, encodeValue } from '../../src/engine/transfer/index.js';
import { CypherVector, formatLiteral, makeVector, type CypherValue } from '../../src/engine/values/index.js';
import { startBoltServer, type BoltServer } from '../../src/server/bolt/index.js';

describe('the VECTOR type', () => {
  let dir: string;
  let db: GraphDB;

  async function rows(query: string, parameters: Record<string, unknown> = {}): Promise<CypherValue[][]> {
    const session = db.session({});
    const result = await session.run(query, parameters as never);
    const { records } = await result.pull(-1);
    return records as CypherValue[][];
  }
  async function one(query: string, parameters: Record<string, unknown> = {}): Promise<CypherValue> {
    return (await rows(query, parameters))[0][0]!;
  }
  async function text(query: string): Promise<string[]> {
    return (await rows(query))[0].map((v) => formatLiteral(v));
  }

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'graphdb-vector-'));
    db = await GraphDB.open({ dataDir: dir, search: false });
  });
  after(async () => {
    await db.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('constructs vectors from lists and text, coercing to the coordinate type', async () => {
    assert.deepEqual(await text('RETURN vector([1, 2, 3], 3, INTEGER), valueType(vector([1, 2, 3], 3, INT8))'), [
      'vector([1, 2, 3], 3, INTEGER NOT NULL)',
      "'VECTOR<INTEGER8 NOT NULL>(3) NOT NULL'",
    ]);
    assert.deepEqual(await text("RETURN vector('[1.05000e+00, 0.123, 5]', 3, FLOAT), vector([1.05, 0.123, 5], 3, FLOAT32)"), [
      'vector([1.05, 0.123, 5.0], 3, FLOAT NOT NULL)',
      'vector([1.05, 0.123, 5.0], 3, FLOAT32 NOT NULL)',
    ]);
    assert.deepEqual(await text('RETURN vector([1.9, -2.9], 2, INT16), vector([1, 2], 2, FLOAT64), vector([7], 1, SIGNED INTEGER)'), [
      'vector([1, -2], 2, INTEGER16 NOT NULL)',
      'vector([1.0, 2.0], 2, FLOAT NOT NULL)',
      'vector([7], 1, INTEGER NOT NULL)',
    ]);
    assert.deepEqual(await rows('RETURN vector(null, 3, FLOAT32), vector([1, 2, 3], null, INTEGER8)'), [[null, null]]);
    const vector = await one('RETURN vector($v, 2, FLOAT32)', { v: [0.5, 1] });
    assert.ok(vector instanceof CypherVector);
    assert.equal(vector.coordinateType, 'FLOAT32');
  });

  it('rejects invalid vectors with clear errors', async () => {
    await assert.rejects(rows('RETURN vector([1, 2, 300], 3, INT8)'), /300 does not fit into a INTEGER8/);
    await assert.rejects(rows('RETURN vector([1, 2], 3, INTEGER)'), /2 coordinates but the dimension is 3/);
    await assert.rejects(rows('RETURN vector([1, null], 2, INTEGER)'), /cannot be null/);
    await assert.rejects(rows('RETURN vector([1, 0.0 / 0.0], 2, FLOAT)'), /NaN or Infinity/);
    await assert.rejects(rows('RETURN vector([], 0, FLOAT)'), /greater than 0 and less than or equal to 4096/);
    await assert.rejects(rows("RETURN vector('1, 2', 2, FLOAT)"), /must start with '\['/);
    await assert.rejects(rows('RETURN vector([1], 1, STRING)'), /vector coordinate type/);
  });

  it('measures vectors: dimension, distance, norm and similarity', async () => {
    assert.deepEqual(await rows('RETURN vector_dimension_count(vector([1, 2, 3], 3, INTEGER)), size(vector([1, 2, 3], 3, INTEGER))'), [
      [3n, 3n],
    ]);
    const a = 'vector([1, 2, 3], 3, INT8)';
    const b = 'vector([1, 2, 5], 3, INT8)';
    const metrics = await rows(
      `RETURN vector_distance(${a}, ${b}, EUCLIDEAN), vector_distance(${a}, ${b}, EUCLIDEAN_SQUARED), vector_distance(${a}, ${b}, MANHATTAN),` +
        ` vector_distance(${a}, ${b}, DOT), vector_distance(${a}, ${b}, HAMMING), vector_distance(${a}, ${a}, COSINE)`,
    );
    assert.deepEqual(metrics, [[2, 4, 2, -20, 1, 0]]);
    assert.deepEqual(
      await rows('RETURN vector_norm(vector([3, 4], 2, FLOAT), EUCLIDEAN), vector_norm(vector([3, -4], 2, FLOAT), MANHATTAN)'),
      [[5, 7]],
    );
    assert.deepEqual(
      await rows(
        'RETURN vector.similarity.cosine(vector([1, 2, 3], 3, FLOAT32), [1, 2, 3]), vector.similarity.euclidean(vector([1, 1], 2, INT8), vector([1, 2], 2, INT8))',
      ),
      [[1, 0.5]],
    );
    assert.deepEqual(await rows('RETURN toFloatList(vector([1, 2], 2, INT8)), toIntegerList(vector([1.7, 2], 2, FLOAT))'), [
      [
        [1, 2],
        [1n, 2n],
      ],
    ]);
    assert.deepEqual(await rows('RETURN vector_norm(null, EUCLIDEAN), vector_dimension_count(null)'), [[null, null]]);
    await assert.rejects(rows(`RETURN vector_distance(${a}, vector([1, 2], 2, INT8), EUCLIDEAN)`), /different dimensions/);
    await assert.rejects(rows('RETURN vector_dimension_count([1, 2])'), /expected Vector but was List/);
    await assert.rejects(rows(`RETURN vector_norm(${a}, COSINE)`), /Invalid input 'COSINE'/);
  });

  it('tests types: IS :: VECTOR, its supertypes, and property type constraints', async () => {
    const predicates = await rows(
      'WITH vector([1, 2, 3], 3, INTEGER8) AS v RETURN v IS :: VECTOR<INTEGER8>(3), v IS :: VECTOR, v IS :: VECTOR(3), v IS :: VECTOR<INT8>,' +
        ' v IS :: VECTOR(5), v IS :: VECTOR<INTEGER16>, [1, 2, 3] IS :: VECTOR, v IS :: LIST<INTEGER>, v IS :: PROPERTY VALUE',
    );
    assert.deepEqual(predicates, [[true, true, true, true, false, false, false, false, true]]);
    assert.deepEqual(
      await rows(
        'RETURN vector([1], 1, INT8) = vector([1], 1, INT8), vector([1], 1, INT8) = vector([1], 1, INT16), vector([1], 1, INT8) = [1]',
      ),
      [[true, false, false]],
    );
    await rows('CREATE CONSTRAINT embedding_type FOR (d:Doc) REQUIRE d.embedding IS :: VECTOR<FLOAT32>(2)');
    await rows('CREATE (:Doc {embedding: vector([1, 2], 2, FLOAT32)})');
    await assert.rejects(
      rows('CREATE (:Doc {embedding: vector([1, 2], 2, FLOAT)})'),
      /required the property `embedding` to be of type `VECTOR<FLOAT32>\(2\)`/,
    );
    await assert.rejects(
      rows('CREATE (:Doc {embedding: [1.0, 2.0]})'),
      /required the property `embedding` to be of type `VECTOR<FLOAT32>\(2\)`/,
    );
    await rows('DROP CONSTRAINT embedding_type');
  });

  it('stores VECTOR properties exactly, across a reopen, and never inside lists', async () => {
    await rows(
      "CREATE (:Stored {id: 'all', i8: vector([-128, 127], 2, INT8), i16: vector([-32768, 32767], 2, INT16), i32: vector([-2147483648, 2147483647], 2, INT32)," +
        ' i64: vector([-9223372036854775808, 9223372036854775807], 2, INTEGER), f32: vector([1.05, -0.123], 2, FLOAT32), f64: vector([0.1, 1e300], 2, FLOAT)})',
    );
    const before = (await rows("MATCH (n:Stored {id: 'all'}) RETURN n.i8, n.i16, n.i32, n.i64, n.f32, n.f64"))[0].map((v) =>
      formatLiteral(v),
    );
    await db.close();
    db = await GraphDB.open({ dataDir: dir, search: false });
    const afterReopen = (await rows("MATCH (n:Stored {id: 'all'}) RETURN n.i8, n.i16, n.i32, n.i64, n.f32, n.f64"))[0].map((v) =>
      formatLiteral(v),
    );
    assert.deepEqual(afterReopen, before);
    assert.deepEqual(afterReopen, [
      'vector([-128, 127], 2, INTEGER8 NOT NULL)',
      'vector([-32768, 32767], 2, INTEGER16 NOT NULL)',
      'vector([-2147483648, 2147483647], 2, INTEGER32 NOT NULL)',
      'vector([-9223372036854775808, 9223372036854775807], 2, INTEGER NOT NULL)',
      'vector([1.05, -0.123], 2, FLOAT32 NOT NULL)',
      'vector([0.1, 1.0E300], 2, FLOAT NOT NULL)',
    ]);
    assert.deepEqual(await rows("MATCH (n:Stored {id: 'all'}) WHERE n.i8 = vector([-128, 127], 2, INT8) RETURN count(n)"), [[1n]]);
    await assert.rejects(rows('CREATE (:Stored {bad: [vector([1], 1, INT8)]})'), /primitive types or arrays thereof/);
  });

  it('round-trips through the storage codec and the export/import JSON', () => {
    const vectors = [
      makeVector([1n, -2n], 2n, 'INTEGER8')!,
      makeVector([2n ** 62n, -(2n ** 63n)], 2n, 'INTEGER')!,
      makeVector([1.05, 3.4e38], 2n, 'FLOAT32')!,
      makeVector([Number.MIN_VALUE, -0.1], 2n, 'FLOAT')!,
    ];
    for (const vector of vectors) {
      assert.deepEqual(decodePropertyValue(encodePropertyValue(vector)), vector);
      const json = JSON.parse(JSON.stringify(encodeValue(vector))) as ReturnType<typeof encodeValue>;
      assert.deepEqual(decodeValue(json), vector);
    }
  });

  it('indexes VECTOR properties in vector indexes', async () => {
    const search = await GraphDB.open({ search: { embedder: null, eager: false } });
    try {
      const run = async (query: string) => {
        const result = await search.session({}).run(query);
        return (await result.pull(-1)).records as CypherValue[][];
      };
      await run(
        "CREATE VECTOR INDEX plots FOR (m:Movie) ON m.embedding OPTIONS {indexConfig: {`vector.dimensions`: 3, `vector.similarity_function`: 'cosine'}}",
      );
      await run(
        "CREATE (:Movie {title: 'Snow White', embedding: vector([1, 2, 3], 3, INTEGER)}), (:Movie {title: 'Lion King', embedding: vector([2, 5, 2], 3, FLOAT32)})," +
          " (:Movie {title: 'Frozen', embedding: [1, 3, 3]})",
      );
      const hits = await run(
        "CALL db.index.vector.queryNodes('plots', 3, vector([1, 2, 3], 3, INT8)) YIELD node, score RETURN node.title, score",
      );
      assert.deepEqual(
        hits.map((r) => r[0]),
        ['Snow White', 'Frozen', 'Lion King'],
      );
      assert.equal(hits[0][1], 1);
    } finally {
      await search.close();
    }
  });

  it('is Cypher 25 only: CYPHER 5 rejects the functions', async () => {
    await assert.rejects(rows('CYPHER 5 RETURN vector([1], 1, INTEGER)'), /Unknown function 'vector'/);
    await assert.rejects(rows('CYPHER 5 RETURN vector_norm($v, EUCLIDEAN)'), /Unknown function 'vector_norm'/);
    assert.deepEqual(await rows('CYPHER 5 RETURN $v IS :: VECTOR', { v: 1n }), [[false]]);
    assert.deepEqual(await rows('CYPHER 25 RETURN vector_dimension_count(vector([1], 1, INTEGER))'), [[1n]]);
  });

  describe('over Bolt', () => {
    let server: BoltServer;
    let legacy: BoltServer;
    let driver: Driver;
    let legacyDriver: Driver;
    before(async () => {
      server = await startBoltServer({ port: 0, host: '127.0.0.1', engine: db });
      legacy = await startBoltServer({ port: 0, host: '127.0.0.1', engine: db, versions: [{ major: 5, minor: 8 }] });
      driver = neo4j.driver(`bolt://127.0.0.1:${server.port}`, neo4j.auth.basic('neo4j', 'any'));
      legacyDriver = neo4j.driver(`bolt://127.0.0.1:${legacy.port}`, neo4j.auth.basic('neo4j', 'any'));
    });
    after(async () => {
      await driver.close();
      await legacyDriver.close();
      await server.close();
      await legacy.close();
    });

    it('sends and receives Vector structures with neo4j-driver on Bolt 6.0', async () => {
      const { records, summary } = await driver.executeQuery(
        'RETURN vector([1, 2, 3], 3, INT8) AS a, vector([1.5, 2], 2, FLOAT32) AS b, vector([1, 2], 2, INTEGER) AS c, $p AS p, valueType($p) AS t',
        { p: neo4j.vector(Float64Array.from([0.5, 1.5])) },
      );
      assert.equal(summary.server.protocolVersion?.toString(), '6.0');
      const record = records[0];
      const a = record.get('a') as ReturnType<typeof neo4j.vector>;
      assert.ok(neo4j.isVector(a));
      assert.equal(a.getType(), 'INT8');
      assert.deepEqual([...a.asTypedArray()], [1, 2, 3]);
      assert.deepEqual([...(record.get('b') as typeof a).asTypedArray()], [1.5, 2]);
      assert.deepEqual([...(record.get('c') as typeof a).asTypedArray()], [1n, 2n]);
      assert.equal((record.get('p') as typeof a).getType(), 'FLOAT64');
      assert.equal(record.get('t'), 'VECTOR<FLOAT NOT NULL>(2) NOT NULL');
      await driver.executeQuery("CREATE (:Sent {id: 'p', e: $e})", { e: neo4j.vector(Int16Array.from([7, -8])) });
      assert.deepEqual(await text("MATCH (n:Sent {id: 'p'}) RETURN n.e"), ['vector([7, -8], 2, INTEGER16 NOT NULL)']);
    });

    it('sends Neo4j’s placeholder map to drivers on Bolt 5.8', async () => {
      const { records, summary } = await legacyDriver.executeQuery('RETURN vector([1], 1, INTEGER) AS v, vector([1, 2], 2, FLOAT32) AS w');
      assert.equal(summary.server.protocolVersion?.toString(), '5.8');
      assert.deepEqual(records[0].get('v'), { originalType: 'VECTOR(1, INTEGER64)', reason: 'UNKNOWN_TYPE' });
      assert.deepEqual(records[0].get('w'), { originalType: 'VECTOR(2, FLOAT32)', reason: 'UNKNOWN_TYPE' });
    });
  });
});
