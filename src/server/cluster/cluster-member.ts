/**
 * A server's part in a replicated cluster (`serve --cluster nats://...`, docs/replication.md):
 * joining once the listeners know their addresses, the Bolt routing table, and the engine port
 * whose sessions forward writes to the leader.
 */
import type { Logger } from 'pino';
import type { AuthService } from '../../engine/auth/index.js';
import type { ClusterConfigSettings } from './types.js';
import type { ClusterNode, GraphDB } from '../../engine/index.js';
import type { ServerEngine } from '../engine-port.js';
import type { RoutingTable } from '../bolt/options.js';
import { ForwardingSession } from './forwarding-session.js';
import { LeaderClient } from './leader-client.js';

/** A joined member with its forwarding client. */
export interface ServerClusterMember {
  readonly node: ClusterNode;
  /** The port whose sessions forward writes to the leader. */
  readonly port: ServerEngine;
  /** ROUTE's answer for a replicated database (null: not replicated). */
  routingTable(database: string): RoutingTable | null;
  close(): Promise<void>;
}

/** Joins the cluster the settings name, advertising the configured addresses or else the listeners' own. */
export async function joinCluster(
  settings: ClusterConfigSettings,
  graphdb: GraphDB,
  port: ServerEngine,
  listeners: { readonly bolt: string; readonly http: string },
  auth: () => AuthService | null,
  logger: Logger,
): Promise<ServerClusterMember> {
  const bolt = settings.advertised_bolt_address || listeners.bolt;
  const http = settings.advertised_http_address || listeners.http;
  const node = await graphdb.joinCluster({
    servers: settings.nats_url,
    nodeId: settings.node_id || bolt,
    name: settings.name,
    boltAddress: bolt,
    httpAddress: http,
    leaseTtlMs: settings.lease_ttl,
    appendTimeoutMs: settings.append_timeout,
    replicas: settings.replicas,
    maxLogEntries: settings.max_log_entries,
    warn: (message, error) => logger.warn(error === undefined ? {} : { err: error }, message),
  });
  const leader = new LeaderClient(node, auth);
  const services = {
    member: node,
    leader,
    statementWrites: (query: string) => graphdb.statementWrites(query),
    statementAdministers: (query: string) => graphdb.statementAdministers(query),
  };
  const forwarding: ServerEngine = {
    ...port,
    session: (options) => new ForwardingSession(port.session(options), options, services),
  };
  const ttlSeconds = Math.max(1, Math.round(settings.routing_ttl / 1000));
  logger.info({ nodeId: node.nodeId, bolt, http, nats: settings.nats_url }, 'joined the replication cluster');
  return {
    node,
    port: forwarding,
    routingTable(database) {
      if (!node.replicates(database)) return null;
      const members = node.members;
      const current = node.currentLeader;
      const writers = current === null ? [] : [current.bolt];
      const others = members.filter((m) => m.nodeId !== current?.nodeId).map((m) => m.bolt);
      return {
        ttlSeconds,
        routers: members.map((m) => m.bolt),
        readers: others.length > 0 ? others : writers,
        writers,
      };
    },
    close: () => leader.close(),
  };
}
