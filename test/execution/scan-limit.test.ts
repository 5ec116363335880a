/**
 * A LIMIT above a node scan sizes the scan's first page (Mapper.expectedRows): the rows are the
 * same as without the hint, whatever filters between them drop and whatever the LIMIT's value.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { GraphDB } from '../../src/engine/index.js';
import { exec, openTestDb, rows } from './helpers.js';

let db: GraphDB;
before(async () => {
  db = await openTestDb();
  await exec(db.session(), 'UNWIND range(0, 1199) AS i CREATE (n:P {i: i}) WITH n, i WHERE i % 2 = 0 SET n:Even');
});
after(async () => {
  await db.close();
});

/** The `i` column of `query`. */
async function column(query: string, parameters: Record<string, unknown> = {}): Promise<unknown[]> {
  const session = db.session();
  try {
    return (await rows(session, query, parameters as never)).map((row) => row['i']);
  } finally {
    await session.close();
  }
}

const range = (from: number, count: number, step = 1): bigint[] => Array.from({ length: count }, (_, k) => BigInt(from + k * step));

test('LIMIT over a label or all-nodes scan returns the first rows, through projections and filters', async () => {
  assert.deepEqual(await column('MATCH (p:P) RETURN p.i AS i LIMIT 100'), range(0, 100));
  assert.deepEqual(await column('MATCH (p) RETURN p.i AS i LIMIT 3'), range(0, 3));
  assert.deepEqual(await column('MATCH (p:P) WHERE p.i % 7 = 0 RETURN p.i AS i LIMIT 150'), range(0, 150, 7));
  assert.deepEqual(await column('MATCH (p:Even) WITH p.i AS i WHERE i >= 500 RETURN i LIMIT $n', { n: 40n }), range(500, 40, 2));
  assert.deepEqual(await column('MATCH (p:P) RETURN p.i AS i LIMIT 5000'), range(0, 1200));
  assert.deepEqual(await column('MATCH (p:P) RETURN p.i AS i LIMIT 0'), []);
  assert.deepEqual(await column('MATCH (p:P) RETURN p.i AS i SKIP 1190 LIMIT 20'), range(1190, 10));
  assert.deepEqual(await column('MATCH (p:P) RETURN p.i AS i LIMIT toInteger($n)', { n: 2.0 }), range(0, 2));
});

test('a LIMIT that is not a count still fails as LIMIT reports it', async () => {
  await assert.rejects(column('MATCH (p:P) RETURN p.i AS i LIMIT $n', { n: -1n }), /non-negative integer/);
  await assert.rejects(column('MATCH (p:P) RETURN p.i AS i LIMIT $n', { n: 'x' }), /non-negative integer/);
});
