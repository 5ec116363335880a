/**
 * Snapshot rebuilds (3 nats-server + 3 `graphdb serve` members on loopback) with
 * `cluster.max_log_entries` = 20: the log keeps only the last 20 entries and the leader stores a
 * snapshot every 10. A follower stopped while 60 commits happen, and a member started on an empty
 * data directory, rebuild at start from the snapshot plus the log's tail (the same rebuild a
 * running member does) and end with the leader's content hash. A running follower cut off from the
 * log (its NATS server stopped) while the log discards entries it never applied rebuilds from the
 * snapshot without a restart.
 *
 * Leadership may move while a NATS server is stopped (a lease renewed late), so writes go through
 * a `neo4j://` routing driver, as a cluster client's do, and the leader is looked up when needed.
 */
import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import neo4j, { type Driver } from 'neo4j-driver';
import { GraphdbCluster, PASSWORD, USER, withClusterState } from './graphdb-cluster.ts';
import { until } from './nats-cluster.ts';

const MAX_LOG_ENTRIES = 20;
const REBUILT = /database 'graphdb' rebuilt from the snapshot at log sequence \d+ of the replication log/;

let cluster: GraphdbCluster;
const drivers: Driver[] = [];

function driver(url: string): Driver {
  const d = neo4j.driver(url, neo4j.auth.basic(USER, PASSWORD), { useBigInt: true, maxTransactionRetryTime: 60_000 });
  drivers.push(d);
  return d;
}

async function count(member: number, label: string): Promise<bigint> {
  const result = await driver(`bolt://${cluster.members[member].bolt}`).executeQuery(
    `MATCH (n:${label}) RETURN count(n) AS c`,
    {},
    { database: 'graphdb', routing: neo4j.routing.READ },
  );
  return result.records[0].get('c') as bigint;
}

/** Commits `n` single-node writes through a routing driver whose first router is member `via`. */
async function commits(via: number, label: string, n: number): Promise<void> {
  const d = driver(`neo4j://${cluster.members[via].bolt}`);
  for (let i = 0; i < n; i++) await d.executeQuery(`CREATE (:${label} {i: $i})`, { i: neo4j.int(i) }, { database: 'graphdb' });
}

/** Waits until the current leader stored a snapshot the truncated log continues (within half the limit of its end). */
async function snapshotCaughtUp(): Promise<void> {
  await until(
    async () => {
      const log = (await cluster.status(await cluster.leader())).databases.find((d) => d.name === 'graphdb')!;
      return log.last_sequence > MAX_LOG_ENTRIES && log.snapshot_sequence >= log.last_sequence - MAX_LOG_ENTRIES / 2;
    },
    60_000,
    'a snapshot near the end of the log',
  );
}

before(async () => {
  cluster = await GraphdbCluster.start(3, { GRAPHDB_CLUSTER_MAX_LOG_ENTRIES: String(MAX_LOG_ENTRIES) });
});

after(async () => {
  for (const d of drivers) await d.close().catch(() => undefined);
  await cluster?.close();
});

describe('snapshot rebuilds', () => {
  it('a follower stopped while the log moved past it, and a new member, rebuild at start from the snapshot plus the log tail', () =>
    withClusterState(cluster, async () => {
      const leader = await cluster.agreedLeader();
      const behind = (leader + 1) % 3;
      const fresh = (leader + 2) % 3;
      await commits(leader, 'Before', 5);
      await cluster.converged();
      await cluster.stop(behind);
      await commits(leader, 'While', 3 * MAX_LOG_ENTRIES);
      await snapshotCaughtUp();

      await cluster.startMember(behind);
      await until(() => REBUILT.test(cluster.members[behind].output), 60_000, 'the stopped follower to rebuild from the snapshot');
      assert.match(cluster.members[behind].output, /Database 'graphdb' at log sequence \d+ .* is behind the log, which starts at \d+/);

      await cluster.stop(fresh);
      rmSync(cluster.members[fresh].dataDir, { recursive: true, force: true });
      await commits(leader, 'After', 5);
      await snapshotCaughtUp();
      await cluster.startMember(fresh);
      await until(() => REBUILT.test(cluster.members[fresh].output), 60_000, 'the new member to rebuild from the snapshot');

      await cluster.converged(undefined, 60_000);
      for (const m of cluster.members) {
        assert.equal(await count(m.index, 'Before'), 5n);
        assert.equal(await count(m.index, 'While'), BigInt(3 * MAX_LOG_ENTRIES));
        assert.equal(await count(m.index, 'After'), 5n);
      }
      // Both rebuilt members keep following the log.
      await commits(leader, 'Later', 3);
      await cluster.converged(undefined, 60_000);
      const hashes = await cluster.storeHashes();
      assert.equal(new Set(hashes).size, 1, `content hashes differ: ${hashes.join(' ')}`);
    }));

  it('a running follower whose unapplied entries the log discarded rebuilds from the snapshot without a restart', () =>
    withClusterState(cluster, async () => {
      for (const m of cluster.members) if (m.child === null) await cluster.startMember(m.index);
      const leader = await cluster.agreedLeader();
      const follower = (leader + 1) % 3;
      const router = (leader + 2) % 3;
      const child = cluster.members[follower].child!;
      await commits(router, 'Running', 2);
      await cluster.converged();
      const applied = (await cluster.status(follower)).databases.find((d) => d.name === 'graphdb')!.applied_sequence;
      // What the follower logs from here on: it may have rebuilt before (the previous test's member).
      const mark = cluster.members[follower].output.length;
      const since = (): string => cluster.members[follower].output.slice(mark);
      // The follower keeps running; only its NATS server goes away while the log moves past it.
      await cluster.nats.stop(follower);
      await commits(router, 'Discarded', 2 * MAX_LOG_ENTRIES);
      await snapshotCaughtUp();
      await cluster.nats.start(follower);
      await until(() => REBUILT.test(since()), 60_000, 'the follower to rebuild from the snapshot');
      assert.match(since(), new RegExp(`Database 'graphdb' at log sequence ${applied} .* the log no longer holds the entries in between`));
      await cluster.converged(undefined, 60_000);
      assert.equal(cluster.members[follower].child, child, 'the follower was not restarted');
      assert.equal(await count(follower, 'Discarded'), BigInt(2 * MAX_LOG_ENTRIES));
      await commits(router, 'AfterRebuild', 2);
      await cluster.converged(undefined, 60_000);
      assert.equal(await count(follower, 'AfterRebuild'), 2n);
      const hashes = await cluster.storeHashes();
      assert.equal(new Set(hashes).size, 1, `content hashes differ: ${hashes.join(' ')}`);
    }));
});
