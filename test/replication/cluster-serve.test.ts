/**
 * Three `nats-server` (JetStream, clustered) and three `graphdb serve --cluster` processes on
 * loopback: writes through a follower (Bolt and HTTP) land on the leader and are readable on
 * every member; neo4j-driver with `neo4j://` sends writes to the leader and reads to followers;
 * bookmarks give read-your-own-writes on a follower; ROUTE answers the members' table with the
 * addresses the members advertise (`cluster.advertised_*`: localhost, not the bound 127.0.0.1).
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import neo4j, { type Driver } from 'neo4j-driver';
import { GraphdbCluster, PASSWORD, USER, basicAuth } from './graphdb-cluster.ts';

let cluster: GraphdbCluster;
const drivers: Driver[] = [];

function driver(url: string): Driver {
  const d = neo4j.driver(url, neo4j.auth.basic(USER, PASSWORD), { useBigInt: true });
  drivers.push(d);
  return d;
}

async function count(d: Driver, query: string, database = 'graphdb'): Promise<bigint> {
  const result = await d.executeQuery(query, {}, { database, routing: neo4j.routing.READ });
  return result.records[0].get(0) as bigint;
}

/** What member `i` advertises (cluster.advertised_*): `localhost` instead of the 127.0.0.1 its listeners are bound to. */
function advertisedBolt(i: number): string {
  return `localhost:${cluster.members[i].boltPort}`;
}

before(async () => {
  cluster = await GraphdbCluster.start(3, {}, null, (m) => ({
    GRAPHDB_CLUSTER_ADVERTISED_BOLT_ADDRESS: `localhost:${m.boltPort}`,
    GRAPHDB_CLUSTER_ADVERTISED_HTTP_ADDRESS: `localhost:${m.httpPort}`,
  }));
});

after(async () => {
  for (const d of drivers) await d.close();
  await cluster?.close();
});

describe('a 3-member graphdb cluster on NATS JetStream', () => {
  it('forwards writes sent to a follower over Bolt and HTTP; every member reads them', async () => {
    const leader = await cluster.leader();
    const follower = cluster.members[(leader + 1) % 3];
    const direct = driver(`bolt://${follower.bolt}`);
    const session = direct.session({ database: 'graphdb' });
    const written = await session.run("CREATE (n:ViaFollower {name: 'bolt'}) RETURN n.name AS name");
    assert.equal(written.records[0].get('name'), 'bolt');
    assert.equal(written.summary.counters.updates().nodesCreated, 1);
    // The session's bookmark (from the leader) makes the follower wait for that commit.
    const read = await session.run('MATCH (n:ViaFollower) RETURN count(n) AS c');
    assert.equal(read.records[0].get('c'), 1n);
    await session.close();
    const response = await fetch(`${follower.http}/db/graphdb/tx/commit`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: basicAuth() },
      body: JSON.stringify({ statements: [{ statement: "CREATE (n:ViaFollower {name: 'http'}) RETURN n.name AS name" }] }),
    });
    const body = (await response.json()) as { errors: unknown[]; results: { data: { row: unknown[] }[] }[] };
    assert.equal(response.status, 200);
    assert.deepEqual(body.errors, []);
    assert.deepEqual(body.results[0].data[0].row, ['http']);
    await cluster.converged();
    for (const m of cluster.members) assert.equal(await count(driver(`bolt://${m.bolt}`), 'MATCH (n:ViaFollower) RETURN count(n)'), 2n);
    const statuses = await Promise.all(cluster.members.map((m) => cluster.status(m.index)));
    assert.deepEqual(statuses.map((s) => s.role).sort(), ['FOLLOWER', 'FOLLOWER', 'LEADER']);
    for (const s of statuses) {
      assert.equal(s.leader?.node_id, `m${leader}`);
      assert.deepEqual([s.leader?.bolt, s.leader?.http], [advertisedBolt(leader), `localhost:${cluster.members[leader].httpPort}`]);
    }
    const metrics = await (await fetch(`${follower.http}/metrics`, { headers: { authorization: basicAuth() } })).text();
    assert.match(metrics, /graphdb_cluster_leader 0/);
    assert.match(metrics, /graphdb_cluster_replication_lag\{database="graphdb"\} 0/);
  });

  it('neo4j:// routes writes to the leader and reads to followers; bookmarks give read-your-own-writes', async () => {
    const leader = await cluster.leader();
    const routed = driver(`neo4j://${cluster.members[(leader + 2) % 3].bolt}`);
    const session = routed.session({ database: 'graphdb' });
    const readers = new Set<string>();
    try {
      for (let i = 0; i < 15; i++) {
        const write = await session.executeWrite((tx) => tx.run('CREATE (n:Routed {i: $i}) RETURN n.i', { i: neo4j.int(i) }));
        assert.equal(write.summary.server.address, advertisedBolt(leader), 'writes go to the leader, at its advertised address');
        const read = await session.executeRead((tx) => tx.run('MATCH (n:Routed) RETURN count(n) AS c'));
        readers.add(read.summary.server.address!);
        assert.equal(read.records[0].get('c'), BigInt(i + 1), 'a read in the same session sees the write before it');
      }
    } finally {
      await session.close();
    }
    assert.ok(!readers.has(advertisedBolt(leader)), 'reads were served by followers');
    assert.ok(readers.size >= 1);
    for (const reader of readers) assert.match(reader, /^localhost:\d+$/, 'the routing table carries the advertised addresses');
  });
});
