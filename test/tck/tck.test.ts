/**
 * The openCypher TCK (clauses, useCases, expressions) in-process, with a ratchet:
 * `test/tck/ratchet.json` lists scenario ids that passed once; any of them failing fails this
 * test. `TCK_UPDATE_RATCHET=1` rewrites the file with the current passing set.
 * `TCK_FILTER=<substring>` runs a subset; `TCK_VERBOSE=1` prints each failure's reason.
 */
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync, existsSync } from 'node:fs';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { loadScenarios } from './features.js';
import { TckRunner } from './tck-runner.js';

const RATCHET = fileURLToPath(new URL('./ratchet.json', import.meta.url));
const FOLDERS = ['clauses', 'useCases', 'expressions'];

test('openCypher TCK (in-process) keeps every ratcheted scenario passing', { timeout: 600_000 }, async (t) => {
  const filter = process.env.TCK_FILTER;
  const scenarios = loadScenarios(FOLDERS).filter((s) => !filter || s.id.includes(filter));
  const ratchet: string[] = existsSync(RATCHET) ? (JSON.parse(readFileSync(RATCHET, 'utf8')) as string[]) : [];
  const required = new Set(ratchet);
  const runner = await TckRunner.create();
  const passed: string[] = [];
  const regressions: string[] = [];
  const totals = new Map<string, { passed: number; total: number }>();
  try {
    for (const scenario of scenarios) {
      let outcome;
      try {
        outcome = await runner.run(scenario);
      } catch (error) {
        outcome = { passed: false, reason: `harness error: ${(error as Error).message}` };
      }
      const figures = totals.get(scenario.folder) ?? { passed: 0, total: 0 };
      figures.total++;
      if (outcome.passed) {
        figures.passed++;
        passed.push(scenario.id);
      } else {
        if (process.env.TCK_VERBOSE) t.diagnostic(`FAIL ${scenario.id}: ${outcome.reason ?? ''}`);
        if (required.has(scenario.id)) regressions.push(`${scenario.id}: ${outcome.reason ?? ''}`);
      }
      totals.set(scenario.folder, figures);
    }
  } finally {
    await runner.close();
  }
  for (const [folder, { passed: p, total }] of totals) {
    t.diagnostic(`${folder}: ${p}/${total} passed (${((100 * p) / Math.max(total, 1)).toFixed(1)}%)`);
  }
  if (process.env.TCK_UPDATE_RATCHET && !filter) {
    writeFileSync(RATCHET, `${JSON.stringify([...passed].sort(), null, 1)}\n`);
    t.diagnostic(`ratchet rewritten with ${passed.length} scenarios`);
  }
  assert.deepEqual(regressions, [], `${regressions.length} ratcheted scenarios failed`);
});
