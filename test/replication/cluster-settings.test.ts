/**
 * `cluster.replicas` and `cluster.append_timeout` act: a member on a one-server NATS JetStream
 * (where the default of 3 replicas cannot be placed) joins with GRAPHDB_CLUSTER_REPLICAS=1, and
 * its log stream and its lease and members buckets have one replica; with
 * GRAPHDB_CLUSTER_APPEND_TIMEOUT=700ms a commit whose append the frozen NATS server never answers
 * fails with ReplicationFailure naming that timeout (the default waits 5 s).
 */
import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import neo4j, { type Driver } from 'neo4j-driver';
import { connect } from '@nats-io/transport-node';
import { jetstreamManager } from '@nats-io/jetstream';
import { GraphdbCluster, PASSWORD, USER } from './graphdb-cluster.ts';

let cluster: GraphdbCluster;
let driver: Driver;

before(async () => {
  cluster = await GraphdbCluster.start(1, {
    GRAPHDB_CLUSTER_REPLICAS: '1',
    GRAPHDB_CLUSTER_APPEND_TIMEOUT: '700ms',
    // A lease that outlives the test's frozen NATS server, so the commit reaches its append.
    GRAPHDB_CLUSTER_LEASE_TTL: '60s',
  });
  driver = neo4j.driver(`bolt://${cluster.members[0].bolt}`, neo4j.auth.basic(USER, PASSWORD), { useBigInt: true });
});

after(async () => {
  cluster?.nats.resume(0);
  await driver?.close();
  await cluster?.close();
});

it('cluster.replicas sets the copies of the log stream and buckets; cluster.append_timeout bounds a commit', async () => {
  await cluster.leader();
  await driver.executeQuery('CREATE (:Replicated)', {}, { database: 'graphdb' });

  const nc = await connect({ servers: cluster.nats.urls[0] });
  try {
    const jsm = await jetstreamManager(nc);
    for (const stream of ['GRAPHDB_test_graphdb', 'KV_graphdb_test_leader', 'KV_graphdb_test_members']) {
      assert.equal((await jsm.streams.info(stream)).config.num_replicas, 1, stream);
    }
  } finally {
    await nc.close();
  }

  cluster.nats.pause(0);
  const session = driver.session({ database: 'graphdb' });
  try {
    await assert.rejects(session.run('CREATE (:Unconfirmed)'), (error: { code?: string; message: string }) => {
      assert.equal(error.code, 'Neo.TransientError.Cluster.ReplicationFailure');
      assert.match(error.message, /did not confirm the append within 700 ms/);
      return true;
    });
  } finally {
    cluster.nats.resume(0);
    await session.close();
  }
});
