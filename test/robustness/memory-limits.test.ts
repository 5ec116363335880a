/**
 * The out-of-memory recipes, written as the attacks against a real server in a child process
 * with a 320 MiB heap (so a failure would really kill it, as `FATAL ERROR: Reached heap limit`):
 * - 12 concurrent `UNWIND range(1, 10000000) AS i RETURN count(i)` (range() streams under UNWIND);
 * - 12 concurrent `RETURN size(range(1, 10000000))` (a materialised range is charged first);
 * - a collect of a huge list;
 * - a huge ORDER BY / DISTINCT.
 * The process lives on; an offending transaction gets Neo.TransientError.General.MemoryPoolOutOfMemoryError.
 * Engine-level checks: the tracker gives everything back when a statement ends, the pool limit,
 * and LOAD CSV charging what its reader holds (a record that grows past db.memory.transaction.max).
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { GraphDB } from '../../src/engine/index.js';
import { MemoryPool } from '../../src/engine/cypher/memory/memory-tracker.js';
import { post, startChildServer, type ChildServer } from './fixtures/child-server.js';

const MEMORY_ERROR = 'Neo.TransientError.General.MemoryPoolOutOfMemoryError';

describe('memory limits in a server with a small heap', () => {
  let server: ChildServer;
  before(async () => {
    server = await startChildServer({ heapMiB: 320, args: ['--no-auth'] });
  });
  after(() => server.stop());

  it('streams 12 concurrent UNWIND range(1, 10000000) ... count(i)', async () => {
    const answers = await Promise.all(
      Array.from({ length: 12 }, () => post(server.url, 'UNWIND range(1, 10000000) AS i RETURN count(i) AS c')),
    );
    for (const answer of answers) {
      assert.deepEqual(answer.body.errors, []);
      assert.deepEqual(answer.body.results[0].data[0].row, [10000000]);
    }
    assert.ok(server.alive());
  });

  it('answers the memory error to 12 concurrent materialised ranges and lives on', async () => {
    const answers = await Promise.all(Array.from({ length: 12 }, () => post(server.url, 'RETURN size(range(1, 10000000)) AS n')));
    for (const answer of answers) assert.equal(answer.body.errors[0]?.code, MEMORY_ERROR, JSON.stringify(answer.body));
    assert.match(answers[0].body.errors[0].message, /db\.memory\.transaction\.max threshold reached/);
    assert.ok(server.alive());
  });

  it('fails a huge collect, ORDER BY and DISTINCT with the memory error, then serves the next query', async () => {
    for (const statement of [
      'UNWIND range(1, 10000000) AS i RETURN size(collect(i)) AS n',
      'UNWIND range(1, 10000000) AS i WITH i ORDER BY i DESC RETURN i LIMIT 1',
      'UNWIND range(1, 10000000) AS i WITH DISTINCT toString(i) AS s RETURN count(s)',
      'UNWIND range(1, 10000000) AS i RETURN i % 3000000 AS k, count(*) AS c ORDER BY c LIMIT 1',
    ]) {
      const answer = await post(server.url, statement);
      assert.equal(answer.body.errors[0]?.code, MEMORY_ERROR, `${statement}: ${JSON.stringify(answer.body)}`);
    }
    const next = await post(server.url, 'UNWIND range(1, 1000) AS i RETURN size(collect(i)) AS n');
    assert.deepEqual(next.body.results[0].data[0].row, [1000]);
    assert.ok(server.alive());
  });
});

describe('memory tracker in the engine', () => {
  it('releases what a statement charged when it ends, and enforces the server-wide pool', async () => {
    const db = await GraphDB.open({ memory: { transactionMaxBytes: 8 * 1024 * 1024, totalMaxBytes: 16 * 1024 * 1024 } });
    try {
      const session = db.session();
      for (let round = 0; round < 20; round++) {
        const result = await session.run('UNWIND range(1, 100000) AS i RETURN size(collect(i)) AS n');
        assert.deepEqual((await result.pull(-1)).records, [[100000n]]);
      }
      await assert.rejects(
        session.run('UNWIND range(1, 1000000) AS i RETURN size(collect(i)) AS n').then((r) => r.pull(-1)),
        (error: { code?: string }) => error.code === MEMORY_ERROR,
      );
      const ok = await session.run('RETURN size(range(1, 1000)) AS n');
      assert.deepEqual((await ok.pull(-1)).records, [[1000n]]);
    } finally {
      await db.close();
    }
    const pool = new MemoryPool(1_000_000);
    const a = pool.tracker(Infinity);
    const b = pool.tracker(Infinity);
    a.charge(600_000);
    assert.throws(() => b.charge(600_000), /dbms\.memory\.transaction\.total\.max threshold reached/);
    a.close();
    b.charge(600_000);
    b.close();
    assert.equal(pool.used, 0);
  });
});

describe('LOAD CSV charges the memory tracker', () => {
  it('fails a record that grows past db.memory.transaction.max, and streams a large file of small rows', async () => {
    const mib = 1024 * 1024;
    const db = await GraphDB.open({ search: false, memory: { transactionMaxBytes: 2 * mib }, files: { csvBufferSize: 64 * mib } });
    try {
      writeFileSync(join(db.importDirectory, 'long-field.csv'), 'a,' + 'x'.repeat(8 * mib) + '\n');
      writeFileSync(join(db.importDirectory, 'many-rows.csv'), 'k,v\n'.repeat(100_000));
      const session = db.session();
      await assert.rejects(
        session.run("LOAD CSV FROM 'file:///long-field.csv' AS r RETURN size(r[1]) AS n").then((r) => r.pull(-1)),
        (error: { code?: string; message?: string }) =>
          error.code === MEMORY_ERROR && /db\.memory\.transaction\.max/.test(error.message ?? ''),
      );
      const many = await session.run("LOAD CSV FROM 'file:///many-rows.csv' AS r RETURN count(r) AS n");
      assert.deepEqual((await many.pull(-1)).records, [[100_000n]]);
    } finally {
      await db.close();
    }
  });
});
