/**
 * Memory decay with an injected clock and injected interval timers: scores follow the configured
 * half-lives (recency only), importance and frequency weights, the periodic pass archives what fell
 * below the threshold, archived memories disappear from search but stay readable by id, an access
 * promotes them back; `no_decay` opts out; the `memory_decay` YAML section is accepted and a bad
 * profile stops startup.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { loadConfig } from '../../src/engine/config/index.js';
import { DEFAULT_CONFIG } from '../../src/engine/config/defaults.js';
import type { MemoryDecaySettings } from '../../src/engine/config/index.js';
import { GraphDB, MemoryTools, MEMORY_TOOLS } from '../../src/engine/index.js';
import { tempDir } from './fixtures/scenario.js';

const DAY = 86_400_000;
const home = tempDir('graphdb-decay-');
after(() => home.cleanup());

function settings(overrides: Partial<MemoryDecaySettings> = {}): MemoryDecaySettings {
  return {
    ...DEFAULT_CONFIG.memory_decay,
    enabled: true,
    recalculate_interval: 3_600_000,
    decay_rate: 0.5,
    half_lives: ['episodic=1d', 'semantic=10d', 'procedural=0'],
    archive_threshold: 0.3,
    recency_weight: 1,
    frequency_weight: 0,
    importance_weight: 0,
    search_weight: 0,
    ...overrides,
  };
}

/** An engine on a fake clock whose interval timer the test fires by hand. */
async function open(decay: MemoryDecaySettings) {
  const clock = { now: Date.parse('2026-03-01T00:00:00Z') };
  const intervals: { callback: () => void; ms: number }[] = [];
  const db = await GraphDB.open({
    memoryDecay: {
      settings: decay,
      now: () => clock.now,
      timers: { setInterval: (callback, ms) => intervals.push({ callback, ms }), clearInterval: () => undefined },
    },
  });
  const tools = new MemoryTools(db.memoryToolHost({ database: 'graphdb' }), MEMORY_TOOLS);
  let calls = 0;
  const call = async (name: string, args: Record<string, unknown>) => {
    const outcome = await tools.run({ id: String(++calls), name, arguments: JSON.stringify(args) });
    assert.ok(outcome.ok, outcome.output);
    return JSON.parse(outcome.output);
  };
  const scores = async () => {
    const { rows } = await db.cypherRunner().run('MATCH (m:Memory) RETURN m.title, decayScore(m), decayProfile(m) ORDER BY m.title');
    return Object.fromEntries(
      rows.map(([title, score, profile]) => [title as string, { score: score as number, profile: profile as string }]),
    );
  };
  return { db, clock, intervals, call, scores };
}

describe('memory decay', () => {
  it('scores follow the configured half-lives; no_decay and a 0 half-life never decay', async () => {
    const t = await open(settings());
    try {
      await t.call('store', { content: 'episode one', title: 'episodic', labels: ['Episodic'] });
      await t.call('store', { content: 'a lasting fact', title: 'semantic', labels: ['Semantic'] });
      await t.call('store', { content: 'how to deploy', title: 'procedural', labels: ['Procedural'] });
      await t.call('store', { content: 'plain note', title: 'default' });
      await t.call('store', { content: 'pinned episode', title: 'pinned', labels: ['Episodic'], no_decay: true });
      t.clock.now += DAY;
      let s = await t.scores();
      assert.ok(Math.abs(s.episodic.score - 0.5) < 1e-9, JSON.stringify(s));
      assert.ok(Math.abs(s.semantic.score - Math.pow(0.5, 0.1)) < 1e-9);
      assert.ok(Math.abs(s.default.score - 0.5) < 1e-9, 'decay_rate 0.5 per day is a one-day half-life');
      assert.equal(s.procedural.score, 1);
      assert.equal(s.pinned.score, 1);
      assert.deepEqual([s.episodic.profile, s.semantic.profile, s.default.profile], ['Episodic'.toLowerCase(), 'semantic', 'default']);
      t.clock.now += 2 * DAY;
      s = await t.scores();
      assert.ok(Math.abs(s.episodic.score - 0.125) < 1e-9);
      assert.ok(Math.abs(s.semantic.score - Math.pow(0.5, 0.3)) < 1e-9);
    } finally {
      await t.db.close();
    }
  });

  it('archives on the interval: out of search, readable by id, promoted back by access', async () => {
    const t = await open(settings());
    try {
      assert.deepEqual(
        t.intervals.map((i) => i.ms),
        [3_600_000],
        'enabled: one recalculation timer on recalculate_interval',
      );
      const fading = await t.call('store', { content: 'the otter migration happened on a tuesday', labels: ['Episodic'] });
      const lasting = await t.call('store', { content: 'otters are mustelids', labels: ['Semantic'] });
      const pinned = await t.call('store', { content: 'otter sanctuary address', labels: ['Episodic'], no_decay: true });
      assert.equal((await t.call('discover', { query: 'otter migration tuesday' })).results[0].id, fading.id);

      t.clock.now += 2 * DAY;
      t.intervals[0].callback();
      await t.db.memoryDecay.stop();
      const pass = t.db.memoryDecay.lastRun('graphdb')!;
      assert.equal(pass.archived, 1);
      assert.equal(pass.noDecay, 1);

      const after = await t.call('discover', { query: 'otter migration tuesday' });
      assert.ok(!after.results.some((r: any) => r.id === fading.id), JSON.stringify(after));
      assert.ok((await t.call('discover', { query: 'otters mustelids' })).results.some((r: any) => r.id === lasting.id));
      assert.ok((await t.call('discover', { query: 'otter sanctuary' })).results.some((r: any) => r.id === pinned.id));
      assert.equal(
        (await t.call('recall', { tags: [], type: 'note' })).memories.some((m: any) => m.id === fading.id),
        false,
      );
      const stats = await t.db.memoryDecay.stats(t.db.cypherRunner(), 'graphdb');
      assert.deepEqual(stats.memories, { total: 3, active: 2, archived: 1, no_decay: 1, below_threshold: 0 });

      const byId = await t.call('recall', { id: fading.id });
      assert.equal(byId.memories[0].content, 'the otter migration happened on a tuesday');
      assert.equal(byId.memories[0].archived, true);
      assert.deepEqual(byId.unarchived, [fading.id]);
      const promoted = await t.call('discover', { query: 'otter migration tuesday' });
      assert.equal(promoted.results[0].id, fading.id);
      assert.equal(promoted.results[0].decay, 1, 'access resets recency');
      assert.equal(promoted.results[0].access_count, 1);
    } finally {
      await t.db.close();
    }
  });

  it('weights importance and access frequency, and ranks search by decay when asked', async () => {
    const t = await open(settings({ recency_weight: 0, frequency_weight: 1, importance_weight: 1, search_weight: 0.5 }));
    try {
      const often = await t.call('store', { content: 'kettle descaling schedule', importance: 0.2 });
      const important = await t.call('store', { content: 'kettle warranty number', importance: 0.9 });
      for (let i = 0; i < 3; i++) await t.call('recall', { id: often.id });
      const s = await t.scores();
      const frequency = Math.log2(4) / Math.log2(33);
      assert.ok(Math.abs(s['kettle descaling schedule'].score - (frequency + 0.2) / 2) < 1e-9, JSON.stringify(s));
      assert.ok(Math.abs(s['kettle warranty number'].score - 0.9 / 2) < 1e-9);
      const ranked = await t.call('discover', { query: 'kettle', limit: 2 });
      assert.match(ranked.ranking, /decay score x 0.5/);
      assert.equal(ranked.results[0].id, important.id);
      const unweighted = await t.call('discover', { query: 'kettle', limit: 2, decay_weight: 0 });
      assert.equal(unweighted.ranking, 'search relevance');
    } finally {
      await t.db.close();
    }
  });

  it('disabled: no timer, no search weighting, decayScore() still computed on read; recall since', async () => {
    const t = await open(settings({ enabled: false, search_weight: 0.9 }));
    try {
      assert.equal(t.intervals.length, 0);
      await t.call('store', { content: 'quiet note' });
      assert.equal((await t.call('discover', { query: 'quiet' })).ranking, 'search relevance');
      t.clock.now += DAY;
      assert.ok(Math.abs((await t.scores())['quiet note'].score - 0.5) < 1e-9);
      t.clock.now += DAY;
      const fresh = await t.call('store', { content: 'fresh note' });
      assert.deepEqual(
        (await t.call('recall', { since: '1d' })).memories.map((m: any) => m.id),
        [fresh.id],
      );
      assert.equal((await t.call('recall', { since: '2026-03-01T00:00:00Z' })).count, 2);
    } finally {
      await t.db.close();
    }
  });

  it('accepts the memory_decay YAML section; a malformed half-life profile stops startup', async () => {
    const file = path.join(home.dir, 'graphdb.yaml');
    fs.writeFileSync(
      file,
      'memory_decay:\n  enabled: true\n  recalculate_interval: 1h\n  decay_rate: 0.1\n  half_lives: ["episodic=3d", "project=30d"]\n',
    );
    const { config } = loadConfig({ configFile: file, env: {} });
    assert.equal(config.memory_decay.enabled, true);
    assert.equal(config.memory_decay.recalculate_interval, 3_600_000);
    assert.deepEqual(config.memory_decay.half_lives, ['episodic=3d', 'project=30d']);
    const db = await GraphDB.open({ memoryDecay: { settings: config.memory_decay } });
    try {
      assert.deepEqual(db.memoryDecay.model.profiles, [
        { name: 'episodic', halfLifeMs: 3 * DAY },
        { name: 'project', halfLifeMs: 30 * DAY },
      ]);
    } finally {
      await db.close();
    }
    await assert.rejects(
      GraphDB.open({ memoryDecay: { settings: settings({ half_lives: ['episodic'] }) } }),
      /half_lives entry "episodic" must be label=duration/,
    );
  });
});
