/**
 * Write sets: the memory bound (a clear MemoryPoolOutOfMemoryError, nothing committed, the
 * auto-commit path unbounded) and a kill -9 in the middle of a commit that applies a parked
 * write set (old or new state, never a mix).
 */
import { inspect } from 'node:util';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { test } from 'node:test';
import { GraphDB } from '../../src/engine/index.js';
import type { CypherValue, Session } from '../../src/engine/index.js';

async function values(session: Session, query: string): Promise<CypherValue[]> {
  return (await (await session.run(query)).pull(-1)).records.map((r) => r[0] ?? null);
}

test('a write set past database.transaction_max_write_set fails with MemoryPoolOutOfMemoryError and commits nothing', async () => {
  const db = await GraphDB.open({ maxWriteSetBytes: 64 * 1024, search: false });
  try {
    const tx = await db.session().beginTransaction();
    await (await tx.run("CREATE (:Small {s: 'fits'})")).discard();
    await assert.rejects(
      tx.run("UNWIND range(1, 5000) AS i CREATE (:Big {i: i, s: 'some text to hold'})"),
      (error: { code?: string; message?: string }) => {
        assert.equal(error.code, 'Neo.TransientError.General.MemoryPoolOutOfMemoryError');
        assert.match(error.message ?? '', /database\.transaction_max_write_set threshold reached/);
        return true;
      },
    );
    assert.equal(tx.isOpen, false, 'the transaction was rolled back');
    assert.deepEqual(await values(db.session(), 'MATCH (n) WHERE n:Small OR n:Big RETURN count(n)'), [0n]);
    // Auto-commit statements keep no write set: the same statement commits.
    await (await db.session().run("UNWIND range(1, 5000) AS i CREATE (:Big {i: i, s: 'some text to hold'})")).discard();
    assert.deepEqual(await values(db.session(), 'MATCH (n:Big) RETURN count(n)'), [5000n]);
  } finally {
    await db.close();
  }
});

const writer = fileURLToPath(new URL('./fixtures/commit-writer.ts', import.meta.url));
const PER_BATCH = 3000;

test('kill -9 in the middle of a commit leaves the old or the new state, never a mix', { timeout: 180_000 }, async () => {
  const dir = mkdtempSync(join(tmpdir(), 'graphdb-commit-crash-'));
  try {
    const committed: number[] = [];
    let killedDuring = -1;
    const child = spawn(process.execPath, ['--import', 'tsx', writer, dir, String(PER_BATCH)], { stdio: ['ignore', 'pipe', 'inherit'] });
    let buffer = '';
    await new Promise<void>((resolve, reject) => {
      child.on('error', reject);
      child.on('exit', () => resolve());
      child.stdout.on('data', (chunk: Buffer) => {
        buffer += chunk.toString('utf8');
        let newline: number;
        while ((newline = buffer.indexOf('\n')) >= 0) {
          const [word, batch] = buffer.slice(0, newline).split(' ');
          buffer = buffer.slice(newline + 1);
          if (word === 'committed') committed.push(Number(batch));
          if (word === 'committing' && Number(batch) === 3 && killedDuring < 0) {
            killedDuring = 3;
            child.kill('SIGKILL');
          }
        }
      });
    });
    assert.equal(child.signalCode, 'SIGKILL');
    const db = await GraphDB.open({ dataDir: dir, search: false });
    try {
      const session = db.session();
      const perBatch = (await (await session.run('MATCH (n:Item) RETURN n.batch AS b, count(*) AS c ORDER BY b')).pull(-1)).records;
      for (const [batch, count] of perBatch) assert.equal(count, BigInt(PER_BATCH), `batch ${inspect(batch)} is complete`);
      const batches = perBatch.map((r) => Number(r[0]));
      for (const batch of committed) assert.ok(batches.includes(batch), `acknowledged batch ${batch} is there`);
      assert.ok(
        batches.every((b) => b <= killedDuring),
        'nothing after the killed commit',
      );
      assert.deepEqual(await values(session, 'MATCH ()-[r:SPANS]->() RETURN count(r)'), [BigInt(batches.length)], 'relationships match');
      assert.deepEqual(
        await values(session, 'MATCH (n:Item) RETURN count(n)'),
        [BigInt(batches.length * PER_BATCH)],
        'counts match the rows',
      );
      const scanned = await values(session, 'MATCH (n) WHERE n.i IS NOT NULL RETURN count(n)');
      assert.deepEqual(scanned, [BigInt(batches.length * PER_BATCH)], 'no stray rows');
      await (await session.run('CREATE (:After)')).discard();
    } finally {
      await db.close();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
