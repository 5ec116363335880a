import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { StorageEngine } from '../../src/engine/storage/index.js';
import { tempEngine } from './helpers.js';

const writer = fileURLToPath(new URL('./fixtures/writer.ts', import.meta.url));
const PER_BATCH = 200;

test('kill -9 mid-write loses no committed transaction and leaves no partial one', { timeout: 120_000 }, async () => {
  const env = tempEngine();
  env.engine.close();
  try {
    const child = spawn(process.execPath, ['--import', 'tsx', writer, env.dir, String(PER_BATCH)], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const printed: { version: bigint; batch: number }[] = [];
    let buffer = '';
    await new Promise<void>((resolve, reject) => {
      child.on('error', reject);
      child.on('exit', () => resolve());
      child.stdout.on('data', (chunk: Buffer) => {
        buffer += chunk.toString('utf8');
        let newline: number;
        while ((newline = buffer.indexOf('\n')) >= 0) {
          const [, version, batch] = buffer.slice(0, newline).split(' ');
          buffer = buffer.slice(newline + 1);
          printed.push({ version: BigInt(version), batch: Number(batch) });
          if (printed.length === 25) child.kill('SIGKILL');
        }
      });
    });
    assert.equal(child.signalCode, 'SIGKILL');
    assert.ok(printed.length >= 25);

    const engine = StorageEngine.open({ dataDir: env.dir });
    try {
      const db = engine.database();
      const reader = db.beginRead();
      const lastPrinted = printed[printed.length - 1].version;
      assert.ok(reader.version >= lastPrinted, `version ${reader.version} >= last printed ${lastPrinted}`);
      const perBatch = new Map<bigint, number>();
      for (const id of reader.nodeIdsByLabel('Item')) {
        const batch = reader.nodeProperty(id, 'batch') as bigint;
        perBatch.set(batch, (perBatch.get(batch) ?? 0) + 1);
      }
      for (const { batch } of printed) assert.equal(perBatch.get(BigInt(batch)), PER_BATCH, `printed batch ${batch} is complete`);
      for (const [batch, count] of perBatch) assert.equal(count, PER_BATCH, `batch ${batch} is not partial`);
      assert.equal(reader.countNodes(), perBatch.size * PER_BATCH, 'node counter matches the rows');
      assert.equal(reader.countRelationships(), perBatch.size * (PER_BATCH - 1), 'relationship counter matches the rows');
      assert.equal(BigInt(perBatch.size), reader.version, 'one version per committed batch');
      reader.close();
      const tx = await db.beginWrite();
      tx.createNode(['After'], new Map());
      assert.equal(tx.commit(), BigInt(perBatch.size) + 1n, 'the store keeps working after recovery');
    } finally {
      engine.close();
    }
  } finally {
    env.dispose();
  }
});
