/**
 * The GraphQL route group (`graphqlRoutes(options)`), registered like any other route plugin
 * under the base path so it shares the trust boundary, the security hook, CORS and metrics:
 *
 * - `POST/GET /graphql` — queries and mutations through mercurius (authenticated);
 * - `POST /graphql` with `Accept: text/event-stream` — any operation, subscriptions included, as
 *   server-sent events (graphql-sse), with the same headers and SecurityContext;
 * - WebSocket upgrade at `/graphql` — graphql-ws, credentials in the connection params;
 * - `GET /graphql/playground` — the public explorer page.
 *
 * One schema and one ChangeHub (fed by the engine's post-commit change events) serve all three.
 */
import type { FastifyInstance, FastifyPluginAsync } from 'fastify';
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import mercurius from 'mercurius';
import type { GraphDB, SecurityContext } from '../../engine/index.js';
import { JsonSyntaxError, parseJson, type JsonValue } from '../http/json/parse-json.js';
import { connectionSecurity, authorizationParam } from './connection-auth.js';
import { createContext, type ContextDependencies } from './context.js';
import type { GraphqlEngine } from './graph-access.js';
import { formatMercuriusErrors, handleMercuriusError } from './mercurius-errors.js';
import { DocumentCacheBudget } from './document-cache.js';
import { checkGraphqlBody } from './request-shape.js';
import { DEFAULT_LIMITS, queryLimitsRule, type QueryLimits } from './limits.js';
import { playgroundHtml } from './playground.js';
import { createSchema } from './schema.js';
import { createSseHandler, wantsEventStream } from './sse-transport.js';
import { ChangeHub } from './subscriptions/change-hub.js';
import { createWsTransport } from './ws-transport.js';

export { DEFAULT_LIMITS, type QueryLimits } from './limits.js';

const hubsByEngine = new WeakMap<object, ChangeHub>();

/** Open GraphQL subscriptions (WebSocket and SSE) of the route group mounted over `graphdb` (diagnostics, tests). */
export function graphqlSubscriptionCount(graphdb: GraphDB): number {
  return hubsByEngine.get(graphdb)?.size ?? 0;
}

/** Options of the GraphQL route group. */
export interface GraphqlRoutesOptions {
  readonly graphdb: GraphDB;
  readonly limits?: QueryLimits;
  /** Database the operations use (default: the engine's default database). */
  readonly database?: string;
}

/** JSON numbers that are exact in a double become numbers (GraphQL `Int`/`Float`); others stay bigint. */
function numbersForGraphql(value: JsonValue): unknown {
  if (typeof value === 'bigint') {
    return value >= BigInt(Number.MIN_SAFE_INTEGER) && value <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(value) : value;
  }
  if (value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map(numbersForGraphql);
  const object: Record<string, unknown> = {};
  for (const key of Object.keys(value)) object[key] = numbersForGraphql(value[key]!);
  return object;
}

function installJsonParser(app: FastifyInstance): void {
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, body, done) => {
    const text = (body as string).trim();
    if (text === '') return done(null, undefined);
    try {
      done(null, numbersForGraphql(parseJson(text)));
    } catch (error) {
      const reason = error instanceof JsonSyntaxError ? error.message : String(error);
      done(Object.assign(new Error(`Unable to deserialize request: ${reason}`), { statusCode: 400 }), undefined);
    }
  });
}

/** The GraphQL route group for `buildHttpServer({ routes })` / `startServer(loaded, { httpRoutes })`. */
export function graphqlRoutes(options: GraphqlRoutesOptions): FastifyPluginAsync {
  return async (app) => {
    const { graphdb } = options;
    const limits = options.limits ?? DEFAULT_LIMITS;
    const hub = new ChangeHub(graphdb, undefined, (error) =>
      app.graphdb.logger.error({ err: error }, 'GraphQL subscription events could not be delivered'),
    );
    hubsByEngine.set(graphdb, hub);
    const schema = createSchema(hub);
    // Statements run through the server's instrumented sessions, so they count in the query metrics.
    const engine: GraphqlEngine = {
      session: (sessionOptions) => app.graphdb.engine.session(sessionOptions),
      databaseServices: graphdb.databaseServices,
      stats: (name) => graphdb.stats(name),
      onChange: (listener) => graphdb.onChange(listener),
      // Search, similarity and embeddings are the engine's own services (shared with the REST
      // search routes and the Cypher procedures).
      search: (name) => graphdb.search(name),
      searchEnabled: graphdb.searchServices !== null,
      get defaultDatabase() {
        return graphdb.defaultDatabase;
      },
    };
    const dependencies: ContextDependencies = { engine, startedAt: app.graphdb.startedAt };
    const database = options.database ?? graphdb.defaultDatabase;
    const contextFor = (security: SecurityContext) => createContext(dependencies, database, security);
    const limitRule = queryLimitsRule(limits);

    installJsonParser(app);
    const sse = createSseHandler({ schema, rules: [limitRule], context: contextFor });
    const documents = new DocumentCacheBudget(app.graphdb.config.global.dbms.memory.graphql_cache.max_size, () =>
      app.graphql.replaceSchema(app.graphql.schema),
    );
    app.graphdb.caches.set('graphql', () => {
      const { documents: entries, bytes, maxBytes } = documents.stats;
      return { entries, bytes, maxBytes };
    });
    app.addHook('preValidation', async (request) => {
      if (request.routeOptions.url !== `${app.prefix}/graphql`) return;
      if (request.method === 'POST') checkGraphqlBody(request.body);
      const source = (request.method === 'POST' ? request.body : request.query) as { query?: unknown } | null;
      if (typeof source?.query === 'string') documents.admit(source.query);
    });
    app.addHook('preHandler', async (request, reply) => {
      if (request.method !== 'POST' || !wantsEventStream(request) || request.routeOptions.url !== `${app.prefix}/graphql`) return;
      reply.hijack();
      await sse(request, reply);
      return reply;
    });

    await app.register(mercurius, {
      schema,
      path: '/graphql',
      graphiql: false,
      // Operations seen once are compiled by graphql-jit (mercurius keeps the compiled form in
      // its query cache), which executes small, repeated dashboard queries several times faster.
      jit: 1,
      context: (request) => contextFor(request.security),
      validationRules: [limitRule],
      errorFormatter: formatMercuriusErrors,
      errorHandler: handleMercuriusError,
    });

    app.get(
      '/graphql/playground',
      { config: { auth: 'public' }, schema: { summary: 'GraphQL playground page', produces: 'text/html' } },
      async (_request, reply) => reply.type('text/html; charset=utf-8').send(playgroundHtml()),
    );

    const ws = createWsTransport({
      schema,
      path: `${app.prefix}/graphql`,
      rules: [limitRule],
      authenticate: (request, params) =>
        connectionSecurity(request, authorizationParam(params), app.graphdb.config.global.auth, app.graphdb.auth),
      context: contextFor,
      maxPayload: app.graphdb.config.global.server.body_limit,
    });
    const onUpgrade = (request: IncomingMessage, socket: Duplex, head: Buffer) => {
      // Another path with no other upgrade handler would leave the socket hanging.
      if (!ws.handleUpgrade(request, socket, head) && app.server.listenerCount('upgrade') === 1) socket.destroy();
    };
    app.server.on('upgrade', onUpgrade);

    app.addHook('onClose', async () => {
      app.server.off('upgrade', onUpgrade);
      hub.close();
      if (hubsByEngine.get(graphdb) === hub) hubsByEngine.delete(graphdb);
      await ws.close();
    });
  };
}
