/**
 * Route group: `GET /health` (public), `GET /status`, and the discovery document at `/` (a
 * browser asking for HTML is redirected to the web UI instead, when it is served).
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { formatDuration } from '../../../engine/config/index.js';
import { BROWSER_PATH, wantsHtml } from '../../browser/routes.js';
import { externalBaseUrl } from '../urls.js';
import { SEARCH_DISABLED, searchReadinessSchema, type HttpServices } from '../services.js';
import type { CacheFigures, ClusterStatus } from '../../../engine/index.js';

/** Human-readable byte count (`512 B`, `1.5 MB`). */
export function formatBytes(bytes: number): string {
  const units = ['B', 'KB', 'MB', 'GB', 'TB'];
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return unit === 0 ? `${bytes} B` : `${value.toFixed(value < 10 ? 2 : 1)} ${units[unit]}`;
}

const statusSchema = {
  type: 'object',
  properties: {
    status: { type: 'string' },
    server: {
      type: 'object',
      properties: { version: { type: 'string' }, uptime: { type: 'string' }, started_at: { type: 'string', format: 'date-time' } },
    },
    database: {
      type: 'object',
      properties: { nodes: { type: 'integer' }, edges: { type: 'integer' }, data_size: { type: 'string' } },
    },
    search: searchReadinessSchema,
    caches: {
      type: 'object',
      additionalProperties: {
        type: 'object',
        properties: { entries: { type: 'integer' }, bytes: { type: 'integer' }, max_bytes: { type: 'integer' } },
      },
    },
    embeddings: {
      type: 'object',
      properties: {
        enabled: { type: 'boolean' },
        provider: { type: 'string' },
        model: { type: 'string' },
        pending: { type: 'integer' },
      },
    },
    cluster: {
      type: 'object',
      properties: {
        node_id: { type: 'string' },
        role: { type: 'string' },
        leader: { type: ['object', 'null'], additionalProperties: true },
        connected: { type: 'boolean' },
        databases: {
          type: 'array',
          items: {
            type: 'object',
            properties: {
              name: { type: 'string' },
              version: { type: 'integer' },
              applied_sequence: { type: 'integer' },
              last_sequence: { type: 'integer' },
              lag: { type: 'integer' },
              snapshot_sequence: { type: 'integer' },
            },
          },
        },
      },
    },
  },
} as const;

/** The `cluster` part of `/status` (absent on a single node). */
function clusterStatus(status: ClusterStatus | null): Record<string, unknown> {
  if (status === null) return {};
  return {
    cluster: {
      node_id: status.nodeId,
      role: status.role,
      leader:
        status.leader === null
          ? null
          : { node_id: status.leader.nodeId, bolt: status.leader.bolt, http: status.leader.http, term: status.leader.term },
      connected: status.connected,
      databases: status.databases.map((d) => ({
        name: d.database,
        version: Number(d.version),
        applied_sequence: Number(d.appliedSequence),
        last_sequence: Number(d.lastSequence),
        lag: Number(d.lag),
        snapshot_sequence: Number(d.snapshotSequence),
      })),
    },
  };
}

/** The `caches` part of `/status`: each bounded cache's entries and estimated bytes against its bound. */
function cacheStatus(services: HttpServices): Record<string, { entries: number; bytes: number; max_bytes: number }> {
  const figures: Record<string, CacheFigures> = { ...services.probes.engineCaches?.() };
  for (const [name, stats] of services.caches) figures[name] = stats();
  if (services.auth !== null) figures['auth'] = services.auth.verifiedCacheStats;
  return Object.fromEntries(
    Object.entries(figures).map(([name, f]) => [name, { entries: f.entries, bytes: f.bytes, max_bytes: f.maxBytes }]),
  );
}

const discoverySchema = {
  type: 'object',
  properties: {
    bolt_routing: { type: 'string' },
    bolt_direct: { type: 'string' },
    transaction: { type: 'string' },
    neo4j_version: { type: 'string' },
    neo4j_edition: { type: 'string' },
    graphdb_version: { type: 'string' },
  },
} as const;

/** Neo4j version reported to drivers and tools that read the discovery document. */
export const NEO4J_COMPATIBLE_VERSION = '5.26.0';

function boltUrls(request: FastifyRequest, port: number): { bolt_routing: string; bolt_direct: string } {
  const host = request.hostname.replace(/:\d+$/, '');
  return { bolt_routing: `neo4j://${host}:${port}`, bolt_direct: `bolt://${host}:${port}` };
}

/** Registers the health, status and discovery routes. */
export async function healthRoutes(app: FastifyInstance): Promise<void> {
  const services = app.graphdb;

  app.get(
    '/health',
    {
      config: { auth: 'public' },
      schema: {
        summary: 'Liveness check',
        tags: ['health'],
        response: { 200: { type: 'object', properties: { status: { type: 'string' } } } },
      },
    },
    async () => ({ status: 'healthy' }),
  );

  app.get(
    '/status',
    {
      schema: { summary: 'Server status with live database counts', tags: ['health'], response: { 200: statusSchema } },
    },
    async () => {
      const figures = services.engine.databaseFigures();
      const sum = (pick: (f: (typeof figures)[number]) => number): number => figures.reduce((total, f) => total + pick(f), 0);
      const embeddings = services.config.global.embeddings;
      return {
        status: 'healthy',
        server: {
          version: services.version,
          uptime: formatDuration(Date.now() - services.startedAt.getTime()),
          started_at: services.startedAt.toISOString(),
        },
        database: { nodes: sum((f) => f.nodes), edges: sum((f) => f.relationships), data_size: formatBytes(sum((f) => f.dataSizeBytes)) },
        search: services.probes.searchReadiness?.() ?? SEARCH_DISABLED,
        caches: cacheStatus(services),
        embeddings: {
          enabled: embeddings.enabled,
          provider: embeddings.provider,
          model: embeddings.model,
          pending: services.probes.embeddingsPending?.() ?? 0,
        },
        ...clusterStatus(services.probes.clusterStatus?.() ?? null),
      };
    },
  );

  app.get(
    '/',
    {
      config: { auth: 'public' },
      schema: { summary: 'Discovery document (Neo4j-compatible)', tags: ['health'], response: { 200: discoverySchema } },
    },
    async (request, reply) => {
      const browserUrl = `${services.config.global.server.base_path}${BROWSER_PATH}/`;
      if (wantsHtml(request) && app.hasRoute({ method: 'GET', url: browserUrl })) return reply.redirect(browserUrl, 302);
      const bolt = services.bolt();
      return {
        ...(bolt === null ? {} : boltUrls(request, bolt.port)),
        transaction: `${externalBaseUrl(request)}/db/{databaseName}/tx`,
        neo4j_version: NEO4J_COMPATIBLE_VERSION,
        neo4j_edition: 'community',
        graphdb_version: services.version,
      };
    },
  );
}
