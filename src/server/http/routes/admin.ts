/**
 * Route group (admin only): `GET /admin/stats` (with the search readiness block),
 * `GET /admin/config` (secrets redacted), and per-database configuration overrides.
 */
import type { FastifyInstance } from 'fastify';
import { formatDuration, ConfigError, overridableKeys, redactConfig } from '../../../engine/config/index.js';
import { DatabaseNotFound, StatusCodes, graphError } from '../../../engine/index.js';
import { SEARCH_DISABLED, searchReadinessSchema } from '../services.js';

const admin = { auth: 'admin' } as const;
const objectSchema = { type: 'object', additionalProperties: true } as const;
const nameParams = { type: 'object', required: ['name'], properties: { name: { type: 'string', description: 'Database name' } } } as const;

/** Registers the admin routes. */
export async function adminRoutes(app: FastifyInstance): Promise<void> {
  const services = app.graphdb;

  const requireDatabase = (name: string): void => {
    if (!services.engine.hasDatabase(name)) throw new DatabaseNotFound(name);
  };

  app.get(
    '/admin/stats',
    {
      config: admin,
      schema: {
        summary: 'System statistics, including search readiness',
        tags: ['admin'],
        response: {
          200: {
            type: 'object',
            additionalProperties: true,
            properties: {
              search: searchReadinessSchema,
            },
          },
        },
      },
    },
    async () => {
      const databases = services.engine.databaseFigures();
      const memory = process.memoryUsage();
      return {
        server: {
          version: services.version,
          uptime: formatDuration(Date.now() - services.startedAt.getTime()),
          started_at: services.startedAt.toISOString(),
        },
        databases: databases.map((d) => ({
          name: d.name,
          nodes: d.nodes,
          relationships: d.relationships,
          data_size_bytes: d.dataSizeBytes,
        })),
        totals: {
          nodes: databases.reduce((sum, d) => sum + d.nodes, 0),
          relationships: databases.reduce((sum, d) => sum + d.relationships, 0),
          data_size_bytes: databases.reduce((sum, d) => sum + d.dataSizeBytes, 0),
        },
        transactions: { open: services.transactions.size },
        async_writes: services.writeBehind.stats(),
        memory: { rss_bytes: memory.rss, heap_used_bytes: memory.heapUsed },
        search: services.probes.searchReadiness?.() ?? SEARCH_DISABLED,
      };
    },
  );

  app.get(
    '/admin/config',
    {
      config: admin,
      schema: { summary: 'Effective server configuration (secrets redacted)', tags: ['admin'], response: { 200: objectSchema } },
    },
    async () => ({ file: services.configFile, config: redactConfig(services.config.global) }),
  );

  app.get(
    '/admin/databases/config/keys',
    {
      config: admin,
      schema: { summary: 'Setting keys that may be overridden per database', tags: ['admin'], response: { 200: objectSchema } },
    },
    async () => ({ keys: overridableKeys() }),
  );

  app.get<{ Params: { name: string } }>(
    '/admin/databases/:name/config',
    {
      config: admin,
      schema: {
        summary: 'Overrides and effective configuration of a database',
        tags: ['admin'],
        params: nameParams,
        response: { 200: objectSchema },
      },
    },
    async (request) => {
      requireDatabase(request.params.name);
      const { name } = request.params;
      return { overrides: services.config.overrides(name), effective: redactConfig(services.config.effectiveConfig(name)) };
    },
  );

  app.put<{ Params: { name: string }; Body: { overrides: Record<string, string> } }>(
    '/admin/databases/:name/config',
    {
      config: admin,
      schema: {
        summary: 'Replace the configuration overrides of a database',
        tags: ['admin'],
        params: nameParams,
        body: {
          type: 'object',
          required: ['overrides'],
          properties: { overrides: { type: 'object', additionalProperties: { type: 'string' } } },
        },
        response: { 200: objectSchema },
      },
    },
    async (request) => {
      requireDatabase(request.params.name);
      try {
        services.config.setOverrides(request.params.name, request.body.overrides);
      } catch (error) {
        if (error instanceof ConfigError) throw graphError(StatusCodes.InvalidRequest, error.message);
        throw error;
      }
      return { overrides: services.config.overrides(request.params.name) };
    },
  );
}
