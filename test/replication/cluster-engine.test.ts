/**
 * Three in-process engines joined to a 3-server NATS JetStream cluster: one takes the lease,
 * its commits reach every member through the log (same content hash), followers refuse local
 * writes with NotALeader, a member that leaves hands the lease over, and a member that was
 * away catches up from the stream.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { GraphDB, type CypherValue } from '../../src/engine/index.js';
import { startNatsCluster, until, type NatsCluster } from './nats-cluster.ts';
import { storeOf } from '../../src/engine/engine-internals.js';

let nats: NatsCluster;
const dirs: string[] = [];
const engines: (GraphDB | null)[] = [null, null, null];

async function member(i: number): Promise<GraphDB> {
  dirs[i] ??= mkdtempSync(join(tmpdir(), `graphdb-member${i}-`));
  const db = await GraphDB.open({ dataDir: dirs[i], search: false });
  db.holdWritesForCluster();
  await db.joinCluster({
    servers: [nats.urls[i]],
    nodeId: `m${i}`,
    name: 'engine_test',
    boltAddress: `127.0.0.1:${17000 + i}`,
    httpAddress: `127.0.0.1:${17100 + i}`,
    leaseTtlMs: 1500,
  });
  engines[i] = db;
  return db;
}

async function rows(db: GraphDB, query: string): Promise<CypherValue[][]> {
  const session = db.session();
  try {
    return (await (await session.run(query)).pull(-1)).records.map((r) => [...r]);
  } finally {
    await session.close();
  }
}

async function leaderIndex(): Promise<number> {
  let found = -1;
  await until(() => (found = engines.findIndex((db) => db?.cluster?.leading === true)) >= 0, 15_000, 'a leader');
  return found;
}

async function converged(): Promise<string> {
  const live = engines.filter((db): db is GraphDB => db !== null);
  const leader = live.find((db) => db.cluster!.leading)!;
  const version = storeOf(leader).version;
  await until(() => live.every((db) => storeOf(db).version === version), 15_000, `every member at version ${version}`);
  const hashes = live.map((db) => db.cluster!.contentHash(db.defaultDatabase));
  assert.equal(new Set(hashes).size, 1, `content hashes differ: ${hashes.join(' ')}`);
  return hashes[0];
}

before(async () => {
  nats = await startNatsCluster(3);
  await Promise.all([0, 1, 2].map(member));
});

after(async () => {
  for (const db of engines) await db?.close();
  await nats?.close();
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

test('the leader replicates its commits; followers refuse local writes', async () => {
  const l = await leaderIndex();
  const leader = engines[l]!;
  await rows(leader, 'CREATE CONSTRAINT u FOR (p:P) REQUIRE p.k IS UNIQUE');
  await rows(leader, 'UNWIND range(1, 20) AS i CREATE (:P {k: i})-[:R {w: i}]->(:Q)');
  await rows(leader, 'MATCH (p:P) WHERE p.k > 15 DETACH DELETE p');
  await converged();
  const follower = engines[(l + 1) % 3]!;
  assert.equal(follower.cluster!.leading, false);
  await assert.rejects(rows(follower, 'CREATE (:Nope)'), (error: { code?: string }) => error.code === 'Neo.ClientError.Cluster.NotALeader');
  assert.deepEqual(await rows(follower, 'MATCH (p:P) RETURN count(p)'), [[15n]]);
  const status = follower.cluster!.status();
  assert.equal(status.role, 'FOLLOWER');
  assert.equal(status.leader?.nodeId, `m${l}`);
  assert.equal(status.databases[0].lag, 0n);
  assert.equal(status.databases[0].appliedSequence, storeOf(leader).appliedSequence);
});

test('a leader that leaves hands over; a returning member catches up from the stream', async () => {
  const l = await leaderIndex();
  await engines[l]!.close();
  engines[l] = null;
  const started = Date.now();
  const next = await leaderIndex();
  assert.notEqual(next, l);
  const elapsed = Date.now() - started;
  assert.ok(elapsed < 10_000, `new leader after ${elapsed} ms`);
  await rows(engines[next]!, 'UNWIND range(1, 30) AS i CREATE (:After {i: i})');
  await member(l);
  await converged();
  assert.deepEqual(await rows(engines[l]!, 'MATCH (n:After) RETURN count(n)'), [[30n]]);
});
