import { duration, group, integer, list, text } from '../declare.js';

const proof = 'test/replication/cluster-serve.test.ts';

/** `cluster` section: replication on NATS JetStream (docs/replication.md); no NATS URL = single node. */
export const cluster = group('cluster', {
  nats_url: list([], {
    env: 'GRAPHDB_CLUSTER_NATS_URL',
    help: 'NATS URLs of this member (nats://host:port); set to join a replicated cluster (serve --cluster).',
    proof,
  }),
  name: text('graphdb', { env: 'GRAPHDB_CLUSTER_NAME', help: 'Cluster name; names the replication streams and the leader lease.', proof }),
  node_id: text('', { env: 'GRAPHDB_CLUSTER_NODE_ID', help: 'This member id (default: its advertised Bolt address).', proof }),
  advertised_bolt_address: text('', {
    env: 'GRAPHDB_CLUSTER_ADVERTISED_BOLT_ADDRESS',
    help: 'host:port at which clients and members reach this Bolt listener (default: the bound address).',
    proof,
  }),
  advertised_http_address: text('', {
    env: 'GRAPHDB_CLUSTER_ADVERTISED_HTTP_ADDRESS',
    help: 'host:port at which members reach this HTTP listener (default: the bound address).',
    proof,
  }),
  replicas: integer(3, {
    env: 'GRAPHDB_CLUSTER_REPLICAS',
    min: 1,
    max: 5,
    help: 'Copies NATS keeps of each replication stream and of the lease (1, 3 or 5).',
    proof,
  }),
  lease_ttl: duration(3000, {
    env: 'GRAPHDB_CLUSTER_LEASE_TTL',
    help: 'Leader lease time to live; a dead leader is replaced within about this.',
    proof,
  }),
  append_timeout: duration(5000, {
    env: 'GRAPHDB_CLUSTER_APPEND_TIMEOUT',
    help: 'How long a commit waits for the replication log quorum before failing.',
    proof,
  }),
  max_log_entries: integer(0, {
    env: 'GRAPHDB_CLUSTER_MAX_LOG_ENTRIES',
    min: 0,
    help: 'Entries each replication log keeps (0: all); older members then need a snapshot.',
    proof,
  }),
  routing_ttl: duration(10_000, {
    env: 'GRAPHDB_CLUSTER_ROUTING_TTL',
    help: 'How long a Bolt ROUTE table stays valid in a cluster.',
    proof,
  }),
});
