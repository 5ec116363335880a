import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { DEFAULT_CONFIG } from '../../src/engine/config/index.js';
import type { AsyncWriteSettings } from '../../src/engine/config/index.js';
import type { QueryParameters, ResultStream, Session, Transaction } from '../../src/engine/session/types.js';
import { OpenTransactions } from '../../src/server/http/tx/open-transactions.js';
import { WriteBehindQueue, type PendingWrite } from '../../src/server/http/tx/write-behind.js';
import { eventually } from '../helpers/eventually.js';

/** A recording session: statements containing "FAIL" throw; commits append to `committed`. */
function recorder() {
  const committed: string[][] = [];
  let sessionsOpen = 0;
  const stream = { discard: async () => ({}) } as unknown as ResultStream;
  const run = async (statement: string): Promise<ResultStream> => {
    if (statement.includes('FAIL')) throw new Error(`bad statement ${statement}`);
    return stream;
  };
  const session: Session = {
    database: 'graphdb',
    async run(statement: string) {
      await run(statement);
      committed.push([statement]);
      return stream;
    },
    async beginTransaction() {
      const statements: string[] = [];
      let open = true;
      const tx: Transaction = {
        id: 'tx',
        get isOpen() {
          return open;
        },
        async run(statement: string, _parameters?: QueryParameters) {
          const result = await run(statement);
          statements.push(statement);
          return result;
        },
        async commit() {
          open = false;
          committed.push(statements);
          return 'bookmark';
        },
        async rollback() {
          open = false;
        },
      };
      return tx;
    },
    lastBookmark: () => null,
    async close() {
      sessionsOpen--;
    },
  };
  return {
    committed,
    openSession: (_options?: unknown) => {
      sessionsOpen++;
      return session;
    },
    get sessionsOpen() {
      return sessionsOpen;
    },
  };
}

const write = (statement: string, nodes = 1, relationships = 0): PendingWrite => ({
  id: `w-${statement}`,
  statement,
  parameters: new Map(),
  username: null,
  nodes,
  relationships,
});
const settings = (overrides: Partial<AsyncWriteSettings>): AsyncWriteSettings => ({ ...DEFAULT_CONFIG.async_writes, ...overrides });

describe('write-behind queue', () => {
  it('flushes after the flush interval in one transaction', async () => {
    const r = recorder();
    const queue = new WriteBehindQueue({
      openSession: r.openSession,
      settingsFor: () => settings({ flush_interval: 30 }),
      onFailure: () => {},
    });
    queue.enqueue('graphdb', write('CREATE (:A)'));
    queue.enqueue('graphdb', write('CREATE (:B)'));
    assert.equal(queue.stats().pendingStatements, 2);
    assert.deepEqual(r.committed, []);
    await eventually(() => (r.committed.length > 0 ? true : undefined), 'the timed flush');
    assert.deepEqual(r.committed, [['CREATE (:A)', 'CREATE (:B)']]);
    assert.equal(queue.stats().flushedStatements, 2);
    assert.equal(r.sessionsOpen, 0);
  });

  it('flushes at once when a cache limit is reached, and 0 means unlimited', async () => {
    const r = recorder();
    const limits = {
      nodes: settings({ flush_interval: 60_000, max_node_cache_size: 3 }),
      edges: settings({ flush_interval: 60_000, max_node_cache_size: 0, max_edge_cache_size: 2 }),
    };
    const queue = new WriteBehindQueue({
      openSession: r.openSession,
      settingsFor: (db) => (db === 'nodes' ? limits.nodes : limits.edges),
      onFailure: () => {},
    });
    queue.enqueue('nodes', write('CREATE (:A)', 2));
    assert.equal(queue.hasPending('nodes'), true);
    queue.enqueue('nodes', write('CREATE (:B)', 1));
    queue.enqueue('edges', write('CREATE ()-[:R]->()', 1000, 1));
    assert.equal(queue.hasPending('edges'), true, 'node limit 0 is unlimited');
    queue.enqueue('edges', write('CREATE ()-[:R]->()', 1000, 1));
    await queue.flushDatabase('nodes');
    await eventually(() => (r.committed.length === 2 ? true : undefined), 'both limit flushes');
    assert.equal(queue.hasPending('nodes'), false);
    assert.equal(queue.hasPending('edges'), false);
  });

  it('retries a failed batch statement by statement, keeping the good ones', async () => {
    const r = recorder();
    const failures: string[] = [];
    const queue = new WriteBehindQueue({
      openSession: r.openSession,
      settingsFor: () => settings({ flush_interval: 60_000 }),
      onFailure: (_db, w) => failures.push(w.statement),
    });
    queue.enqueue('graphdb', write('CREATE (:A)'));
    queue.enqueue('graphdb', write('CREATE FAIL'));
    queue.enqueue('graphdb', write('CREATE (:C)'));
    await queue.flushAll();
    assert.deepEqual(r.committed, [['CREATE (:A)'], ['CREATE (:C)']]);
    assert.deepEqual(failures, ['CREATE FAIL']);
    assert.equal(queue.stats().failedStatements, 1);
  });

  it('keeps flushing after a flush that could not even open a session', async () => {
    const r = recorder();
    let broken = true;
    const failures: string[] = [];
    const queue = new WriteBehindQueue({
      openSession: (options) => {
        if (broken) throw new Error('database is gone');
        return r.openSession(options);
      },
      settingsFor: () => settings({ flush_interval: 60_000 }),
      onFailure: (_db, w) => failures.push(w.statement),
    });
    queue.enqueue('graphdb', write('CREATE (:Lost)'));
    await queue.flushDatabase('graphdb');
    assert.deepEqual(failures, ['CREATE (:Lost)']);
    broken = false;
    queue.enqueue('graphdb', write('CREATE (:Kept)'));
    await queue.flushDatabase('graphdb');
    assert.deepEqual(r.committed, [['CREATE (:Kept)']]);
  });

  it('close() flushes everything and refuses new writes', async () => {
    const r = recorder();
    const queue = new WriteBehindQueue({
      openSession: r.openSession,
      settingsFor: () => settings({ flush_interval: 60_000 }),
      onFailure: () => {},
    });
    queue.enqueue('a', write('CREATE (:A)'));
    queue.enqueue('b', write('CREATE (:B)'));
    await queue.close();
    assert.equal(r.committed.length, 2);
    assert.throws(() => queue.enqueue('a', write('CREATE (:C)')));
  });
});

describe('open HTTP transactions', () => {
  it('expires idle transactions and rolls them back', async () => {
    const r = recorder();
    const expired: string[] = [];
    const registry = new OpenTransactions(40, (entry) => expired.push(entry.id));
    const session = r.openSession();
    const tx = await session.beginTransaction();
    const entry = registry.add('graphdb', 'ann', session, tx);
    assert.equal(registry.acquire('graphdb', entry.id, 'ann'), entry);
    assert.throws(() => registry.acquire('graphdb', entry.id, 'ann'), /in use/);
    registry.release(entry);
    assert.throws(() => registry.acquire('other', entry.id, 'ann'), /Unrecognized transaction id/);
    assert.throws(() => registry.acquire('graphdb', entry.id, 'bob'), /Unrecognized transaction id/);
    await eventually(() => (expired.length > 0 ? true : undefined), 'the transaction to expire');
    assert.deepEqual(expired, [entry.id]);
    assert.equal(tx.isOpen, false);
    assert.equal(registry.size, 0);
    await registry.close();
  });
});
