/**
 * LangChain JS's Neo4jVectorStore and Neo4jGraph, unchanged, against `graphdb serve` (auth on,
 * Bolt on an ephemeral port, no database named: the libraries ask for `neo4j`).
 * The embedding model is the user's code in LangChain; this test brings a deterministic
 * bag-of-words one, so the expected Neo4j scores ((1 + cos) / 2) can be computed here.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Embeddings } from '@langchain/core/embeddings';
import { Neo4jGraph } from '@langchain/community/graphs/neo4j_graph';
import { Neo4jVectorStore } from '@langchain/community/vectorstores/neo4j_vector';
import neo4j, { type Driver } from 'neo4j-driver';
import { startTestServer, type TestServer } from '../http/helpers.js';

const VOCABULARY = ['graph', 'database', 'cat', 'dog', 'pet', 'vector', 'search', 'city', 'river', 'music'];

/** Counts of the vocabulary words (plus one "other" slot), as a deterministic embedding. */
class WordCountEmbeddings extends Embeddings {
  constructor() {
    super({});
  }

  static embed(text: string): number[] {
    const vector = new Array<number>(VOCABULARY.length + 1).fill(0);
    for (const word of text.toLowerCase().match(/[a-z]+/g) ?? []) {
      const slot = VOCABULARY.indexOf(word.replace(/s$/, ''));
      vector[slot === -1 ? VOCABULARY.length : slot] += 1;
    }
    return vector;
  }

  async embedDocuments(documents: string[]): Promise<number[][]> {
    return documents.map((d) => WordCountEmbeddings.embed(d));
  }

  async embedQuery(document: string): Promise<number[]> {
    return WordCountEmbeddings.embed(document);
  }
}

function neo4jCosineScore(a: number[], b: number[]): number {
  const dot = a.reduce((sum, x, i) => sum + x * b[i], 0);
  const norm = (v: number[]) => Math.sqrt(v.reduce((sum, x) => sum + x * x, 0));
  return (1 + dot / (norm(a) * norm(b))) / 2;
}

const TEXTS = ['graph database for vector search', 'my cat and my dog are pets', 'the river runs through the city', 'music of the city'];

describe('LangChain Neo4jVectorStore and Neo4jGraph against graphdb serve', () => {
  let t: TestServer;
  let url: string;
  let driver: Driver;
  const embeddings = new WordCountEmbeddings();
  const stores: Neo4jVectorStore[] = [];
  const credentials = () => ({ url, username: 'root', password: 'rootpw' });

  before(async () => {
    t = await startTestServer(
      {
        'auth.enabled': true,
        'server.bolt_enabled': true,
        'server.bolt_port': 0,
        'server.bolt_address': '127.0.0.1',
        'async_writes.enabled': false,
      },
      { GRAPHDB_AUTH: 'root:rootpw' },
    );
    url = `bolt://127.0.0.1:${t.server.bolt!.port}`;
    driver = neo4j.driver(url, neo4j.auth.basic('root', 'rootpw'));
  });
  after(async () => {
    for (const store of stores) await store.close();
    await driver.close();
    await t.stop();
  });

  it('fromTexts on an empty database creates the vector index and the nodes; similaritySearchWithScore gives Neo4j scores', async () => {
    const store = await Neo4jVectorStore.fromTexts(
      TEXTS,
      TEXTS.map((_, i) => ({ position: i })),
      embeddings,
      { ...credentials(), indexName: 'vector', nodeLabel: 'Chunk' },
    );
    stores.push(store);
    const { records } = await driver.executeQuery(
      "SHOW VECTOR INDEXES YIELD name, labelsOrTypes, properties, options WHERE name = 'vector'",
      {},
      { database: 'neo4j' },
    );
    assert.equal(records.length, 1);
    assert.deepEqual(records[0].get('labelsOrTypes'), ['Chunk']);
    assert.equal(Number(records[0].get('options').indexConfig['vector.dimensions']), VOCABULARY.length + 1);

    const query = 'cat and dog';
    const results = await store.similaritySearchWithScore(query, 2);
    assert.equal(results.length, 2);
    assert.equal(results[0][0].pageContent, TEXTS[1]);
    assert.equal(results[0][0].metadata.position, 1);
    const q = WordCountEmbeddings.embed(query);
    for (const [document, score] of results) {
      assert.ok(
        Math.abs(score - neo4jCosineScore(q, WordCountEmbeddings.embed(document.pageContent))) < 1e-5,
        `score of ${document.pageContent}`,
      );
    }
    assert.ok(results[0][1] >= results[1][1]);
  });

  it('fromExistingIndex finds the index; similaritySearch and the retriever return the nearest texts', async () => {
    const store = await Neo4jVectorStore.fromExistingIndex(embeddings, { ...credentials(), indexName: 'vector' });
    stores.push(store);
    const found = await store.similaritySearch('river city', 1);
    assert.deepEqual(
      found.map((d) => d.pageContent),
      [TEXTS[2]],
    );
    const retriever = store.asRetriever(2);
    const retrieved = await retriever.invoke('graph vector search');
    assert.equal(retrieved[0].pageContent, TEXTS[0]);
    assert.equal(retrieved.length, 2);
  });

  it('hybrid search combines the vector index and a full-text keyword index', async () => {
    const store = await Neo4jVectorStore.fromTexts(['alpha notes', 'beta dog pet', 'gamma city river music'], [{}, {}, {}], embeddings, {
      ...credentials(),
      indexName: 'hybrid_vector',
      keywordIndexName: 'hybrid_keyword',
      nodeLabel: 'HybridChunk',
      searchType: 'hybrid',
    });
    stores.push(store);
    const { records } = await driver.executeQuery(
      "SHOW FULLTEXT INDEXES YIELD name, labelsOrTypes WHERE name = 'hybrid_keyword'",
      {},
      { database: 'neo4j' },
    );
    assert.deepEqual(records[0].get('labelsOrTypes'), ['HybridChunk']);
    const results = await store.similaritySearchWithScore('beta dog', 2);
    assert.equal(results[0][0].pageContent, 'beta dog pet');
    assert.equal(results[0][1], 1, 'the best hit of each side is normalized to 1');
    // By vector alone 'gamma city river music' scores 0.75 of the best ('alpha notes'); the keyword index lifts it to 1.
    const gamma = await store.similaritySearchWithScore('gamma', 3);
    const hit = gamma.find(([document]) => document.pageContent === 'gamma city river music');
    assert.equal(hit?.[1], 1, 'a word unknown to the embedding is found through the keyword index');
  });

  it('fromExistingGraph embeds existing nodes and searches them', async () => {
    await driver.executeQuery(
      'UNWIND $rows AS row CREATE (:Movie {title: row.title, plot: row.plot})',
      {
        rows: [
          { title: 'Paws', plot: 'a dog and a cat' },
          { title: 'Flow', plot: 'a river through a city' },
        ],
      },
      { database: 'neo4j' },
    );
    const store = await Neo4jVectorStore.fromExistingGraph(embeddings, {
      ...credentials(),
      indexName: 'movies',
      nodeLabel: 'Movie',
      textNodeProperties: ['title', 'plot'],
      embeddingNodeProperty: 'embedding',
    });
    stores.push(store);
    const { records } = await driver.executeQuery(
      'MATCH (m:Movie) WHERE m.embedding IS NOT NULL RETURN count(m) AS c',
      {},
      { database: 'neo4j' },
    );
    assert.equal(Number(records[0].get('c')), 2);
    const found = await store.similaritySearchWithScore('dog', 1);
    assert.match(found[0][0].pageContent, /plot: a dog and a cat/);
    assert.equal(found[0][0].metadata.title, undefined, 'text properties are left out of the metadata');
  });

  it('Neo4jGraph.query runs without naming a database', async () => {
    const graph = new Neo4jGraph({ url, username: 'root', password: 'rootpw' });
    try {
      const rows = await graph.query('MATCH (c:Chunk) RETURN count(c) AS c');
      assert.equal(Number(rows[0].c), TEXTS.length);
    } finally {
      await graph.close();
    }
  });
});
