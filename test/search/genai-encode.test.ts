/**
 * genai.vector.encodeBatch and genai.vector.encode backed by the configured local GGUF embedding
 * model (the tiny BERT the search tests generate): vectors equal the provider's own, in order,
 * usable with the vector procedures in the same statement; the function in RETURN, LET, SET and
 * per row (null in, null out); where it cannot run; provider, configuration and "no provider" errors.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { GraphDB } from '../../src/engine/index.js';
import { LocalEmbeddingProvider } from '../../src/engine/search/embeddings/local-provider.js';
import { writeTinyBert } from './fixtures/tiny-bert.js';

describe('genai.vector.encodeBatch and genai.vector.encode', () => {
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
    const result = await rows(
      db,
      "CALL genai.vector.encodeBatch($texts, 'local') YIELD index, resource, vector RETURN index, resource, vector",
      { texts },
    );
    const expected = await provider.embed(texts);
    assert.deepEqual(
      result.map((r) => [r[0], r[1]]),
      [
        [0n, texts[0]],
        [1n, texts[1]],
      ],
    );
    for (let i = 0; i < texts.length; i++) {
      const vector = result[i][2] as number[];
      assert.equal(vector.length, expected[i].length);
      vector.forEach((x, k) => assert.ok(Math.abs(x - expected[i][k]) < 1e-6));
    }
  });

  it('feeds the vector procedures: store the embeddings and query them in Cypher', async () => {
    await rows(db, "UNWIND ['graph database', 'water fire city'] AS t CREATE (:Doc {text: t})");
    await rows(
      db,
      "MATCH (d:Doc) WITH collect(d) AS docs CALL genai.vector.encodeBatch([d IN docs | d.text], 'LOCAL', {model: 'tiny-embed.gguf'}) YIELD index, vector " +
        'CALL db.create.setNodeVectorProperty(docs[index], "embedding", vector)',
    );
    const dims = (await provider.embed(['x']))[0].length;
    await rows(db, `CREATE VECTOR INDEX docs FOR (d:Doc) ON (d.embedding) OPTIONS {indexConfig: {\`vector.dimensions\`: ${dims}}}`);
    const [query] = await provider.embed(['graph database']);
    const hits = await rows(db, "CALL db.index.vector.queryNodes('docs', 1, $q) YIELD node RETURN node.text", { q: Array.from(query) });
    assert.deepEqual(hits, [['graph database']]);
  });

  it('genai.vector.encode in RETURN, LET, SET and per row, evaluated ahead of its clause', async () => {
    const [expected] = await provider.embed(['water fire city']);
    const [[returned]] = (await rows(db, "RETURN genai.vector.encode('water fire city', 'local') AS v")) as [[number[]]];
    assert.equal(returned.length, expected.length);
    returned.forEach((x, k) => assert.ok(Math.abs(x - expected[k]) < 1e-6));
    assert.deepEqual(await rows(db, "UNWIND ['a b', null, 'cat'] AS t RETURN t, genai.vector.encode(t, 'local') IS NULL AS missing"), [
      ['a b', false],
      [null, true],
      ['cat', false],
    ]);
    assert.deepEqual(
      await rows(db, "LET v = genai.vector.encode('x', 'local', {model: 'tiny-embed.gguf'}) RETURN size(v) = $n AS ok", {
        n: BigInt(expected.length),
      }),
      [[true]],
    );
    await rows(db, "CREATE (n:Note {text: 'water fire city'}) SET n.embedding = genai.vector.encode(n.text, 'local')");
    const [[stored]] = (await rows(db, 'MATCH (n:Note) RETURN n.embedding')) as [[number[]]];
    stored.forEach((x, k) => assert.ok(Math.abs(x - expected[k]) < 1e-6));
    await assert.rejects(
      rows(db, "MATCH (n:Note) WHERE genai.vector.encode(n.text, 'local') IS NOT NULL RETURN n"),
      /cannot be evaluated here/,
    );
    await assert.rejects(rows(db, "RETURN genai.vector.encode('x', 'OpenAI') AS v"), /provider 'OpenAI' is not available/);
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
