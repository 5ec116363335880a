/**
 * `buildHttpServer(options)`: the fastify application of graphdb, not yet listening. Route groups
 * are encapsulated plugins registered under `server.base_path`; one error handler maps every
 * error to a Neo4j-shaped body; the hooks here are the proxy trust boundary, the security context
 * and the request metrics.
 */
import { guardConnections } from '../connection-guard.js';
import cors from '@fastify/cors';
import Fastify, { LogController, type FastifyInstance, type FastifyPluginAsync, type FastifyRequest } from 'fastify';
import type { Logger } from 'pino';
import type { DatabaseConfigRegistry } from '../../engine/config/index.js';
import { StatusCodes } from '../../engine/index.js';
import type { AuthService } from '../../engine/auth/index.js';
import { installLeaderForwarding } from './leader-forwarding.js';
import type { ServerEngine } from '../engine-port.js';
import { instrumentEngine } from '../instrumented-engine.js';
import { GraphdbMetrics } from '../metrics.js';
import { mapError, statementErrorEntry } from './http-errors.js';
import { JsonSyntaxError, parseJson } from './json/parse-json.js';
import { collectOpenApiRoutes, type OpenApiCollector } from './openapi.js';
import { adminRoutes } from './routes/admin.js';
import { healthRoutes } from './routes/health.js';
import { observabilityRoutes } from './routes/observability.js';
import { transactionRoutes } from './routes/transactions.js';
import { writeStatusRoutes } from './routes/write-status.js';
import { queryApiRoutes } from './routes/query-api.js';
import { securityContextFor, UNRESTRICTED } from './security-context.js';
import type { BoltEndpoint, HttpServices, SubsystemProbes } from './services.js';
import { TrustedProxies, stripForwardingHeaders } from './trusted-proxies.js';
import { OpenTransactions } from './tx/open-transactions.js';
import { WriteBehindQueue } from './tx/write-behind.js';
import { WriteStatuses } from './tx/write-statuses.js';

/** Inputs of `buildHttpServer`. */
export interface HttpServerOptions {
  readonly engine: ServerEngine;
  readonly config: DatabaseConfigRegistry;
  /** The config file in use, shown by `/admin/config`. */
  readonly configFile?: string | null;
  readonly logger: Logger;
  readonly version: string;
  readonly startedAt?: Date;
  readonly metrics?: GraphdbMetrics;
  readonly probes?: SubsystemProbes;
  readonly bolt?: () => BoltEndpoint | null;
  /** Certificate and key for native HTTPS; plaintext when absent. */
  readonly tls?: {
    readonly cert: Buffer;
    readonly key: Buffer;
    /** Milliseconds a client may take to complete the TLS handshake (default 10 000; Node's own is 120 000). */
    readonly handshakeTimeoutMs?: number;
  };
  /**
   * More route groups (GraphQL, search, auth, ...), registered under the base path after the
   * built-in ones: they share the trust boundary, security hook (`config.auth` per route),
   * error handler, metrics, CORS and OpenAPI collection. `app.graphdb` gives them the services.
   */
  readonly routes?: readonly FastifyPluginAsync[];
  /** Authentication and access control; null or absent when authentication is disabled. */
  readonly auth?: AuthService | null;
}

/** Default limit on a client's TLS handshake: a stalled client must not hold a connection for minutes. */
const TLS_HANDSHAKE_TIMEOUT_MS = 10_000;

function createServices(options: HttpServerOptions, openapi: OpenApiCollector): HttpServices {
  const { config, logger } = options;
  const metrics = options.metrics ?? new GraphdbMetrics(() => options.engine.databaseFigures(), options.probes?.embeddingsPending);
  const engine = instrumentEngine(options.engine, metrics);
  const writeStatuses = new WriteStatuses(config.global.async_writes.status_capacity);
  const writeBehind = new WriteBehindQueue({
    // Unrestricted here (the sender's rights were checked when the write was accepted); named after the sender,
    // so that a cluster follower forwards it to the leader as that user, whose rights the leader checks again.
    openSession: (sessionOptions, username) =>
      engine.session({ ...sessionOptions, security: username === null ? UNRESTRICTED : { ...UNRESTRICTED, username } }),
    settingsFor: (database) => config.effectiveConfig(database).async_writes,
    onFailure: (database, write, error) => {
      const { code, message } = statementErrorEntry(error);
      writeStatuses.failed(write.id, code, message);
      logger.error({ database, write: write.id, statement: write.statement, err: error }, 'async write failed');
    },
    onWritten: (_database, write, bookmark) => writeStatuses.written(write.id, bookmark),
  });
  const transactions = new OpenTransactions(config.global.server.transaction_idle_timeout, (entry, error) =>
    error === null
      ? logger.info({ database: entry.database, transaction: entry.id }, 'idle HTTP transaction expired and was rolled back')
      : logger.error({ database: entry.database, transaction: entry.id, err: error }, 'rolling back an expired HTTP transaction failed'),
  );
  return {
    engine,
    config,
    configFile: options.configFile ?? null,
    metrics,
    writeBehind,
    writeStatuses,
    transactions,
    version: options.version,
    startedAt: options.startedAt ?? new Date(),
    probes: options.probes ?? {},
    bolt: options.bolt ?? (() => null),
    logger,
    openapi,
    auth: options.auth ?? null,
    caches: new Map(),
  };
}

/**
 * One `onRequest` hook for the proxy trust boundary, then the security context. It is callback
 * style and completes synchronously when authentication is disabled: every request passes here,
 * and an async hook costs a promise and a microtask turn or two per request.
 */
function installRequestContext(app: FastifyInstance, proxies: TrustedProxies, services: HttpServices): void {
  app.decorateRequest('clientIp', '');
  app.decorateRequest('security', null as unknown as FastifyRequest['security']);
  app.addHook('onRequest', (request, _reply, done) => {
    const peer = request.raw.socket.remoteAddress;
    if (proxies.trusts(peer)) {
      const realIp = request.headers['x-real-ip'];
      request.clientIp = typeof realIp === 'string' && request.headers['x-forwarded-for'] === undefined ? realIp : request.ip;
    } else {
      stripForwardingHeaders(request.headers);
      if (request.raw.headers !== request.headers) stripForwardingHeaders(request.raw.headers);
      request.clientIp = peer ?? '';
    }
    const settings = services.config.global.auth;
    if (!settings.enabled) {
      request.security = UNRESTRICTED;
      done();
      return;
    }
    const level = request.is404 ? 'public' : (request.routeOptions.config.auth ?? 'authenticated');
    securityContextFor(request, level, settings, services.auth).then(
      (security) => {
        request.security = security;
        done();
      },
      (error: Error) => done(error),
    );
  });
}

function installMetrics(app: FastifyInstance, metrics: GraphdbMetrics, logger: Logger): void {
  app.addHook('onResponse', (request, reply, done) => {
    const path = request.is404 ? 'unmatched' : (request.routeOptions.url ?? 'unmatched');
    metrics.httpRequests.inc({ method: request.method, path, status: String(reply.statusCode) });
    metrics.httpRequestDuration.observe({ method: request.method, path }, reply.elapsedTime / 1000);
    if (logger.isLevelEnabled('debug')) {
      logger.debug(
        {
          reqId: request.id,
          method: request.method,
          url: request.url,
          status: reply.statusCode,
          ms: reply.elapsedTime,
          ip: request.clientIp,
        },
        'request',
      );
    }
    done();
  });
}

function installJsonParser(app: FastifyInstance): void {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, body, done) => {
    const text = (body as string).trim();
    if (text === '') return done(null, undefined);
    try {
      done(null, parseJson(text));
    } catch (error) {
      const reason = error instanceof JsonSyntaxError ? error.message : String(error);
      const failure = Object.assign(new Error(`Unable to deserialize request: ${reason}`), {
        statusCode: 400,
        code: 'FST_ERR_INVALID_JSON',
      });
      done(failure, undefined);
    }
  });
}

/** Builds the HTTP application (call `listen` on it, or `inject` in tests). */
export async function buildHttpServer(options: HttpServerOptions): Promise<FastifyInstance> {
  const settings = options.config.global.server;
  const proxies = new TrustedProxies(settings.trusted_proxies);
  const limits = settings.limits;
  // Slow-header clients: node checks headers_timeout every connectionsCheckingInterval.
  const serverTimeouts = {
    headersTimeout: limits.headers_timeout,
    requestTimeout: limits.request_timeout,
    connectionsCheckingInterval: Math.max(50, Math.min(1000, Math.floor(limits.headers_timeout / 4))),
  };
  const app = Fastify({
    loggerInstance: options.logger,
    logController: new LogController({ disableRequestLogging: true }),
    // No per-request child logger: requests are not logged one by one, and creating a pino child
    // per request costs more than the rest of a small query. Errors log the request id themselves.
    childLoggerFactory: (logger) => logger,
    bodyLimit: settings.body_limit,
    requestTimeout: limits.request_timeout,
    trustProxy: (address) => proxies.trusts(address),
    ...(options.tls
      ? {
          https: {
            cert: options.tls.cert,
            key: options.tls.key,
            handshakeTimeout: options.tls.handshakeTimeoutMs ?? TLS_HANDSHAKE_TIMEOUT_MS,
            ...serverTimeouts,
          },
        }
      : { http: serverTimeouts }),
  }) as unknown as FastifyInstance;
  // HTTP keep-alive idle connections are closed by node's keepAliveTimeout; the guard bounds
  // how many a listener and one address may hold (WebSocket upgrades included).
  guardConnections(app.server, {
    maxConnections: options.config.global.database.max_connections,
    maxPerIp: limits.max_connections_per_ip,
    idleTimeoutMs: 0,
  });
  const openapi = collectOpenApiRoutes(app, settings.base_path);
  const services = createServices(options, openapi);
  app.decorate('graphdb', services);
  installRequestContext(app, proxies, services);
  installMetrics(app, services.metrics, options.logger);
  installLeaderForwarding(app, services);
  installJsonParser(app);

  const corsSettings = options.config.global.cors;
  if (corsSettings.enabled) {
    await app.register(cors, {
      origin: corsSettings.origins.includes('*') ? true : corsSettings.origins,
      credentials: !corsSettings.origins.includes('*'),
      exposedHeaders: ['X-Graphdb-Consistency', 'Location'],
    });
  }

  app.setErrorHandler((error, request, reply) => {
    const { status, entry } = mapError(error);
    if (status >= 500) request.log.error({ err: error, reqId: request.id, url: request.url }, 'request failed');
    // Script clients (the web UI) mark their requests: a challenge would make the browser open its own login dialog.
    if (status === 401 && request.headers['x-requested-with'] !== 'XMLHttpRequest') {
      void reply.header('WWW-Authenticate', 'Basic realm="graphdb", charset="UTF-8"');
    }
    void reply.status(status).send({ errors: [entry] });
  });
  app.setNotFoundHandler((request, reply) => {
    void reply
      .status(404)
      .send({ errors: [{ code: StatusCodes.InvalidRequest, message: `Route ${request.method} ${request.url} not found` }] });
  });

  const prefix = settings.base_path;
  await app.register(healthRoutes, { prefix });
  await app.register(transactionRoutes, { prefix });
  await app.register(writeStatusRoutes, { prefix });
  await app.register(queryApiRoutes, { prefix });
  await app.register(adminRoutes, { prefix });
  await app.register(observabilityRoutes, { prefix });
  for (const routes of options.routes ?? []) await app.register(routes, { prefix });

  app.addHook('onClose', async () => {
    await services.transactions.close();
    await services.writeBehind.close();
  });
  return app;
}
