import { duration, flag, group, integer, rejected, size, text } from '../declare.js';

/** `database` section. */
export const database = group('database', {
  path: text('./data', {
    env: 'GRAPHDB_DATA_DIR',
    help: 'Data directory holding the database files.',
    proof: 'test/config/config.test.ts',
  }),
  default_database: text('graphdb', {
    env: 'GRAPHDB_DEFAULT_DATABASE',
    help: 'Name of the database sessions use when none is given.',
    proof: 'test/config/setting-effects.test.ts',
  }),
  home_alias: text('neo4j', {
    env: 'GRAPHDB_HOME_ALIAS',
    help: 'Built-in alias of the default database (neo4j), seeded once per data directory; empty for none.',
    proof: 'test/http/query-api.test.ts',
  }),
  max_connections: integer(100, {
    env: 'GRAPHDB_MAX_CONNECTIONS',
    min: 1,
    help: 'Maximum number of open client connections of each listener.',
    proof: 'test/security/client-limits.test.ts',
  }),
  connection_timeout: rejected(
    { type: 'duration' },
    {
      env: 'GRAPHDB_CONNECTION_TIMEOUT',
      help: 'How long an idle client connection is kept open.',
      why: 'one timeout per effect: idle connections close after server.limits.idle_timeout, slow request setup is bounded by server.limits.headers_timeout and server.limits.request_timeout',
    },
  ),
  storage_serializer: rejected(
    { type: 'enum', values: ['gob', 'msgpack'] },
    {
      env: 'GRAPHDB_STORAGE_SERIALIZER',
      help: 'Serializer of stored property records.',
      why: "storage is SQLite with graphdb's own record encoding; gob and msgpack are serializers of another implementation and choose nothing here",
    },
  ),
  mvcc_retention_max_versions: integer(100, {
    env: 'GRAPHDB_MVCC_RETENTION_MAX_VERSIONS',
    min: 0,
    help: 'How many old versions of an entity history pruning keeps.',
    proof: 'test/admin/mvcc.test.ts',
    perDatabase: true,
  }),
  mvcc_retention_ttl: duration(0, {
    env: 'GRAPHDB_MVCC_RETENTION_TTL',
    help: 'Minimum age of a version before history pruning may remove it (0: no protection).',
    proof: 'test/config/setting-effects.test.ts',
    perDatabase: true,
  }),
  persist_search_indexes: flag(false, {
    env: 'GRAPHDB_PERSIST_SEARCH_INDEXES',
    help: 'Persist search indexes to disk instead of rebuilding them at startup.',
    proof: 'test/search-e2e/facade.test.ts',
  }),
  transaction_timeout: duration(0, {
    env: 'GRAPHDB_TRANSACTION_TIMEOUT',
    help: "Default timeout of a transaction (Neo4j's db.transaction.timeout; 0: none). A driver's per-transaction timeout overrides it.",
    proof: 'test/transactions/timeouts.test.ts',
  }),
  lock_acquisition_timeout: duration(10_000, {
    env: 'GRAPHDB_LOCK_ACQUISITION_TIMEOUT',
    help: "How long a transaction waits for an entity lock another transaction holds (Neo4j's db.lock.acquisition.timeout; 0: no limit).",
    proof: 'test/transactions/timeouts.test.ts',
  }),
  test_procedures: flag(false, {
    env: 'GRAPHDB_TEST_PROCEDURES',
    help: 'Test support, off by default: adds tck.registerProcedure(signature, columns, rows), which defines table-backed procedures (the openCypher TCK over Bolt). Never enable it in production.',
    proof: 'test/config/test-procedures.test.ts',
  }),
  transaction_max_write_set: size(268_435_456, {
    env: 'GRAPHDB_TRANSACTION_MAX_WRITE_SET',
    help: 'Largest write set an explicit transaction may hold in memory; past it the statement fails with MemoryPoolOutOfMemoryError.',
    proof: 'test/transactions/timeouts.test.ts',
  }),
});
