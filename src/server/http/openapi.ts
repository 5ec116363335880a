/**
 * The OpenAPI 3.0 document of the REST endpoints, generated from the route schemas: every route
 * registered with a `schema` (summary, tags, params, querystring, body, response) becomes an
 * operation; its `config.auth` level decides whether bearer/basic security applies.
 */
import type { FastifyInstance, RouteOptions } from 'fastify';

type JsonSchema = Record<string, unknown>;

interface CollectedRoute {
  readonly method: string;
  readonly url: string;
  readonly schema: JsonSchema;
  readonly auth: string;
}

/** The routes seen so far; `document()` renders them. */
export interface OpenApiCollector {
  document(info: { version: string; basePath: string }): JsonSchema;
}

/** Starts collecting routes of `app` (call before registering route plugins). */
export function collectOpenApiRoutes(app: FastifyInstance, basePath: string): OpenApiCollector {
  const routes: CollectedRoute[] = [];
  app.addHook('onRoute', (route: RouteOptions) => {
    const schema = route.schema as JsonSchema | undefined;
    if (schema === undefined || schema.hide === true) return;
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    const url = basePath !== '' && route.url.startsWith(basePath) ? route.url.slice(basePath.length) || '/' : route.url;
    const auth = (route.config as { auth?: string } | undefined)?.auth ?? 'authenticated';
    for (const method of methods) {
      if (method === 'HEAD') continue;
      routes.push({ method: method.toLowerCase(), url, schema, auth });
    }
  });
  return { document: (info) => openApiDocument(routes, info) };
}

function openApiPath(url: string): string {
  return url.replace(/:([A-Za-z0-9_]+)/g, '{$1}');
}

function parameters(schema: JsonSchema): JsonSchema[] {
  const result: JsonSchema[] = [];
  for (const [location, key] of [
    ['path', 'params'],
    ['query', 'querystring'],
    ['header', 'headers'],
  ] as const) {
    const group = schema[key] as { properties?: Record<string, JsonSchema>; required?: string[] } | undefined;
    for (const [name, property] of Object.entries(group?.properties ?? {})) {
      const { description, ...propertySchema } = property;
      result.push({
        name,
        in: location,
        required: location === 'path' || (group?.required ?? []).includes(name),
        ...(description === undefined ? {} : { description }),
        schema: propertySchema,
      });
    }
  }
  return result;
}

function responses(schema: JsonSchema): JsonSchema {
  const declared = (schema.response ?? {}) as Record<string, JsonSchema>;
  const result: JsonSchema = {};
  for (const [status, body] of Object.entries(declared)) {
    const { description, ...bodySchema } = body;
    const contentType = (schema.produces as string | undefined) ?? 'application/json';
    result[status] = { description: description ?? 'Response', content: { [contentType]: { schema: bodySchema } } };
  }
  if (Object.keys(result).length === 0) result['200'] = { description: 'Response' };
  return result;
}

function openApiDocument(routes: readonly CollectedRoute[], info: { version: string; basePath: string }): JsonSchema {
  const paths: Record<string, Record<string, JsonSchema>> = {};
  for (const route of routes) {
    const { schema } = route;
    const operation: JsonSchema = {
      summary: schema.summary,
      ...(schema.description ? { description: schema.description } : {}),
      tags: schema.tags ?? [],
      parameters: parameters(schema),
      responses: responses(schema),
      security: route.auth === 'public' ? [] : [{ bearerAuth: [] }, { basicAuth: [] }],
    };
    if (schema.body !== undefined) {
      operation.requestBody = { required: false, content: { 'application/json': { schema: schema.body } } };
    }
    (paths[openApiPath(route.url)] ??= {})[route.method] = operation;
  }
  return {
    openapi: '3.0.3',
    info: {
      title: 'graphdb HTTP API',
      version: info.version,
      description: 'Neo4j-compatible transactional Cypher endpoint, health, status, metrics and administration.',
    },
    servers: [{ url: info.basePath === '' ? '/' : info.basePath }],
    components: {
      securitySchemes: {
        bearerAuth: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' },
        basicAuth: { type: 'http', scheme: 'basic' },
      },
    },
    security: [{ bearerAuth: [] }, { basicAuth: [] }],
    paths,
  };
}
