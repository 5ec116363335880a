/**
 * Failover torture on 3 nats-server + 3 graphdb members (loopback): `kill -9` of the leader
 * under concurrent write load, GRAPHDB_FAILOVER_CYCLES times (default 2 in the suite; the figures
 * in docs/replication.md come from 20 by hand). A write counts as acknowledged only when the
 * client saw success. Afterwards every acknowledged write is on every member and every member's
 * store has the same content hash. Then: a leader cut off from NATS (its NATS server stopped)
 * cannot acknowledge a write, and a killed follower catches up from the stream.
 */
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import neo4j, { type Driver } from 'neo4j-driver';
import { GraphDB } from '../../src/engine/index.js';
import { storeContentHash } from '../../src/engine/cluster/apply-entry.js';
import { GraphdbCluster, PASSWORD, USER } from './graphdb-cluster.ts';
import { until } from './nats-cluster.ts';

const CYCLES = Number(process.env.GRAPHDB_FAILOVER_CYCLES ?? 2);
/** A new leader must be serving within this many ms of the old one's death (lease TTL 1.5 s + renewal + catch-up). */
const LEADER_BOUND_MS = 10_000;
const WRITERS = 4;

let cluster: GraphdbCluster;
const drivers: Driver[] = [];

function driver(url: string): Driver {
  const d = neo4j.driver(url, neo4j.auth.basic(USER, PASSWORD), { useBigInt: true, maxTransactionRetryTime: 30_000 });
  drivers.push(d);
  return d;
}

async function ids(member: number): Promise<Set<number>> {
  const d = driver(`bolt://${cluster.members[member]!.bolt}`);
  const result = await d.executeQuery('MATCH (w:W) RETURN w.id AS id', {}, { database: 'graphdb', routing: neo4j.routing.READ });
  return new Set(result.records.map((r) => Number(r.get('id'))));
}

before(async () => {
  cluster = await GraphdbCluster.start(3);
});

after(async () => {
  for (const d of drivers) await d.close().catch(() => undefined);
  await cluster?.close();
});

describe('failover', () => {
  it(`kill -9 of the leader under concurrent writes (${CYCLES} cycles): no acknowledged write lost, no divergence`, async () => {
    const acked = new Set<number>();
    let next = 0;
    let running = true;
    let failures = 0;
    const routed = driver(
      `neo4j://${
        cluster.members
          .map((m) => m.bolt)
          .join(',')
          .split(',')[0]
      }`,
    );
    const writer = async (): Promise<void> => {
      while (running) {
        const id = next++;
        const session = routed.session({ database: 'graphdb' });
        try {
          await session.executeWrite((tx) => tx.run('MERGE (w:W {id: $id})', { id: neo4j.int(id) }));
          acked.add(id);
        } catch {
          failures++;
        } finally {
          await session.close().catch(() => undefined);
        }
      }
    };
    const writers = Array.from({ length: WRITERS }, () => writer());
    const elections: number[] = [];
    try {
      for (let cycle = 0; cycle < CYCLES; cycle++) {
        const leader = await cluster.leader();
        const before = acked.size;
        await until(() => acked.size >= before + 10, 30_000, 'writes before the kill');
        const killedAt = Date.now();
        await cluster.kill(leader);
        const successor = await cluster.leader(LEADER_BOUND_MS + 5_000, leader);
        const elapsed = Date.now() - killedAt;
        elections.push(elapsed);
        assert.notEqual(successor, leader);
        assert.ok(elapsed <= LEADER_BOUND_MS, `new leader after ${elapsed} ms (bound ${LEADER_BOUND_MS} ms)`);
        const afterKill = acked.size;
        await until(() => acked.size >= afterKill + 10, 30_000, 'writes acknowledged by the new leader');
        await cluster.startMember(leader);
      }
    } finally {
      running = false;
      await Promise.all(writers);
    }
    await cluster.converged();
    for (const m of cluster.members) {
      const present = await ids(m.index);
      const lost = [...acked].filter((id) => !present.has(id));
      assert.deepEqual(lost, [], `member ${m.index} lacks acknowledged writes`);
    }
    const figures = { cycles: CYCLES, acknowledged: acked.size, failedAttempts: failures, electionMs: elections };
    if (process.env.GRAPHDB_FAILOVER_REPORT) writeFileSync(process.env.GRAPHDB_FAILOVER_REPORT, JSON.stringify(figures, null, 2));
    // No divergence: stop every member, then compare content hashes of the stores themselves.
    for (const m of cluster.members) await cluster.stop(m.index);
    const hashes: string[] = [];
    for (const m of cluster.members) {
      const db = await GraphDB.open({ dataDir: m.dataDir, search: false });
      try {
        hashes.push(storeContentHash(db.store('graphdb')));
      } finally {
        await db.close();
      }
    }
    assert.equal(new Set(hashes).size, 1, `content hashes differ: ${hashes.join(' ')}`);
    for (const m of cluster.members) await cluster.startMember(m.index);
  });

  it('a leader cut off from NATS cannot acknowledge a write; the others elect a new leader', async () => {
    const leader = await cluster.leader();
    await cluster.nats.stop(leader);
    const direct = driver(`bolt://${cluster.members[leader]!.bolt}`);
    const session = direct.session({ database: 'graphdb' });
    try {
      await assert.rejects(session.run("CREATE (:Partitioned {at: 'old leader'})"));
    } finally {
      await session.close();
    }
    const successor = await cluster.leader(LEADER_BOUND_MS + 5_000, leader);
    assert.notEqual(successor, leader);
    const routed = driver(`neo4j://${cluster.members[successor]!.bolt}`);
    await routed.executeQuery("CREATE (:Partitioned {at: 'new leader'})", {}, { database: 'graphdb' });
    await cluster.nats.start(leader);
    await cluster.converged();
    const seen = await driver(`bolt://${cluster.members[leader]!.bolt}`).executeQuery(
      'MATCH (p:Partitioned) RETURN p.at AS at',
      {},
      { database: 'graphdb', routing: neo4j.routing.READ },
    );
    assert.deepEqual(
      seen.records.map((r) => r.get('at')),
      ['new leader'],
    );
  });

  it('a follower killed and restarted catches up from the stream', async () => {
    const leader = await cluster.leader();
    const follower = (leader + 1) % 3;
    await cluster.kill(follower);
    const routed = driver(`neo4j://${cluster.members[leader]!.bolt}`);
    await routed.executeQuery('UNWIND range(1, 200) AS i CREATE (:CatchUp {i: i})', {}, { database: 'graphdb' });
    for (let i = 0; i < 20; i++) await routed.executeQuery('CREATE (:CatchUp {i: -1})', {}, { database: 'graphdb' });
    await cluster.startMember(follower);
    await cluster.converged();
    const result = await driver(`bolt://${cluster.members[follower]!.bolt}`).executeQuery(
      'MATCH (n:CatchUp) RETURN count(n) AS c',
      {},
      { database: 'graphdb', routing: neo4j.routing.READ },
    );
    assert.equal(result.records[0]!.get('c'), 220n);
  });
});
