import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { props, tempEngine } from './helpers.js';

/** Pages in the WAL file (the file is reused from the start after a reset, never shrunk below its high mark). */
function walPages(file: string): number {
  return Math.ceil(fs.statSync(`${file}-wal`).size / 4120);
}

test('auto-commit style writes between reads keep the WAL bounded: an idle snapshot never pins it across a commit', async () => {
  const env = tempEngine();
  try {
    const db = env.engine.database();
    // SQLite checkpoints after a commit once the WAL holds `wal_autocheckpoint` pages (10,000 in
    // production; 200 here, so the test stays small). With an idle read snapshot open during that
    // commit the WAL could not be reset, so it kept growing, and every later commit re-ran the
    // checkpoint over all of it.
    (db as unknown as { writer: { db: { pragma(text: string): unknown } } }).writer.db.pragma('wal_autocheckpoint = 200');
    const payload = 'x'.repeat(6000);
    // Each commit writes a node row with overflow pages, its label entry and the state page.
    for (let i = 0; i < 300; i++) {
      const reader = db.beginRead();
      reader.countNodes();
      reader.close();
      const tx = await db.beginWrite();
      tx.createNode(['W'], props({ i: BigInt(i), payload }));
      tx.commit();
    }
    assert.ok(walPages(db.file) < 400, `WAL holds ${walPages(db.file)} pages; it is reset after the checkpoint at 200`);
    const reader = db.beginRead();
    assert.equal(reader.countNodes('W'), 300);
    reader.close();
  } finally {
    env.dispose();
  }
});
