/**
 * Snapshot bootstrap (3 nats-server + 3 `graphdb serve` members on loopback) with
 * `cluster.max_log_entries` = 20: the log keeps only the last 20 entries and the leader stores a
 * snapshot every 10. A follower killed while 60 commits happen, and a member started on an empty
 * data directory, both start from the snapshot plus the log's tail and end with the leader's
 * content hash. A running follower cut off from the log (its NATS server stopped) while the log
 * discards entries it never applied rebuilds from the snapshot without a restart.
 */
import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import neo4j, { type Driver } from 'neo4j-driver';
import { GraphdbCluster, PASSWORD, USER } from './graphdb-cluster.ts';
import { until } from './nats-cluster.ts';

const MAX_LOG_ENTRIES = 20;

let cluster: GraphdbCluster;
const drivers: Driver[] = [];

function driver(url: string): Driver {
  const d = neo4j.driver(url, neo4j.auth.basic(USER, PASSWORD), { useBigInt: true });
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

/** Commits `n` single-node writes through the leader. */
async function commits(leader: number, label: string, n: number): Promise<void> {
  const d = driver(`bolt://${cluster.members[leader].bolt}`);
  for (let i = 0; i < n; i++) await d.executeQuery(`CREATE (:${label} {i: $i})`, { i: neo4j.int(i) }, { database: 'graphdb' });
}

/** Waits until the leader stored a snapshot the truncated log continues (within half the limit of its end). */
async function snapshotCaughtUp(leader: number): Promise<void> {
  await until(
    async () => {
      const log = (await cluster.status(leader)).databases.find((d) => d.name === 'graphdb')!;
      return log.last_sequence > MAX_LOG_ENTRIES && log.snapshot_sequence >= log.last_sequence - MAX_LOG_ENTRIES / 2;
    },
    30_000,
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

describe('snapshot bootstrap', () => {
  it('a follower behind the truncated log, and a new member, start from the snapshot plus the log tail', async () => {
    const leader = await cluster.leader();
    const behind = (leader + 1) % 3;
    const fresh = (leader + 2) % 3;
    await commits(leader, 'Before', 5);
    await cluster.converged();
    await cluster.kill(behind);
    await commits(leader, 'While', 3 * MAX_LOG_ENTRIES);
    await snapshotCaughtUp(leader);

    await cluster.startMember(behind);
    assert.match(cluster.members[behind].output, /database 'graphdb' bootstrapped from the snapshot at log sequence \d+/);

    await cluster.stop(fresh);
    rmSync(cluster.members[fresh].dataDir, { recursive: true, force: true });
    await commits(leader, 'After', 5);
    await snapshotCaughtUp(leader);
    await cluster.startMember(fresh);
    assert.match(cluster.members[fresh].output, /database 'graphdb' bootstrapped from the snapshot at log sequence \d+/);

    await cluster.converged();
    for (const m of cluster.members) {
      assert.equal(await count(m.index, 'Before'), 5n);
      assert.equal(await count(m.index, 'While'), BigInt(3 * MAX_LOG_ENTRIES));
      assert.equal(await count(m.index, 'After'), 5n);
    }
    // Both bootstrapped members keep following the log.
    await commits(leader, 'Later', 3);
    await cluster.converged();
    const hashes = await cluster.storeHashes();
    assert.equal(new Set(hashes).size, 1, `content hashes differ: ${hashes.join(' ')}`);
  });

  it('a running follower whose unapplied entries the log discarded rebuilds from the snapshot without a restart', async () => {
    for (const m of cluster.members) if (m.child === null) await cluster.startMember(m.index);
    const leader = await cluster.leader();
    const follower = (leader + 1) % 3;
    const child = cluster.members[follower].child!;
    await commits(leader, 'Running', 2);
    await cluster.converged();
    const applied = (await cluster.status(follower)).databases.find((d) => d.name === 'graphdb')!.applied_sequence;
    // The follower keeps running; only its NATS server goes away while the log moves past it.
    await cluster.nats.stop(follower);
    await commits(leader, 'Discarded', 2 * MAX_LOG_ENTRIES);
    await snapshotCaughtUp(leader);
    await cluster.nats.start(follower);
    const rebuilt = /database 'graphdb' rebuilt from the snapshot at log sequence \d+ of the replication log/;
    await until(() => rebuilt.test(cluster.members[follower].output), 60_000, 'the follower to rebuild from the snapshot');
    assert.match(
      cluster.members[follower].output,
      new RegExp(`Database 'graphdb' at log sequence ${applied} .* the log no longer holds the entries in between`),
    );
    await cluster.converged();
    assert.equal(cluster.members[follower].child, child, 'the follower was not restarted');
    assert.equal(await count(follower, 'Discarded'), BigInt(2 * MAX_LOG_ENTRIES));
    await commits(leader, 'AfterRebuild', 2);
    await cluster.converged();
    assert.equal(await count(follower, 'AfterRebuild'), 2n);
    const hashes = await cluster.storeHashes();
    assert.equal(new Set(hashes).size, 1, `content hashes differ: ${hashes.join(' ')}`);
  });
});
