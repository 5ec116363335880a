/**
 * Effects of settings that no component test observes through the configuration: each test loads
 * a configuration (environment variables or flags, as a user gives them), starts what the server
 * starts from it and observes the behaviour that the setting changes.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import https from 'node:https';
import os from 'node:os';
import path from 'node:path';
import tls from 'node:tls';
import { after, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { loadConfig, type DiscoveryContext } from '../../src/engine/config/index.js';
import { searchSettingsFrom } from '../../src/engine/index.js';
import { DatabaseSearch } from '../../src/engine/search/database-search.js';
import { clusterCount, hnswParameters, tuningFromSettings } from '../../src/engine/search/vector/tuning.js';
import { openEngine } from '../../src/server/engine-adapter.js';
import { startServer } from '../../src/server/index.js';
import { createLogger } from '../../src/server/logger.js';
import { commit, request, startTestServer } from '../http/helpers.js';
import { storeOf } from '../../src/engine/engine-internals.js';

const fixtures = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'http', 'fixtures');
const cert = path.join(fixtures, 'tls-cert.pem');
const key = path.join(fixtures, 'tls-key.pem');
const temporary: string[] = [];
after(() => {
  for (const dir of temporary) fs.rmSync(dir, { recursive: true, force: true });
});

function tempDir(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'graphdb-effects-'));
  temporary.push(dir);
  return dir;
}

function noDiscovery(dir: string): DiscoveryContext {
  return { env: {}, homeDir: dir, binDir: null, cwd: dir, platform: 'linux', systemConfigDir: path.join(dir, 'none'), exists: () => false };
}

/** Loads a configuration from environment variables only, with a fresh data directory. */
function fromEnv(env: Record<string, string>) {
  const dir = tempDir();
  return loadConfig({ env: { GRAPHDB_DATA_DIR: dir, ...env }, discovery: noDiscovery(dir) });
}

describe('vector settings reach the index tuning', () => {
  it('GRAPHDB_VECTOR_* and GRAPHDB_HNSW_* / GRAPHDB_KMEANS_NUM_CLUSTERS select strategy, presets and rebuild policy', () => {
    const { config } = fromEnv({
      GRAPHDB_VECTOR_ANN_QUALITY: 'accurate',
      GRAPHDB_VECTOR_HNSW_M: '24',
      GRAPHDB_VECTOR_HNSW_EF_CONSTRUCTION: '300',
      GRAPHDB_VECTOR_HNSW_EF_SEARCH: '0',
      GRAPHDB_VECTOR_PQ_SEGMENTS: '8',
      GRAPHDB_VECTOR_PQ_BITS: '6',
      GRAPHDB_VECTOR_IVFPQ_NPROBE: '4',
      GRAPHDB_VECTOR_IVFPQ_RERANK_TOPK: '50',
      GRAPHDB_VECTOR_IVFPQ_TRAINING_SAMPLE_MAX: '1000',
      GRAPHDB_VECTOR_IVF_HNSW_ENABLED: 'true',
      GRAPHDB_VECTOR_IVF_HNSW_MIN_CLUSTER_SIZE: '100',
      GRAPHDB_VECTOR_IVF_HNSW_MAX_CLUSTERS: '64',
      GRAPHDB_KMEANS_NUM_CLUSTERS: '40',
      GRAPHDB_HNSW_MAINT_INTERVAL_MS: '1234',
      GRAPHDB_HNSW_MIN_REBUILD_INTERVAL_SEC: '7',
      GRAPHDB_HNSW_TOMBSTONE_REBUILD_RATIO: '0.25',
      GRAPHDB_HNSW_MAX_TOMBSTONE_OVERHEAD_FACTOR: '3',
      GRAPHDB_HNSW_REBUILD_ENABLED: 'false',
    });
    const tuning = tuningFromSettings(config.vector);
    assert.deepEqual(hnswParameters(tuning), { m: 24, efConstruction: 300, efSearch: 200 }, 'overrides on top of the accurate preset');
    assert.equal(tuning.pqSegments, 8);
    assert.equal(tuning.pqBits, 6);
    assert.equal(tuning.ivfpqNprobe, 4);
    assert.equal(tuning.ivfpqRerankTopK, 50);
    assert.equal(tuning.ivfpqTrainingSampleMax, 1000);
    assert.equal(tuning.clusteringEnabled, true);
    assert.equal(clusterCount(tuning, 100_000), 40, 'kmeans_num_clusters under max_clusters');
    assert.equal(clusterCount({ ...tuning, kmeansClusters: 0 }, 1_000_000), 64, 'ivf_hnsw_max_clusters caps the automatic count');
    assert.equal(clusterCount(tuning, 1000), 10, 'ivf_hnsw_min_cluster_size bounds clusters by size');
    assert.equal(tuning.maintenanceIntervalMs, 1234);
    assert.equal(tuning.minRebuildIntervalMs, 7000);
    assert.equal(tuning.tombstoneRebuildRatio, 0.25);
    assert.equal(tuning.maxTombstoneOverheadFactor, 3);
    assert.equal(tuning.rebuildEnabled, false);
  });
});

describe('search.index_persist_delay_sec', () => {
  it('delays writing changed search indexes to disk by that many seconds', async () => {
    const dir = tempDir();
    const persisted = (): boolean => fs.existsSync(dir) && fs.readdirSync(dir).length > 0;
    const { config } = fromEnv({ GRAPHDB_PERSIST_SEARCH_INDEXES: 'true', GRAPHDB_SEARCH_INDEX_PERSIST_DELAY_SEC: '3600' });
    const delayed = new DatabaseSearch({ database: 'graphdb', settings: searchSettingsFrom(config), directory: dir });
    delayed.indexNode({ id: 1n, labels: ['Doc'], properties: new Map([['title', 'graph']]) });
    await new Promise((resolve) => setImmediate(resolve));
    assert.equal(persisted(), false, 'nothing written before the delay');
    await delayed.close();

    const immediate = fromEnv({ GRAPHDB_PERSIST_SEARCH_INDEXES: 'true', GRAPHDB_SEARCH_INDEX_PERSIST_DELAY_SEC: '0' }).config;
    const search = new DatabaseSearch({ database: 'graphdb', settings: searchSettingsFrom(immediate), directory: dir });
    const written = new Promise<void>((resolve) => {
      const watcher = fs.watch(path.dirname(dir), () => {
        if (persisted()) {
          watcher.close();
          resolve();
        }
      });
    });
    search.indexNode({ id: 1n, labels: ['Doc'], properties: new Map([['title', 'graph']]) });
    await written;
    assert.equal(persisted(), true);
    await search.close();
  });
});

describe('resources.low_memory', () => {
  it('opens databases with small SQLite page caches', async () => {
    const cacheOf = async (env: Record<string, string>): Promise<bigint> => {
      const opened = await openEngine(fromEnv(env).config, createLogger('silent'));
      try {
        const store = storeOf(opened.graphdb, 'graphdb');
        return store['writer'].db.pragma('cache_size', { simple: true }) as bigint;
      } finally {
        await opened.close();
      }
    };
    assert.equal(await cacheOf({}), -65536n);
    assert.equal(await cacheOf({ GRAPHDB_LOW_MEMORY: 'true' }), -2048n);
  });
});

describe('transaction memory settings', () => {
  const collect = (base: string, n: number) => commit(base, [`UNWIND range(1, ${n}) AS i RETURN size(collect(i)) AS n`]);
  const MEMORY_ERROR = 'Neo.TransientError.General.MemoryPoolOutOfMemoryError';

  it('db.memory.transaction.max bounds what one transaction may hold', async () => {
    const t = await startTestServer({}, { GRAPHDB_MEMORY_TRANSACTION_MAX: '4mb' });
    try {
      assert.deepEqual((await collect(t.url, 10_000)).body.errors, []);
      assert.equal((await collect(t.url, 1_000_000)).body.errors[0].code, MEMORY_ERROR);
    } finally {
      await t.stop();
    }
  });

  it('dbms.memory.transaction.total.max bounds what all transactions hold together', async () => {
    const t = await startTestServer({}, { GRAPHDB_MEMORY_TRANSACTION_TOTAL_MAX: '4mb' });
    try {
      assert.deepEqual((await collect(t.url, 10_000)).body.errors, []);
      assert.equal((await collect(t.url, 1_000_000)).body.errors[0].code, MEMORY_ERROR);
    } finally {
      await t.stop();
    }
  });
});

describe('listener and database settings', () => {
  it('database.default_database names the database sessions use when none is given', async () => {
    const t = await startTestServer({ 'database.default_database': 'movies' });
    try {
      const shown = await commit(t.url, ['SHOW DEFAULT DATABASE YIELD name'], 'system');
      assert.deepEqual(shown.body.results[0].data[0].row, ['movies']);
      const written = await commit(t.url, ['CREATE (:Film) RETURN 1'], 'movies');
      assert.deepEqual(written.body.errors, []);
    } finally {
      await t.stop();
    }
  });

  it('server.http_enabled=false starts no HTTP listener', async () => {
    const dir = tempDir();
    const loaded = loadConfig({
      env: { GRAPHDB_HTTP_ENABLED: 'false', GRAPHDB_BOLT_PORT: '0', GRAPHDB_DATA_DIR: dir, GRAPHDB_NO_AUTH: 'true' },
      discovery: noDiscovery(dir),
    });
    const server = await startServer(loaded, { logger: createLogger('silent') });
    try {
      assert.equal(server.http, null);
      assert.notEqual(server.bolt, null);
    } finally {
      await server.close();
    }
  });

  it('server.http_tls_enabled serves the HTTP listener itself over TLS', async () => {
    const t = await startTestServer({ 'server.http_tls_enabled': true, 'server.https.cert_file': cert, 'server.https.key_file': key });
    try {
      assert.match(t.url, /^https:/);
      const status = await new Promise<number>((resolve, reject) => {
        https
          .get(`${t.url}/health`, { ca: fs.readFileSync(cert), servername: 'localhost' }, (response) => {
            response.resume();
            resolve(response.statusCode ?? 0);
          })
          .on('error', reject);
      });
      assert.equal(status, 200);
    } finally {
      await t.stop();
    }
  });

  it('server.bolt_tls_enabled with bolt_tls_cert and bolt_tls_key offers TLS on the Bolt port', async () => {
    const t = await startTestServer({
      'server.bolt_enabled': true,
      'server.bolt_port': 0,
      'server.bolt_address': '127.0.0.1',
      'server.bolt_tls_enabled': true,
      'server.bolt_tls_cert': cert,
      'server.bolt_tls_key': key,
    });
    try {
      const port = t.server.bolt!.port;
      const version = await new Promise<Buffer>((resolve, reject) => {
        const socket = tls.connect({ host: '127.0.0.1', port, ca: fs.readFileSync(cert), servername: 'localhost' }, () => {
          const handshake = Buffer.alloc(20);
          handshake.writeUInt32BE(0x6060b017, 0);
          handshake.writeUInt32BE(0x00000404, 4);
          socket.write(handshake);
        });
        socket.once('data', (data: Buffer) => {
          socket.destroy();
          resolve(data);
        });
        socket.on('error', reject);
      });
      assert.equal(version.length, 4);
      assert.deepEqual([...version], [0, 0, 4, 4], 'Bolt 4.4 agreed over TLS');
    } finally {
      await t.stop();
    }
  });

  it('database.mvcc_retention_ttl protects versions newer than now minus the TTL from pruning', async () => {
    const t = await startTestServer({ 'database.mvcc_retention_max_versions': 1 });
    try {
      await commit(t.url, ['CREATE (:Churn {v: 0})']);
      for (let v = 1; v <= 3; v++) await commit(t.url, [{ statement: 'MATCH (n:Churn) SET n.v = $v', parameters: { v } }]);
      const saved = await request(`${t.url}/admin/databases/graphdb/config`, {
        method: 'PUT',
        json: { overrides: { GRAPHDB_MVCC_RETENTION_TTL: '1h' } },
      });
      assert.equal(saved.status, 200, saved.text);
      const prune = async (): Promise<number> =>
        (await request(`${t.url}/admin/databases/graphdb/mvcc/prune`, { method: 'POST' })).body.run.pruned_versions as number;
      assert.equal(await prune(), 0, 'versions younger than an hour are protected');
      await request(`${t.url}/admin/databases/graphdb/config`, { method: 'PUT', json: { overrides: {} } });
      assert.equal(await prune(), 2, 'without the TTL the cap of one closed version prunes the other two');
    } finally {
      await t.stop();
    }
  });
});
