import { Command, Flags } from '@oclif/core';
import { ConfigError, loadConfig, removeSecretsFromEnvironment } from '../engine/config/index.js';
import { forgetServer, recordServer } from '../cli/data-dir.js';
import { createLogger } from '../server/logger.js';
import { SecurityConfigurationError, startServer } from '../server/index.js';

/** `graphdb serve`: start the HTTP and Bolt listeners over a data directory. */
export default class Serve extends Command {
  static override summary = 'Start the graphdb server (HTTP API and Bolt).';

  static override description = [
    'Opens the data directory and starts the HTTP listener (transactional Cypher endpoint, health,',
    'status, metrics, admin) and the Bolt listener. Settings come from flags, then GRAPHDB_*',
    'environment variables, then the config file (--config or the discovered one), then defaults.',
    'SIGINT/SIGTERM shut down cleanly: listeners close, pending async writes are flushed, the',
    'engine is closed.',
  ].join(' ');

  static override examples = [
    '<%= config.bin %> <%= command.id %>',
    '<%= config.bin %> <%= command.id %> --data-dir ./data --http-port 7474 --address 127.0.0.1 --no-auth',
    'GRAPHDB_CONFIG=./graphdb.yaml <%= config.bin %> <%= command.id %>',
  ];

  static override flags = {
    'data-dir': Flags.string({ description: 'data directory (default ./data; env GRAPHDB_DATA_DIR)' }),
    'http-port': Flags.integer({ description: 'HTTP port (default 7474; env GRAPHDB_HTTP_PORT; 0 picks a free port)' }),
    'bolt-port': Flags.integer({ description: 'Bolt port (default 7687; env GRAPHDB_BOLT_PORT)' }),
    address: Flags.string({ description: 'HTTP (and HTTPS) bind address (default 127.0.0.1, loopback; env GRAPHDB_ADDRESS)' }),
    'bolt-address': Flags.string({
      description: 'Bolt bind address (default 127.0.0.1, loopback, whatever --address says; env GRAPHDB_BOLT_ADDRESS)',
    }),
    config: Flags.string({ description: 'YAML config file (otherwise GRAPHDB_CONFIG or discovery)' }),
    'no-auth': Flags.boolean({ description: 'disable authentication (env GRAPHDB_NO_AUTH=true)' }),
    'no-bolt': Flags.boolean({ description: 'do not start the Bolt listener (env GRAPHDB_BOLT_ENABLED=false)' }),
    'vectorapi-grpc-listen': Flags.string({
      description:
        'start the Qdrant-compatible gRPC listener on host:port or :port (env GRAPHDB_VECTORAPI_GRPC_ENABLED=true, GRAPHDB_VECTORAPI_GRPC_LISTEN_ADDR)',
    }),
    'embedding-enabled': Flags.boolean({ description: 'enable background embedding generation (env GRAPHDB_EMBEDDING_ENABLED)' }),
    'base-path': Flags.string({ description: 'URL prefix of every HTTP route (env GRAPHDB_BASE_PATH)' }),
    cluster: Flags.string({
      description:
        'join a replicated cluster through this NATS JetStream server, nats://host:port, comma-separated for several (env GRAPHDB_CLUSTER_NATS_URL; docs/replication.md)',
    }),
    'node-id': Flags.string({ description: 'this cluster member id (env GRAPHDB_CLUSTER_NODE_ID; default its Bolt address)' }),
    'log-level': Flags.string({
      description: 'log level (env GRAPHDB_LOG_LEVEL)',
      options: ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'],
    }),
  };

  public async run(): Promise<void> {
    const { flags } = await this.parse(Serve);
    let loaded;
    try {
      loaded = loadConfig({
        configFile: flags.config,
        flags: {
          'database.path': flags['data-dir'],
          'server.http_port': flags['http-port'],
          'server.bolt_port': flags['bolt-port'],
          'server.http_address': flags.address,
          'server.bolt_address': flags['bolt-address'],
          'server.base_path': flags['base-path'],
          'auth.enabled': flags['no-auth'] ? false : undefined,
          'server.bolt_enabled': flags['no-bolt'] ? false : undefined,
          'vectorapi.grpc_enabled': flags['vectorapi-grpc-listen'] === undefined ? undefined : true,
          'vectorapi.grpc_listen_addr': flags['vectorapi-grpc-listen'],
          'embeddings.enabled': flags['embedding-enabled'] ? true : undefined,
          'logging.level': flags['log-level'],
          'cluster.nats_url': flags.cluster,
          'cluster.node_id': flags['node-id'],
        },
      });
    } catch (error) {
      if (error instanceof ConfigError) this.error(error.message, { exit: 2 });
      throw error;
    }
    removeSecretsFromEnvironment();
    const logger = createLogger(loaded.config.logging.level);
    if (loaded.file !== null) logger.info({ file: loaded.file }, 'configuration file loaded');
    let server;
    try {
      server = await startServer(loaded, { logger, version: this.config.version });
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      logger.fatal({ err: error }, 'startup failed');
      this.error(message, { exit: error instanceof SecurityConfigurationError ? 3 : 1 });
    }
    const dataDir = loaded.config.database.path;
    recordServer(dataDir, { pid: process.pid, http: server.http?.url ?? null, bolt: server.bolt?.url ?? null });
    const signal = await new Promise<NodeJS.Signals>((resolve) => {
      process.once('SIGINT', () => resolve('SIGINT'));
      process.once('SIGTERM', () => resolve('SIGTERM'));
    });
    logger.info({ signal }, 'signal received');
    await server.close();
    forgetServer(dataDir, process.pid);
  }
}
