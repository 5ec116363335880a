/**
 * Opens the `GraphDB` facade for a server process and exposes it as the `ServerEngine` port the
 * HTTP routes use (figures from each database's storage stats, existence checks by name).
 */
import path from 'node:path';
import type { Logger } from 'pino';
import type { GraphdbConfig } from '../engine/config/index.js';
import { GraphDB, searchSettingsFrom } from '../engine/index.js';
import type { DatabaseFigures, ServerEngine } from './engine-port.js';

/** The opened engine and its port. */
export interface OpenedEngine {
  readonly graphdb: GraphDB;
  readonly port: ServerEngine;
  close(): Promise<void>;
}

const SYSTEM_DATABASE = 'system';

/**
 * Opens the data directory of `config` and wraps it; `configFor` resolves a database's effective
 * configuration (per-database overrides) for its search, embedding, vector and rerank settings.
 */
export async function openEngine(
  config: GraphdbConfig,
  logger: Logger,
  configFor: (database: string) => GraphdbConfig = () => config,
): Promise<OpenedEngine> {
  const graphdb = await GraphDB.open({
    dataDir: config.database.path,
    defaultDatabase: config.database.default_database,
    homeAlias: config.database.home_alias === '' ? null : config.database.home_alias,
    transactionTimeoutMs: config.database.transaction_timeout,
    transactionIdleTimeoutMs: config.server.transaction_idle_timeout,
    files: {
      ...(config.server.directories.import === '' ? {} : { importDir: path.resolve(config.server.directories.import) }),
      allowFileUrls: config.dbms.security.allow_csv_import_from_file_urls,
      urlAllowlist: config.dbms.security.load_url_allowlist,
      csvBufferSize: config.dbms.import.csv.buffer_size,
    },
    lockAcquisitionTimeoutMs: config.database.lock_acquisition_timeout,
    lowMemory: config.resources.low_memory,
    maxWriteSetBytes: config.database.transaction_max_write_set,
    testProcedures: config.database.test_procedures,
    logger: { warn: (object, message) => logger.warn(object, message) },
    memoryDecay: { settings: config.memory_decay },
    memory: { transactionMaxBytes: config.db.memory.transaction.max, totalMaxBytes: config.dbms.memory.transaction.total.max },
    queryCacheMaxBytes: config.dbms.memory.query_cache.max_size,
    regexCacheMaxBytes: config.dbms.memory.regex_cache.max_size,
    readWorkers: config.server.read_workers,
    search: {
      settings: searchSettingsFrom(config),
      settingsFor: (database) => searchSettingsFrom(configFor(database)),
      eager: true,
      // `startServer` starts the builds once its listeners are up (`searchServices.startBuilds()`).
      deferBuilds: true,
      logger: { info: (message) => logger.info(message), warn: (message) => logger.warn(message) },
    },
  });
  const hasDatabase = (name: string): boolean => graphdb.databaseServices.exists(name);
  const port: ServerEngine = {
    session: (options) => graphdb.session(options),
    hasDatabase,
    isComposite: (name) => graphdb.databaseServices.isComposite(name),
    constrainedTokens: (database) => graphdb.databaseServices.constrainedTokens(database),
    authorizeStatement: (security, database, statement) => graphdb.authorizeStatement(security, database, statement),
    databaseFigures(): DatabaseFigures[] {
      return graphdb
        .databases()
        .filter((d) => d.name !== SYSTEM_DATABASE && d.status === 'online')
        .map((d) => {
          const stats = graphdb.databaseServices.figures(d.name);
          return { name: d.name, nodes: stats.nodes, relationships: stats.relationships, dataSizeBytes: stats.dataSizeBytes };
        });
    },
  };
  return { graphdb, port, close: () => graphdb.close() };
}
