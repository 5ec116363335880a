/** Route group: `GET /metrics` (Prometheus text) and `GET /openapi.json`. */
import type { FastifyInstance } from 'fastify';

/** Registers the metrics and OpenAPI routes. */
export async function observabilityRoutes(app: FastifyInstance): Promise<void> {
  const services = app.graphdb;

  app.get(
    '/metrics',
    {
      schema: {
        summary: 'Prometheus metrics',
        tags: ['health'],
        produces: 'text/plain',
        response: { 200: { type: 'string', description: 'Prometheus text exposition format' } },
      },
    },
    async (_request, reply) => {
      const text = await services.metrics.registry.metrics();
      return reply.type(services.metrics.registry.contentType).send(text);
    },
  );

  app.get(
    '/openapi.json',
    {
      config: { auth: 'public' },
      schema: { summary: 'This OpenAPI 3.0 document', tags: ['health'], hide: true },
    },
    async () => services.openapi.document({ version: services.version, basePath: services.config.global.server.base_path }),
  );
}
