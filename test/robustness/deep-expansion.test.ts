/**
 * Nothing recursive on user-controlled depth. On a 300-node graph with 12,000 relationships,
 * `MATCH p=(a:D)-[:E*]->(b) RETURN count(p)` enumerates paths thousands of hops long: it must end
 * with the transaction timeout (bounded by time and memory), never with a stack overflow reported
 * as `Neo.DatabaseError.General.UnknownError`. A long chain expands to its full depth.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { GraphDB } from '../../src/engine/index.js';
import type { CypherValue, Session } from '../../src/engine/index.js';

let db: GraphDB;
let session: Session;

async function all(query: string, parameters?: Record<string, CypherValue>, timeoutMs?: number): Promise<CypherValue[][]> {
  const result = await session.run(query, parameters, timeoutMs === undefined ? {} : { timeoutMs });
  return (await result.pull(-1)).records as CypherValue[][];
}

before(async () => {
  db = await GraphDB.open();
  session = db.session();
  await all('UNWIND range(0, 299) AS i CREATE (:D {i: i})');
  // 12,000 relationships: node i points at the 40 next nodes (mod 300), so cycles abound.
  await all('MATCH (a:D) UNWIND range(1, 40) AS k MATCH (b:D {i: (a.i + k) % 300}) CREATE (a)-[:E]->(b)');
  await all('CREATE INDEX chain_i FOR (c:Chain) ON (c.i)');
  await all('UNWIND range(0, 20000) AS i CREATE (:Chain {i: i})');
  await all('MATCH (a:Chain), (b:Chain {i: a.i + 1}) CREATE (a)-[:NEXT]->(b)');
});
after(() => db.close());

test('the 12k-edge graph is what the attack needs', async () => {
  assert.deepEqual(await all('MATCH (:D)-[r:E]->(:D) RETURN count(r)'), [[12000n]]);
});

test('an unbounded variable-length expansion on a dense graph ends by the timeout, not a stack overflow', async () => {
  await assert.rejects(all('MATCH p=(a:D)-[:E*]->(b) RETURN count(p)', {}, 3_000), (error: { code?: string; message?: string }) => {
    assert.equal(error.code, 'Neo.ClientError.Transaction.TransactionTimedOut', `${error.code}: ${error.message}`);
    return true;
  });
});

test('a 20,000-hop chain expands to its full depth', async () => {
  assert.deepEqual(await all('MATCH p=(:Chain {i: 0})-[:NEXT*]->(:Chain {i: 20000}) RETURN length(p)'), [[20000n]]);
  assert.deepEqual(await all('MATCH (:Chain {i: 0})-[:NEXT*1..5]->(b) RETURN collect(b.i)'), [[[1n, 2n, 3n, 4n, 5n]]]);
});
