/**
 * The Cypher and option forms of temporal reads on the embedded engine (docs/temporal-reads.md):
 * `USE ... AT` expressions, where the clause may stand, and malformed requests.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { GraphDB, type Session } from '../../src/engine/index.js';

let db: GraphDB;
let session: Session;
let created: bigint;
before(async () => {
  db = await GraphDB.open({ homeAlias: null });
  session = db.session();
  await (await session.run('CREATE (:T {v: 1})')).discard();
  created = BigInt(session.lastBookmark()!.split(':').pop()!);
  await (await session.run('MATCH (t:T) SET t.v = 2')).discard();
});
after(() => db.close());

async function values(query: string, parameters: Record<string, unknown> = {}, metadata?: Map<string, unknown>): Promise<unknown[]> {
  const result = await session.run(query, parameters as never, metadata === undefined ? {} : { metadata: metadata as never });
  return (await result.pull(-1)).records.map((r) => r[0]);
}

test('AT TIME takes any parameter-only expression; AT VERSION 0 is the empty database', async () => {
  assert.deepEqual(await values('USE graphdb AT TIME datetime() + duration("PT1H") MATCH (t:T) RETURN t.v'), [2n]);
  assert.deepEqual(await values('USE graphdb AT TIME 0 MATCH (t:T) RETURN t.v'), []);
  assert.deepEqual(await values('USE graphdb AT VERSION 0 MATCH (n) RETURN n'), []);
  assert.deepEqual(await values('USE graphdb AT VERSION $v + 0 MATCH (t:T) RETURN t.v', { v: created }), [1n]);
  assert.deepEqual(await values('USE graphdb AT VERSION toString($v) MATCH (t:T) RETURN t.v', { v: created }), [1n]);
});

test('USE ... AT only at the start of a whole query', async () => {
  await assert.rejects(
    values('CALL { USE graphdb AT VERSION 1 MATCH (n) RETURN n } RETURN n'),
    /only allowed at the start of a whole query/,
  );
  await assert.rejects(values('RETURN 1 AS x UNION USE graphdb AT VERSION 1 RETURN 2 AS x'), /only allowed at the start of a whole query/);
  await assert.rejects(values('USE graphdb AT VERSION x MATCH (n) RETURN n'), { code: 'Neo.ClientError.Statement.SyntaxError' });
});

test('malformed points are argument errors', async () => {
  await assert.rejects(values('USE graphdb AT VERSION -1 RETURN 1'), { code: 'Neo.ClientError.Statement.ArgumentError' });
  await assert.rejects(values('USE graphdb AT TIME "not a time" RETURN 1'), { code: 'Neo.ClientError.Statement.ArgumentError' });
  const both = new Map<string, unknown>([
    ['graphdb.asOfVersion', 1n],
    ['graphdb.asOfTime', '2020-01-01T00:00:00Z'],
  ]);
  await assert.rejects(values('RETURN 1', {}, both), { code: 'Neo.ClientError.Statement.ArgumentError' });
  const asOf = new Map<string, unknown>([['graphdb.asOfVersion', created]]);
  await assert.rejects(values('USE graphdb AT VERSION 1 RETURN 1', {}, asOf), { code: 'Neo.ClientError.Request.Invalid' });
  assert.deepEqual(await values('MATCH (t:T) RETURN t.v', {}, asOf), [1n]);
});
