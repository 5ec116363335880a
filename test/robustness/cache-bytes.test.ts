/**
 * Caches bounded in bytes, written as the attacks:
 * - 240 distinct large GraphQL documents against a real server in a child process with a 160 MiB
 *   heap and `dbms.memory.graphql_cache.max_size` of 8 MiB (mercurius's entry-counting cache
 *   retained about 18 MiB per document of 20,000 aliased fields, about 1.9 MiB per document of
 *   the 2,000 used here): every document is answered, the process lives, and its heap stays far
 *   below the 450 MiB that 240 retained documents need;
 * - distinct large Cypher statements against an engine with `queryCacheMaxBytes`: the query and
 *   plan cache stays under its byte bound, and the estimate per statement stays above the heap
 *   really retained.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { GraphDB } from '../../src/engine/index.js';
import { compiledStatementBytes } from '../../src/engine/cypher/query-cache.js';
import { startChildServer, type ChildServer } from './fixtures/child-server.js';

const MIB = 1024 * 1024;

setFlagsFromString('--expose-gc');
/** A full garbage collection, so heap figures count what is retained. */
const collectGarbage = runInNewContext('gc') as () => void;

/** A document of `fields` aliased `__typename` selections (not counted by the complexity limit). */
function largeDocument(index: number, fields: number): string {
  return `query Q${index} { ` + Array.from({ length: fields }, (_, k) => `a${k}: __typename`).join(' ') + ' }';
}

async function heapUsed(url: string): Promise<number> {
  const text = await (await fetch(`${url}/metrics`)).text();
  return Number(/^graphdb_nodejs_heap_size_used_bytes (\S+)$/m.exec(text)![1]);
}

describe('GraphQL document cache bounded in bytes', () => {
  let server: ChildServer;
  before(async () => {
    server = await startChildServer({ heapMiB: 160, args: ['--no-auth'], env: { GRAPHDB_GRAPHQL_CACHE_MAX_SIZE: '8mb' } });
  });
  after(() => server.stop());

  it('answers 240 distinct documents of 2,000 fields without retaining them', async () => {
    const documents = Array.from({ length: 240 }, (_, i) => largeDocument(i, 2_000));
    let next = 0;
    const statuses: number[] = [];
    const client = async (): Promise<void> => {
      while (next < documents.length) {
        const query = documents[next++];
        const response = await fetch(`${server.url}/graphql`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ query }),
        });
        const body = (await response.json()) as { data?: Record<string, string> };
        statuses.push(response.status);
        assert.equal(body.data?.a1999, 'Query');
      }
    };
    await Promise.all([client(), client(), client()]);
    assert.equal(statuses.length, 240);
    assert.ok(
      statuses.every((s) => s === 200),
      'every document answered',
    );
    assert.ok(server.alive(), `the server died:\n${server.output().slice(-2000)}`);
    const heap = await heapUsed(server.url);
    assert.ok(heap < 120 * MIB, `heap ${(heap / MIB).toFixed(0)} MiB (240 retained documents would need about 450 MiB)`);
  });
});

describe('Cypher query and plan cache bounded in bytes', () => {
  it('keeps distinct large statements under dbms.memory.query_cache.max_size', async () => {
    const maxBytes = 8 * MIB;
    const db = await GraphDB.open({ search: false, queryCacheMaxBytes: maxBytes });
    try {
      const session = db.session();
      const statement = (i: number): string => `RETURN size([${'1,'.repeat(10_000)}${i}]) AS n`;
      collectGarbage();
      const heapBefore = process.memoryUsage().heapUsed;
      for (let i = 0; i < 30; i++) {
        const result = await session.run(statement(i));
        assert.deepEqual((await result.pull(-1)).records, [[10_001n]]);
      }
      const stats = db.cacheStats().query;
      assert.ok(stats.bytes <= maxBytes, `cache holds ${stats.bytes} estimated bytes`);
      assert.ok(stats.entries < 30, `${stats.entries} entries kept`);
      assert.ok(compiledStatementBytes(statement(0)) > 3 * MIB, 'the estimate is above the measured ~3 MiB of such a statement');
      collectGarbage();
      const growth = process.memoryUsage().heapUsed - heapBefore;
      assert.ok(growth < 40 * MIB, `heap grew ${(growth / MIB).toFixed(0)} MiB (30 cached statements would retain about 90 MiB)`);
    } finally {
      await db.close();
    }
  });
});
