/**
 * MEM: the AI-memory tools at scale (docs/ai-memory.md). N memories (100k at medium and large,
 * 10k at smoke; deterministic texts) are bulk-loaded as `:Memory` nodes and embedded by the
 * search pipeline's worker with a local GGUF embedding model, then the latency of the `store`
 * and `discover` tools (the MemoryTools the MCP server runs) is measured. The model is the tiny
 * random-weight BERT the tests generate (test/search/fixtures/tiny-bert.ts, 32 dimensions): it
 * times the pipeline (query embedding, BM25 + vector search, RRF, Cypher reads, graph expansion),
 * not the quality or the cost of a real embedding model. No peer: informational.
 */
import { join } from 'node:path';
import type { BenchContext } from '../context.js';
import { engineModule } from '../graphdb/probe.js';
import { measure, type Timing } from '../measure.js';
import { WorkloadRecorder, type WorkloadResult } from '../report-model.js';

const TOPICS = ['storage', 'planner', 'bolt', 'search', 'vector', 'index', 'schema', 'backup', 'replication', 'cache', 'auth', 'graphql'];
const VERBS = ['uses', 'needs', 'replaces', 'speeds up', 'breaks', 'documents', 'tests', 'configures'];
const THINGS = ['write-ahead log', 'page cache', 'hnsw graph', 'bm25 postings', 'query plan', 'session pool', 'checkpoint', 'token bucket', 'role matrix'];

/** Deterministic memory text number `i`. */
function memoryText(i: number): string {
  const topic = TOPICS[i % TOPICS.length]!;
  return `${topic} ${VERBS[(i * 7) % VERBS.length]} the ${THINGS[(i * 13) % THINGS.length]} (note ${i}); see ${TOPICS[(i * 5) % TOPICS.length]}`;
}

type EngineIndex = typeof import('../../../src/engine/index.js');

/** Runs MEM. */
export async function runAiMemory(ctx: BenchContext): Promise<WorkloadResult> {
  const count = ctx.profile.name === 'smoke' ? 10_000 : 100_000;
  const rec = new WorkloadRecorder('MEM', `AI memory: store / discover latency at ${count} memories (local embeddings: tiny test model)`, 'ops/s',
    'informational (no peer; issue 20)', []);
  const engineUrl = engineModule(ctx.engine, 'engine/index');
  const configUrl = engineModule(ctx.engine, 'engine/config/index');
  const searchUrl = engineModule(ctx.engine, 'engine/search/index');
  if (engineUrl === null || configUrl === null || searchUrl === null) {
    rec.pending('graphdb memory tools', 'engine modules missing');
    return rec.finish();
  }
  const engine = (await import(engineUrl)) as EngineIndex;
  if (typeof engine.MemoryTools !== 'function') {
    rec.pending('graphdb memory tools', 'MemoryTools not exported by the engine');
    return rec.finish();
  }
  const { DEFAULT_CONFIG } = (await import(configUrl)) as typeof import('../../../src/engine/config/index.js');
  const { searchSettingsFrom } = (await import(searchUrl)) as typeof import('../../../src/engine/search/index.js');
  const { writeTinyBert } = await import('../../../test/search/fixtures/tiny-bert.js');
  const modelsDir = join(ctx.tmp, 'mem-models');
  const { mkdirSync } = await import('node:fs');
  mkdirSync(modelsDir, { recursive: true });
  writeTinyBert(join(modelsDir, 'tiny-embed.gguf'), { contextLength: 512 });
  const config = {
    ...DEFAULT_CONFIG,
    embeddings: { ...DEFAULT_CONFIG.embeddings, enabled: true, provider: 'local' as const, model: 'tiny-embed' },
    resources: { ...DEFAULT_CONFIG.resources, models_dir: modelsDir },
  };
  const warnings: string[] = [];
  const db = await engine.GraphDB.open({
    dataDir: join(ctx.tmp, 'mem-db'),
    search: { settings: searchSettingsFrom(config), embeddingDelayMs: 0, logger: { info: () => undefined, warn: (message) => void (warnings.length < 3 && warnings.push(message)) } },
  });
  try {
    const loadStarted = performance.now();
    const loader = await db.bulkLoader();
    const now = BigInt(Date.now());
    for (let i = 0; i < count; i++) {
      const text = memoryText(i);
      loader.addNode(['Memory'], new Map<string, import('../../../src/engine/index.js').CypherValue>([
        ['content', text], ['title', text.slice(0, 40)], ['type', 'note'], ['tags', [TOPICS[i % TOPICS.length]!]], ['created_at', now], ['access_count', 0n],
      ]));
    }
    loader.finish();
    const loadMs = performance.now() - loadStarted;
    const embedStarted = performance.now();
    const search = db.search();
    await search.embeddingWorker?.drain();
    const embedMs = performance.now() - embedStarted;
    const vectors = search.embeddingCollection?.size ?? 0;
    if (vectors < count) throw new Error(`only ${vectors} of ${count} memories embedded: ${JSON.stringify(search.embeddingWorker?.counters)} ${warnings.join('; ')}`);
    ctx.log(`  MEM: ${count} memories loaded in ${loadMs.toFixed(0)} ms, indexed and embedded (${vectors} vectors) in ${embedMs.toFixed(0)} ms`);
    const tools = new engine.MemoryTools(db.memoryToolHost({ database: db.defaultDatabase }), engine.MEMORY_TOOLS);
    const call = async (name: string, args: Record<string, unknown>) => {
      const outcome = await tools.run({ id: name, name, arguments: JSON.stringify(args) });
      if (!outcome.ok) throw new Error(`${name}: ${outcome.output}`);
      return JSON.parse(outcome.output) as { method?: string; results?: unknown[] };
    };
    const sample = await call('discover', { query: 'hnsw graph replaces the page cache', depth: 2 });
    rec.check('discover answers', (sample.results?.length ?? 0) > 0, `method ${sample.method}, ${sample.results?.length ?? 0} hits`);
    const store: Timing = await measure((i) => call('store', { content: `benchmark memory ${i}: ${memoryText(count + i)}`, tags: ['bench'] }), {
      budgetMs: ctx.profile.budgetMs,
      warmupOps: 3,
    });
    const discover: Timing = await measure((i) => call('discover', { query: `${TOPICS[i % TOPICS.length]} ${THINGS[i % THINGS.length]} note ${i}`, depth: 2 }), {
      budgetMs: ctx.profile.budgetMs,
      warmupOps: 3,
    });
    const note = `${count} memories; load ${loadMs.toFixed(0)} ms, index + embed ${embedMs.toFixed(0)} ms (${vectors} vectors, tiny 32-d test model)`;
    rec.ok('graphdb store (tool)', 'ours', store, `${note}; CREATE + suggestions search; the new memory is embedded in the background`);
    rec.ok('graphdb discover depth 2 (tool)', 'limit', discover, `${sample.method}; query embedding + hybrid search + decay ranking + 2-hop expansion`);
    ctx.log(`  MEM: store p50 ${store.p50Ms.toFixed(2)} ms p99 ${store.p99Ms.toFixed(2)} ms; discover p50 ${discover.p50Ms.toFixed(2)} ms p99 ${discover.p99Ms.toFixed(2)} ms`);
  } catch (error) {
    rec.failed('graphdb memory tools', 'ours', error);
  } finally {
    await db.close();
  }
  return rec.finish();
}
