import { duration, group, integer, list, text } from '../declare.js';

const proof = 'test/replication/cluster-serve.test.ts';
const settingsProof = 'test/replication/cluster-settings.test.ts';

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
    help: 'host:port at which clients and members reach this Bolt listener (routing table, forwarding); default: the address it is bound to.',
    proof,
  }),
  advertised_http_address: text('', {
    env: 'GRAPHDB_CLUSTER_ADVERTISED_HTTP_ADDRESS',
    help: 'host:port at which members reach this HTTP listener (/status leader); default: the address it is bound to.',
    proof,
  }),
  replicas: integer(3, {
    min: 1,
    max: 5,
    env: 'GRAPHDB_CLUSTER_REPLICAS',
    help: 'Copies NATS keeps of each replication stream, snapshot stream and bucket (set when they are created); a commit is acknowledged once a majority of them stored it.',
    proof: settingsProof,
  }),
  lease_ttl: duration(3000, {
    env: 'GRAPHDB_CLUSTER_LEASE_TTL',
    help: 'Leader lease time to live; a dead leader is replaced within about this.',
    proof,
  }),
  append_timeout: duration(5000, {
    env: 'GRAPHDB_CLUSTER_APPEND_TIMEOUT',
    help: 'How long a commit waits for the replication log quorum before it fails with ReplicationFailure (its outcome then unknown).',
    proof: settingsProof,
  }),
  max_log_entries: integer(0, {
    min: 0,
    env: 'GRAPHDB_CLUSTER_MAX_LOG_ENTRIES',
    help: 'Entries each replication log keeps (0: all); with a limit the leader stores a snapshot every half limit, from which members behind the log start.',
    proof: 'test/replication/snapshot.test.ts',
  }),
  routing_ttl: duration(10_000, {
    env: 'GRAPHDB_CLUSTER_ROUTING_TTL',
    help: 'How long a Bolt ROUTE table stays valid in a cluster.',
    proof,
  }),
});
