/**
 * Start-up does not wait for the search indexes: `GraphDB.open` with eager search returns before
 * the full-text index of the existing nodes is built; the build runs in the background in slices
 * (readiness shows `text_index` and its progress), never holding the event loop long; nodes
 * changed while it runs keep their newer state; a search that arrives first finishes the build.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { GraphDB } from '../../src/engine/index.js';
import { DEFAULT_CONFIG } from '../../src/engine/config/index.js';
import { searchSettingsFrom } from '../../src/engine/search/index.js';

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'graphdb-build-'));
after(() => fs.rmSync(dataDir, { recursive: true, force: true }));
const settings = searchSettingsFrom(DEFAULT_CONFIG);

async function run(db: GraphDB, query: string): Promise<unknown[][]> {
  return (await (await db.session().run(query)).pull(-1)).records as unknown[][];
}

test('the index builds in the background after open, keeping newer changes', async () => {
  const first = await GraphDB.open({ dataDir, search: false });
  await run(first, "UNWIND range(1, 60000) AS i CREATE (:Doc {i: i, text: 'alpha document ' + toString(i)})");
  await first.close();

  const db = await GraphDB.open({ dataDir, search: { settings, eager: true } });
  try {
    const started = db.searchServices!.readiness();
    assert.equal(started.ready, false, 'open returned before the build finished');
    assert.equal(started.build_phase, 'text_index');
    await run(db, "MATCH (d:Doc {i: 59999}) SET d.text = 'omega changed'");
    await run(db, 'MATCH (d:Doc {i: 60000}) DELETE d');
    const delay = monitorEventLoopDelay({ resolution: 1 });
    delay.enable();
    while (!db.searchServices!.readiness().ready) await new Promise((resolve) => setImmediate(resolve));
    delay.disable();
    assert.ok(delay.max / 1e6 < 250, `longest event-loop stall during the build ${(delay.max / 1e6).toFixed(1)} ms`);
    const omega = await db.search().search({ query: 'omega', method: 'text', limit: 5 });
    assert.equal(omega.results.length, 1, 'the change made during the build is not overwritten');
    const alpha = await db.search().search({ query: 'alpha', method: 'text', limit: 100000 });
    assert.equal(alpha.results.length, 59998);
  } finally {
    await db.close();
  }
});

test('a search that arrives before the build is done finishes it first', async () => {
  const db = await GraphDB.open({ dataDir, search: { settings, eager: true } });
  try {
    assert.equal(db.searchServices!.readiness().ready, false);
    const alpha = await db.search().search({ query: 'alpha', method: 'text', limit: 100000 });
    assert.equal(alpha.results.length, 59998);
    assert.equal(db.searchServices!.readiness().ready, true);
  } finally {
    await db.close();
  }
});

test('deferred builds wait for startBuilds, then run in the background', async () => {
  const db = await GraphDB.open({ dataDir, search: { settings, eager: true, deferBuilds: true } });
  try {
    const held = db.searchServices!.readiness();
    assert.deepEqual([held.ready, held.build_phase, held.progress_pct], [false, 'text_index', 0]);
    for (let turn = 0; turn < 20; turn++) await new Promise((resolve) => setImmediate(resolve));
    assert.equal(db.searchServices!.readiness().progress_pct, 0, 'no slice ran before startBuilds');
    db.searchServices!.startBuilds();
    while (!db.searchServices!.readiness().ready) await new Promise((resolve) => setImmediate(resolve));
    const alpha = await db.search().search({ query: 'alpha', method: 'text', limit: 100000 });
    assert.equal(alpha.results.length, 59998);
  } finally {
    await db.close();
  }
});
