/**
 * `startServer(loaded)`: opens the engine and starts every listener of a graphdb process — HTTP
 * (fastify, native HTTPS when configured) and Bolt (unless `server.bolt_enabled` is false).
 * `close()` stops the listeners, flushes the write-behind queue, rolls back open HTTP
 * transactions and closes the engine, in that order, so a clean shutdown loses no data.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { FastifyInstance, FastifyPluginAsync } from 'fastify';
import type { Logger } from 'pino';
import {
  type LoadedConfig,
  DatabaseConfigRegistry,
  redactConfig,
  settingRows,
  SETTINGS_BY_ENV,
  suggestKey,
} from '../engine/config/index.js';
import { bootstrapFromSnapshots, loadVectorBackend, type LifecycleClock } from '../engine/index.js';
import type { AuthService } from '../engine/auth/index.js';
import { startBoltServer, type BoltServer } from './bolt/index.js';
import { boltAuthenticator, openAuthService } from './credentials.js';
import { openEngine, type OpenedEngine } from './engine-adapter.js';
import type { HttpServerOptions } from './http/app.js';
import type { SubsystemProbes } from './http/services.js';
import { instrumentEngine } from './instrumented-engine.js';
import { UNRESTRICTED } from './http/security-context.js';
import type { GraphdbMetrics } from './metrics.js';
import { checkTransportPolicy, unauthenticatedPublicListeners } from './transport-policy.js';
import type { VectorApiServer } from './vectorapi/index.js';
import type { ServerEngine } from './engine-port.js';
import type { ServerClusterMember } from './cluster/cluster-member.js';

export { SecurityConfigurationError, checkTransportPolicy } from './transport-policy.js';
export type { HttpServerOptions } from './http/app.js';

/**
 * Builds the HTTP application (see `http/app.ts`). fastify, mercurius and the route modules are
 * loaded on first use, so a process that only serves Bolt (or only imports this module) does not
 * pay for them at start-up.
 */
export async function buildHttpServer(options: HttpServerOptions): Promise<FastifyInstance> {
  const { buildHttpServer: build } = await import('./http/app.js');
  return build(options);
}

/** The route groups `startServer` mounts next to the built-in ones, loaded on demand. */
async function standardRoutes(
  graphdb: OpenedEngine['graphdb'],
  loaded: LoadedConfig,
  auth: AuthService | null,
  lifecycleClock: LifecycleClock | undefined,
): Promise<FastifyPluginAsync[]> {
  const [authModule, rolesModule, graphql, search, mvcc, backup, gdpr, assistant, mcp, decay, browser] = await Promise.all([
    import('./http/routes/auth.js'),
    import('./http/routes/admin-roles.js'),
    import('./graphql/index.js'),
    import('./http/routes/search.js'),
    import('./http/routes/admin-mvcc.js'),
    import('./http/routes/admin-backup.js'),
    import('./http/routes/gdpr.js'),
    import('./http/routes/assistant.js'),
    import('./mcp/http-route.js'),
    import('./http/routes/decay.js'),
    import('./browser/routes.js'),
  ]);
  return [
    ...(auth === null ? [] : [authModule.authRoutes(auth), rolesModule.adminRoleRoutes(auth)]),
    graphql.graphqlRoutes({ graphdb }),
    ...(graphdb.searchServices === null ? [] : [search.searchRoutes({ graphdb })]),
    mvcc.adminMvccRoutes({ graphdb, clock: lifecycleClock }),
    backup.adminBackupRoutes({
      graphdb,
      wal: {
        intervalMs: loaded.config.wal.snapshot_interval,
        maxCount: loaded.config.wal.snapshot_retention_max_count,
        maxAgeMs: loaded.config.wal.snapshot_retention_max_age,
      },
    }),
    gdpr.gdprRoutes({ graphdb }),
    assistant.assistantRoutes({ graphdb }),
    mcp.mcpRoutes({ graphdb }),
    decay.decayRoutes({ graphdb }),
    browser.browserRoutes(),
  ];
}

/** Options of `startServer` besides the configuration. */
export interface StartServerOptions {
  readonly logger?: Logger;
  /** Reported by `/status` and the discovery document. */
  readonly version?: string;
  /** Extra HTTP route groups (see `HttpServerOptions.routes`). */
  readonly httpRoutes?: HttpServerOptions['routes'];
  /** Search readiness and pending embeddings, for `/admin/stats`, `/status` and metrics. */
  readonly probes?: SubsystemProbes;
  /** The MVCC lifecycle's clock (a soak test runs it faster than wall-clock time). */
  readonly lifecycleClock?: LifecycleClock;
  /**
   * The clock of authentication in milliseconds since the epoch (token issue and expiry, login
   * lockouts); default `Date.now`. A test advances it instead of waiting for a token to expire.
   */
  readonly authClock?: () => number;
}

/** An address a listener is bound to. */
export interface ListenerAddress {
  readonly host: string;
  readonly port: number;
  /** `http://127.0.0.1:7474` or `https://...`. */
  readonly url: string;
}

/** A running graphdb server. */
export interface RunningServer {
  readonly http: ListenerAddress | null;
  readonly bolt: ListenerAddress | null;
  /** The Qdrant-compatible gRPC listener (`vectorapi.grpc_enabled`). */
  readonly vectorApi: VectorApiServer | null;
  readonly app: FastifyInstance | null;
  readonly engine: OpenedEngine;
  /** Stops everything cleanly; safe to call twice. */
  close(): Promise<void>;
}

/** The closest known variable name to a misspelt one, or null. */
function suggestEnv(name: string): string | null {
  const hint = suggestKey(name, [...SETTINGS_BY_ENV.keys()]);
  return hint === '' ? null : hint.slice(' (did you mean "'.length, -'"?)'.length);
}

function urlHost(host: string): string {
  return host.includes(':') ? `[${host}]` : host;
}

/** Port of the HTTP listener: with native HTTPS the HTTPS port, unless `--http-port` was given. */
function httpPort(loaded: LoadedConfig): number {
  const { server } = loaded.config;
  const tls = server.https.enabled || server.http_tls_enabled;
  return tls && loaded.origins.get('server.http_port') !== 'flag' ? server.https.port : server.http_port;
}

/** Starts graphdb with a loaded configuration. Throws SecurityConfigurationError on refused settings. */
export async function startServer(loaded: LoadedConfig, options: StartServerOptions = {}): Promise<RunningServer> {
  const startCalledAt = performance.now();
  const { config } = loaded;
  checkTransportPolicy(config);
  // The gRPC listener's modules (connect, protobuf) load only when it is enabled.
  const vectorApiModule = config.vectorapi.grpc_enabled ? await import('./vectorapi/index.js') : null;
  vectorApiModule?.checkVectorApiTransport(config);
  const logger = options.logger ?? (await import('./logger.js')).createLogger(config.logging.level);
  const version = options.version ?? '0.0.0';
  logger.debug({ config: redactConfig(config), file: loaded.file }, 'effective configuration');
  const grpcHost = vectorApiModule === null ? null : vectorApiModule.parseListenAddress(config.vectorapi.grpc_listen_addr).host;
  const exposed = unauthenticatedPublicListeners(config, grpcHost);
  if (exposed.length > 0) {
    logger.warn(
      { listeners: exposed },
      `AUTHENTICATION IS DISABLED ON A NON-LOOPBACK ADDRESS: anyone who can reach ${exposed.join(', ')} can read, change and delete every database. Bind to 127.0.0.1 or enable authentication.`,
    );
  }
  for (const name of loaded.unknownEnv) {
    logger.warn({ variable: name, suggestion: suggestEnv(name) }, 'unknown GRAPHDB_* environment variable ignored');
  }
  const httpTlsEnabled = config.server.https.enabled || config.server.http_tls_enabled;
  const httpTls =
    config.server.http_enabled && httpTlsEnabled
      ? { cert: readFileSync(config.server.https.cert_file), key: readFileSync(config.server.https.key_file) }
      : undefined;
  const registry = new DatabaseConfigRegistry(loaded, path.join(config.database.path, 'database-config.json'));
  const clustered = config.cluster.nats_url.length > 0;
  // A member whose system database is behind its truncated replication log starts it from the
  // latest snapshot before the engine opens: its catalog names the databases (docs/replication.md).
  if (clustered) {
    await bootstrapFromSnapshots({
      servers: config.cluster.nats_url,
      name: config.cluster.name,
      replicas: config.cluster.replicas,
      maxLogEntries: config.cluster.max_log_entries,
      dataDir: config.database.path,
      info: (message) => logger.info(message),
    });
  }
  const engine = await openEngine(config, logger, (database) => registry.effectiveConfig(database));
  engine.graphdb.setSettingsSource(() => settingRows(loaded));
  // A cluster member commits nothing outside the replication log, not even before it joined (system: below).
  if (clustered) engine.graphdb.holdWritesForCluster(false);
  let member: ServerClusterMember | null = null;
  const enginePort: ServerEngine = { ...engine.port, session: (sessionOptions) => (member?.port ?? engine.port).session(sessionOptions) };
  const search = engine.graphdb.searchServices;
  const backend = search === null ? null : loadVectorBackend();
  if (backend?.name === 'exact') {
    logger.warn({ reason: backend.reason }, 'vector search has no ANN index backend: every vector query is an exact scan');
  }
  const probes: SubsystemProbes = {
    ...(search === null ? {} : { searchReadiness: () => search.readiness(), embeddingsPending: () => search.embeddingsPending() }),
    ...(clustered ? { clusterStatus: () => member?.node.status() ?? null } : {}),
    engineCaches: () => engine.graphdb.cacheStats(),
    ...options.probes,
  };
  // prom-client (and the OpenTelemetry API it loads) is needed from here on only.
  const { GraphdbMetrics: Metrics } = await import('./metrics.js');
  const metrics: GraphdbMetrics = new Metrics(() => engine.port.databaseFigures(), probes.embeddingsPending);
  if (search !== null) metrics.trackEmbeddings(() => search.embeddingTotals());
  if (clustered) metrics.trackCluster(() => member?.node.status() ?? null);
  const boltEngine = instrumentEngine(enginePort, metrics);
  let bolt: BoltServer | null = null;
  let vectorApi: VectorApiServer | null = null;
  let app: FastifyInstance | null = null;
  let http: ListenerAddress | null = null;

  try {
    const auth = await openAuthService(config, engine.graphdb, logger, metrics, options.authClock);
    // The system database too, once the first user was seeded (docs/replication.md, "The system database").
    if (clustered) engine.graphdb.holdWritesForCluster();
    if (auth !== null && auth.store.userCount === 0) {
      logger.warn('authentication is enabled but no user exists: set GRAPHDB_AUTH=user:secret, use graphdb user add, or --no-auth');
    }
    // Bolt first: it needs nothing beyond the engine, while the HTTP application loads fastify,
    // mercurius and every route module before it can listen.
    if (config.server.bolt_enabled) {
      const tlsConfigured = config.server.bolt_tls_enabled || config.server.bolt_tls_require;
      bolt = await startBoltServer({
        port: config.server.bolt_port,
        host: config.server.bolt_address,
        limits: {
          unauthenticatedMaxBytes: config.server.limits.bolt_unauthenticated_max_bytes,
          maxInboundBytes: config.server.limits.bolt_max_inbound_bytes,
          writeTimeoutMs: config.server.limits.write_timeout,
          idleTimeoutMs: config.server.limits.idle_timeout,
          maxConnections: config.database.max_connections,
          maxConnectionsPerIp: config.server.limits.max_connections_per_ip,
        },
        engine: {
          session: (sessionOptions) => boltEngine.session({ security: UNRESTRICTED, ...sessionOptions }),
          hasDatabase: (name) => engine.port.hasDatabase(name),
          routingTable: (database) => member?.routingTable(database) ?? null,
        },
        authenticate:
          auth === null ? undefined : boltAuthenticator(auth, config.server.bolt_allow_anonymous || !config.server.bolt_require_auth),
        tls: tlsConfigured
          ? {
              cert: readFileSync(config.server.bolt_tls_cert),
              key: readFileSync(config.server.bolt_tls_key),
              required: config.server.bolt_tls_require,
            }
          : undefined,
        logger: {
          debug: (message) => logger.debug(message),
          info: (message) => logger.info(message),
          warn: (message) => logger.warn(message),
          error: (message) => logger.error(message),
          isLevelEnabled: (level) => logger.isLevelEnabled(level),
        },
      });
      logger.info({ url: `bolt://${urlHost(bolt.host)}:${bolt.port}` }, 'Bolt listener started');
    }
    if (config.server.http_enabled) {
      app = await buildHttpServer({
        engine: enginePort,
        config: registry,
        configFile: loaded.file,
        logger,
        version,
        metrics,
        tls: httpTls,
        bolt: () => (bolt === null ? null : { port: bolt.port }),
        routes: [...(await standardRoutes(engine.graphdb, loaded, auth, options.lifecycleClock)), ...(options.httpRoutes ?? [])],
        auth,
        probes,
      });
      await app.listen({ port: httpPort(loaded), host: config.server.http_address });
      const address = app.server.address();
      const port = typeof address === 'object' && address !== null ? address.port : httpPort(loaded);
      const host = config.server.http_address;
      http = { host, port, url: `${httpTlsEnabled ? 'https' : 'http'}://${urlHost(host)}:${port}` };
      // Start-up figures: the server's own time (engine open, routes, listeners) and the time since the process started.
      const now = performance.now();
      logger.info(
        {
          url: http.url,
          basePath: config.server.base_path || '/',
          startupMs: Math.round(now - startCalledAt),
          sinceProcessStartMs: Math.round(now),
        },
        'HTTP listener started',
      );
    }
    vectorApi = (await vectorApiModule?.startConfiguredVectorApi(config, enginePort, auth, logger)) ?? null;
    if (clustered) {
      const { joinCluster } = await import('./cluster/cluster-member.js');
      member = await joinCluster(
        config.cluster,
        engine.graphdb,
        engine.port,
        {
          bolt: bolt === null ? '' : `${urlHost(bolt.host)}:${bolt.port}`,
          http: http === null ? '' : `${urlHost(http.host)}:${http.port}`,
        },
        () => auth,
        logger,
      );
    }
    // The search indexes build in the background from here on: started earlier, their slices
    // would share the event loop with loading the listeners' modules (docs/robustness.md).
    search?.startBuilds();
  } catch (error) {
    await member?.close();
    await app?.close();
    await bolt?.close();
    await vectorApi?.close();
    await engine.close();
    throw error;
  }

  const boltAddress: ListenerAddress | null =
    bolt === null ? null : { host: bolt.host, port: bolt.port, url: `bolt://${urlHost(bolt.host)}:${bolt.port}` };
  let closing: Promise<void> | null = null;
  return {
    http,
    bolt: boltAddress,
    vectorApi,
    app,
    engine,
    close() {
      closing ??= (async () => {
        logger.info('shutting down');
        await Promise.all([app?.close(), bolt?.close(), vectorApi?.close()]);
        await member?.close();
        await engine.close();
        logger.info('shutdown complete');
      })();
      return closing;
    },
  };
}
