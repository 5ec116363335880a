/**
 * MEM: the AI-memory tools at scale (docs/ai-memory.md). N memories (100k at medium and large,
 * 10k at smoke; deterministic texts, 2000 distinct) are bulk-loaded as `:Memory` nodes, text-indexed
 * by the search services and given vectors from a local GGUF embedding model (each distinct text
 * embedded once), then the latency of the `store` and `discover` tools (the MemoryTools the MCP
 * server runs; every query embedded by the same model) is measured. The model is the tiny
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
const THINGS = [
  'write-ahead log',
  'page cache',
  'hnsw graph',
  'bm25 postings',
  'query plan',
  'session pool',
  'checkpoint',
  'token bucket',
  'role matrix',
];

/** Distinct memory texts: the corpus repeats them, so embedding it costs DISTINCT model calls. */
const DISTINCT = 2000;

/** Deterministic memory text number `i`. */
function memoryText(i: number): string {
  const k = i % DISTINCT;
  return `${TOPICS[k % TOPICS.length]} ${VERBS[(k * 7) % VERBS.length]} the ${THINGS[(k * 13) % THINGS.length]} (note ${k}); see ${TOPICS[(k * 5) % TOPICS.length]}`;
}

type EngineIndex = typeof import('../../../src/engine/index.js');

/** Runs MEM. */
export async function runAiMemory(ctx: BenchContext): Promise<WorkloadResult> {
  const count = ctx.profile.name === 'smoke' ? 10_000 : 100_000;
  const rec = new WorkloadRecorder(
    'MEM',
    `AI memory: store / discover latency at ${count} memories (local embeddings: tiny test model)`,
    'ops/s',
    'informational (no peer; issue 20)',
    [],
  );
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
  const { createEmbeddingProvider, searchSettingsFrom } = (await import(searchUrl)) as typeof import('../../../src/engine/search/index.js');
  const { writeTinyBert } = await import('../../../test/search/fixtures/tiny-bert.js');
  const modelsDir = join(ctx.tmp, 'mem-models');
  const { mkdirSync } = await import('node:fs');
  mkdirSync(modelsDir, { recursive: true });
  writeTinyBert(join(modelsDir, 'tiny-embed.gguf'), { contextLength: 512 });
  const embedder = createEmbeddingProvider(
    { ...DEFAULT_CONFIG.embeddings, enabled: true, provider: 'local', model: 'tiny-embed' },
    modelsDir,
  );
  const db = await engine.GraphDB.open({
    dataDir: join(ctx.tmp, 'mem-db'),
    search: { settings: searchSettingsFrom(DEFAULT_CONFIG), embedder },
  });
  try {
    const loadStarted = performance.now();
    const loader = await db.bulkLoader();
    const now = BigInt(Date.now());
    for (let i = 0; i < count; i++) {
      const text = memoryText(i);
      loader.addNode(
        ['Memory'],
        new Map<string, import('../../../src/engine/index.js').CypherValue>([
          ['content', text],
          ['title', text.slice(0, 40)],
          ['type', 'note'],
          ['tags', [TOPICS[i % TOPICS.length]]],
          ['created_at', now],
          ['access_count', 0n],
        ]),
      );
    }
    await loader.finish();
    const loadMs = performance.now() - loadStarted;
    const embedStarted = performance.now();
    const search = db.search();
    const vectorOf = new Map<string, Float32Array>();
    const { rows } = await db.cypherRunner().run('MATCH (m:Memory) RETURN id(m), m.content', new Map(), { mode: 'READ' });
    for (let start = 0; start < rows.length; start += 256) {
      const batch = rows.slice(start, start + 256);
      const missing = [...new Set(batch.map((row) => row[1] as string).filter((text) => !vectorOf.has(text)))];
      const vectors = missing.length === 0 ? [] : await embedder.embed(missing);
      missing.forEach((text, index) => vectorOf.set(text, vectors[index]));
      for (const [id, text] of batch) search.setEmbedding(id as bigint, vectorOf.get(text as string)!);
    }
    const embedMs = performance.now() - embedStarted;
    const vectors = search.embeddingCollection?.size ?? 0;
    ctx.log(
      `  MEM: ${count} memories loaded in ${loadMs.toFixed(0)} ms; ${vectorOf.size} distinct texts embedded, ${vectors} vectors stored and text-indexed in ${embedMs.toFixed(0)} ms`,
    );
    const tools = new engine.MemoryTools(db.memoryToolHost({ database: db.defaultDatabase }), engine.MEMORY_TOOLS);
    const call = async (name: string, args: Record<string, unknown>) => {
      const outcome = await tools.run({ id: name, name, arguments: JSON.stringify(args) });
      if (!outcome.ok) throw new Error(`${name}: ${outcome.output}`);
      return JSON.parse(outcome.output) as { method?: string; results?: unknown[] };
    };
    const sample = await call('discover', { query: 'hnsw graph replaces the page cache', depth: 2 });
    rec.check('discover answers', (sample.results?.length ?? 0) > 0, `method ${sample.method}, ${sample.results?.length ?? 0} hits`);
    const store: Timing = await measure((i) => call('store', { content: `benchmark memory ${i}: ${memoryText(i)}`, tags: ['bench'] }), {
      budgetMs: ctx.profile.budgetMs,
      warmupOps: 3,
    });
    const discover: Timing = await measure(
      (i) => call('discover', { query: `${TOPICS[i % TOPICS.length]} ${THINGS[i % THINGS.length]} note ${i}`, depth: 2 }),
      {
        budgetMs: ctx.profile.budgetMs,
        warmupOps: 3,
      },
    );
    const note = `${count} memories; load ${loadMs.toFixed(0)} ms, embed ${vectorOf.size} distinct texts + index ${embedMs.toFixed(0)} ms (${vectors} vectors, tiny 32-d test model)`;
    rec.ok(
      'graphdb store (tool)',
      'ours',
      store,
      `${note}; CREATE + suggestions search (query embedded); the background embedding worker is off in this run`,
    );
    rec.ok(
      'graphdb discover depth 2 (tool)',
      'limit',
      discover,
      `${sample.method}; query embedding + hybrid search + decay ranking + 2-hop expansion`,
    );
    ctx.log(
      `  MEM: store p50 ${store.p50Ms.toFixed(2)} ms p99 ${store.p99Ms.toFixed(2)} ms; discover p50 ${discover.p50Ms.toFixed(2)} ms p99 ${discover.p99Ms.toFixed(2)} ms`,
    );
  } catch (error) {
    rec.failed('graphdb memory tools', 'ours', error);
  } finally {
    await db.close();
  }
  return rec.finish();
}
