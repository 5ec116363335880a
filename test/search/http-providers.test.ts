import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { HostedApiEmbeddingProvider, LocalServerEmbeddingProvider } from '../../src/engine/search/embeddings/http-providers.js';
import { HttpReranker, RerankStage } from '../../src/engine/search/rerank/reranker.js';

interface Seen {
  path: string;
  auth: string | undefined;
  body: Record<string, unknown>;
}

/** Starts a server on port 0 answering with `handler`; records every request. */
async function serve(handler: (path: string, body: Record<string, unknown>) => { status: number; json: unknown }) {
  const seen: Seen[] = [];
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    let text = '';
    req.on('data', (chunk) => (text += chunk));
    req.on('end', () => {
      const body = JSON.parse(text || '{}') as Record<string, unknown>;
      seen.push({ path: req.url ?? '', auth: req.headers.authorization, body });
      const { status, json } = handler(req.url ?? '', body);
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(json));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { url, seen, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

const fake = (text: string): number[] => [text.length, 1, 0];

test('local_server provider uses /api/embed in batches', async () => {
  const server = await serve((_path, body) => ({ status: 200, json: { embeddings: (body.input as string[]).map(fake) } }));
  try {
    const provider = new LocalServerEmbeddingProvider({ url: server.url, model: 'nomic' });
    const vectors = await provider.embed(['ab', 'abcd']);
    assert.deepEqual(
      vectors.map((v) => Array.from(v)),
      [
        [2, 1, 0],
        [4, 1, 0],
      ],
    );
    assert.equal(provider.dimensions, 3);
    assert.deepEqual(
      server.seen.map((s) => [s.path, s.body.model]),
      [['/api/embed', 'nomic']],
    );
  } finally {
    await server.close();
  }
});

test('local_server provider falls back to the older /api/embeddings endpoint', async () => {
  const server = await serve((path, body) =>
    path === '/api/embed'
      ? { status: 404, json: { error: 'not found' } }
      : { status: 200, json: { embedding: fake(body.prompt as string) } },
  );
  try {
    const provider = new LocalServerEmbeddingProvider({ url: server.url, model: 'm' });
    assert.deepEqual(
      (await provider.embed(['a', 'abc'])).map((v) => v[0]),
      [1, 3],
    );
    assert.deepEqual(
      server.seen.map((s) => s.path),
      ['/api/embed', '/api/embeddings', '/api/embeddings'],
    );
  } finally {
    await server.close();
  }
});

test('hosted_api provider speaks the OpenAI embeddings API with a bearer key', async () => {
  const server = await serve((_path, body) => ({
    status: 200,
    json: { data: (body.input as string[]).map((t, index) => ({ index, embedding: fake(t) })).reverse() },
  }));
  try {
    const provider = new HostedApiEmbeddingProvider({
      url: `${server.url}/v1`,
      model: 'text-embedding-3-small',
      apiKey: 'sk-test',
      dimensions: 3,
    });
    const vectors = await provider.embed(['x', 'xyz']);
    assert.deepEqual(
      vectors.map((v) => v[0]),
      [1, 3],
      'ordered by index',
    );
    assert.equal(server.seen[0].path, '/v1/embeddings');
    assert.equal(server.seen[0].auth, 'Bearer sk-test');
    assert.equal(server.seen[0].body.dimensions, 3);
  } finally {
    await server.close();
  }
});

test('malformed provider answers and HTTP errors are reported, not stored', async () => {
  const server = await serve((path) =>
    path === '/v1/embeddings' ? { status: 200, json: { data: [{ index: 0, embedding: ['x'] }] } } : { status: 500, json: {} },
  );
  try {
    await assert.rejects(new HostedApiEmbeddingProvider({ url: server.url, model: 'm' }).embed(['a']), /not a list of finite numbers/);
    await assert.rejects(new LocalServerEmbeddingProvider({ url: server.url, model: 'm' }).embed(['a']), /HTTP 500/);
  } finally {
    await server.close();
  }
});

test('HTTP reranker reorders by relevance_score and fails open on malformed output', async () => {
  let malformed = false;
  const server = await serve((_path, body) =>
    malformed
      ? { status: 200, json: { results: 'nope' } }
      : { status: 200, json: { results: (body.documents as string[]).map((d, index) => ({ index, relevance_score: d.length })) } },
  );
  try {
    const stage = new RerankStage(new HttpReranker(`${server.url}/rerank`, 'bge-reranker'));
    await stage.loaded;
    const ranked = await stage.apply('q', ['a', 'abc', 'ab'], (d) => d);
    assert.deepEqual(
      ranked.map((r) => r.item),
      ['abc', 'ab', 'a'],
    );
    assert.equal(server.seen[0].body.query, 'q');
    malformed = true;
    assert.deepEqual(
      (await stage.apply('q', ['a', 'abc'], (d) => d)).map((r) => [r.item, r.score]),
      [
        ['a', null],
        ['abc', null],
      ],
    );
  } finally {
    await server.close();
  }
});
