/**
 * genai.vector.encodeBatch backed by the configured local GGUF embedding model (the tiny BERT the
 * search tests generate): vectors equal the provider's own, in order, usable with the vector
 * procedures in the same statement; provider, configuration and "no provider" errors.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { GraphDB } from '../../src/engine/index.js';
import { LocalEmbeddingProvider } from '../../src/engine/search/embeddings/local-provider.js';
import { writeTinyBert } from './fixtures/tiny-bert.js';

describe('genai.vector.encodeBatch', () => {
  let modelsDir = '';
  let provider: LocalEmbeddingProvider;
  let db: GraphDB;

  const rows = async (target: GraphDB, query: string, parameters: Record<string, unknown> = {}) =>
    (await (await target.session().run(query, parameters as never)).pull(-1)).records.map((r) => [...r]);

  before(async () => {
    modelsDir = mkdtempSync(join(tmpdir(), 'graphdb-genai-'));
    writeTinyBert(join(modelsDir, 'tiny-embed.gguf'));
    provider = new LocalEmbeddingProvider({ model: 'tiny-embed.gguf', modelsDir });
    db = await GraphDB.open({ search: { embedder: provider, eager: false } });
  });
  after(async () => {
    await db.close();
    await provider.close();
    rmSync(modelsDir, { recursive: true, force: true });
  });

  it('encodes each resource with the configured model, in order', async () => {
    const texts = ['graph database search', 'cat and dog'];
    const result = await rows(db, "CALL genai.vector.encodeBatch($texts, 'local') YIELD index, resource, vector RETURN index, resource, vector", { texts });
    const expected = await provider.embed(texts);
    assert.deepEqual(result.map((r) => [r[0], r[1]]), [[0n, texts[0]], [1n, texts[1]]]);
    for (let i = 0; i < texts.length; i++) {
      const vector = result[i]![2] as number[];
      assert.equal(vector.length, expected[i]!.length);
      vector.forEach((x, k) => assert.ok(Math.abs(x - expected[i]![k]!) < 1e-6));
    }
  });

  it('feeds the vector procedures: store the embeddings and query them in Cypher', async () => {
    await rows(db, "UNWIND ['graph database', 'water fire city'] AS t CREATE (:Doc {text: t})");
    await rows(
      db,
      "MATCH (d:Doc) WITH collect(d) AS docs CALL genai.vector.encodeBatch([d IN docs | d.text], 'LOCAL', {model: 'tiny-embed.gguf'}) YIELD index, vector " +
        'CALL db.create.setNodeVectorProperty(docs[index], "embedding", vector)',
    );
    const dims = (await provider.embed(['x']))[0]!.length;
    await rows(db, `CREATE VECTOR INDEX docs FOR (d:Doc) ON (d.embedding) OPTIONS {indexConfig: {\`vector.dimensions\`: ${dims}}}`);
    const [query] = await provider.embed(['graph database']);
    const hits = await rows(db, "CALL db.index.vector.queryNodes('docs', 1, $q) YIELD node RETURN node.text", { q: Array.from(query!) });
    assert.deepEqual(hits, [['graph database']]);
  });

  it('errors: another provider, a different model, unknown keys, no provider configured', async () => {
    await assert.rejects(rows(db, "CALL genai.vector.encodeBatch(['x'], 'OpenAI', {token: 'k'})"), /provider 'OpenAI' is not available/);
    await assert.rejects(rows(db, "CALL genai.vector.encodeBatch(['x'], 'local', {model: 'other'})"), /Model 'other' is not available/);
    await assert.rejects(rows(db, "CALL genai.vector.encodeBatch(['x'], 'local', {token: 'k'})"), /Unexpected configuration key 'token'/);
    const bare = await GraphDB.open({ search: { embedder: null, eager: false } });
    try {
      await assert.rejects(rows(bare, "CALL genai.vector.encodeBatch(['x'], 'local')"), /No embedding provider is configured/);
    } finally {
      await bare.close();
    }
  });
});
