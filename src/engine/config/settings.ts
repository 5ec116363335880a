/**
 * The table of every configuration setting: its dotted path (the YAML location), value kind,
 * environment variable and whether it is secret or overridable per database. Loading, validation,
 * redaction and the per-database override keys are all driven by this one table.
 */

/** How a setting's text or YAML value is read. */
export type SettingKind =
  | { readonly type: 'string' }
  | { readonly type: 'integer'; readonly min?: number; readonly max?: number }
  | { readonly type: 'number'; readonly min?: number; readonly max?: number }
  | { readonly type: 'boolean' }
  | { readonly type: 'duration' }
  | { readonly type: 'size' }
  | { readonly type: 'list' }
  | { readonly type: 'enum'; readonly values: readonly string[] };

/** One setting. */
export interface SettingSpec {
  /** Dotted path, e.g. `async_writes.flush_interval`. */
  readonly path: string;
  readonly kind: SettingKind;
  /** Environment variables that set it, first one is canonical. */
  readonly env: readonly string[];
  /** The environment variable means the opposite (`GRAPHDB_NO_AUTH=true` sets `auth.enabled=false`). */
  readonly envInverted?: boolean;
  /** Redacted in `/admin/config` and logs. */
  readonly secret?: boolean;
  /** May be overridden per database (`effectiveConfig`). */
  readonly perDatabase?: boolean;
  /** Category shown by the per-database keys listing. */
  readonly category: string;
}

const str = { type: 'string' } as const;
const bool = { type: 'boolean' } as const;
const duration = { type: 'duration' } as const;
const list = { type: 'list' } as const;
const int = (min?: number, max?: number): SettingKind => ({ type: 'integer', min, max });
const num = (min?: number, max?: number): SettingKind => ({ type: 'number', min, max });
const oneOf = (...values: string[]): SettingKind => ({ type: 'enum', values });
const port = int(0, 65535);
const providers = ['local', 'local_server', 'hosted_api'];

type Extra = Partial<Pick<SettingSpec, 'envInverted' | 'secret' | 'perDatabase'>>;

function group(
  category: string,
  prefix: string,
  rows: readonly [string, SettingKind, string | readonly string[] | null, Extra?][],
): SettingSpec[] {
  return rows.map(([key, kind, env, extra]) => ({
    path: `${prefix}.${key}`,
    kind,
    env: env === null ? [] : typeof env === 'string' ? [env] : env,
    category,
    ...extra,
  }));
}

const perDb = { perDatabase: true } as const;
const secret = { secret: true } as const;

/** Every setting graphdb knows. */
export const SETTINGS: readonly SettingSpec[] = [
  ...group('database', 'database', [
    ['path', str, 'GRAPHDB_DATA_DIR'],
    ['default_database', str, 'GRAPHDB_DEFAULT_DATABASE'],
    ['home_alias', str, 'GRAPHDB_HOME_ALIAS'],
    ['max_connections', int(1), 'GRAPHDB_MAX_CONNECTIONS'],
    ['connection_timeout', duration, 'GRAPHDB_CONNECTION_TIMEOUT'],
    ['storage_serializer', oneOf('gob', 'msgpack'), 'GRAPHDB_STORAGE_SERIALIZER'],
    ['mvcc_retention_max_versions', int(0), 'GRAPHDB_MVCC_RETENTION_MAX_VERSIONS', perDb],
    ['mvcc_retention_ttl', duration, 'GRAPHDB_MVCC_RETENTION_TTL', perDb],
    ['persist_search_indexes', bool, 'GRAPHDB_PERSIST_SEARCH_INDEXES'],
    ['transaction_timeout', duration, 'GRAPHDB_TRANSACTION_TIMEOUT'],
    ['lock_acquisition_timeout', duration, 'GRAPHDB_LOCK_ACQUISITION_TIMEOUT'],
    ['transaction_max_write_set', { type: 'size' }, 'GRAPHDB_TRANSACTION_MAX_WRITE_SET'],
  ]),
  ...group('server', 'server', [
    ['bolt_enabled', bool, 'GRAPHDB_BOLT_ENABLED'],
    ['bolt_port', port, 'GRAPHDB_BOLT_PORT'],
    ['bolt_address', str, 'GRAPHDB_BOLT_ADDRESS'],
    ['bolt_tls_enabled', bool, 'GRAPHDB_BOLT_TLS_ENABLED'],
    ['bolt_tls_require', bool, 'GRAPHDB_BOLT_TLS_REQUIRE'],
    ['bolt_tls_cert', str, 'GRAPHDB_BOLT_TLS_CERT'],
    ['bolt_tls_key', str, 'GRAPHDB_BOLT_TLS_KEY'],
    ['bolt_require_auth', bool, 'GRAPHDB_BOLT_REQUIRE_AUTH'],
    ['bolt_allow_anonymous', bool, 'GRAPHDB_BOLT_ALLOW_ANONYMOUS'],
    ['http_enabled', bool, 'GRAPHDB_HTTP_ENABLED'],
    ['http_port', port, 'GRAPHDB_HTTP_PORT'],
    ['http_address', str, 'GRAPHDB_ADDRESS'],
    ['http_tls_enabled', bool, 'GRAPHDB_HTTP_TLS_ENABLED'],
    ['base_path', str, 'GRAPHDB_BASE_PATH'],
    ['trusted_proxies', list, 'GRAPHDB_HTTP_TRUSTED_PROXIES'],
    ['body_limit', { type: 'size' }, 'GRAPHDB_HTTP_BODY_LIMIT'],
    ['statement_timeout', duration, 'GRAPHDB_STATEMENT_TIMEOUT'],
    ['transaction_idle_timeout', duration, 'GRAPHDB_TRANSACTION_IDLE_TIMEOUT'],
  ]),
  ...group('server', 'server.https', [
    ['enabled', bool, 'GRAPHDB_HTTPS_ENABLED'],
    ['port', port, 'GRAPHDB_HTTPS_PORT'],
    ['cert_file', str, 'GRAPHDB_HTTP_TLS_CERT'],
    ['key_file', str, 'GRAPHDB_HTTP_TLS_KEY'],
  ]),
  ...group('security', 'server.directories', [['import', str, 'GRAPHDB_IMPORT_DIR']]),
  ...group('security', 'server.limits', [
    ['max_connections_per_ip', int(0), 'GRAPHDB_MAX_CONNECTIONS_PER_IP'],
    ['idle_timeout', duration, 'GRAPHDB_IDLE_TIMEOUT'],
    ['write_timeout', duration, 'GRAPHDB_WRITE_TIMEOUT'],
    ['headers_timeout', duration, 'GRAPHDB_HEADERS_TIMEOUT'],
    ['request_timeout', duration, 'GRAPHDB_REQUEST_TIMEOUT'],
    ['http_max_result_bytes', { type: 'size' }, 'GRAPHDB_HTTP_MAX_RESULT_BYTES'],
    ['bolt_unauthenticated_max_bytes', { type: 'size' }, 'GRAPHDB_BOLT_UNAUTHENTICATED_MAX_BYTES'],
    ['bolt_max_inbound_bytes', { type: 'size' }, 'GRAPHDB_BOLT_MAX_INBOUND_BYTES'],
  ]),
  ...group('security', 'dbms.security', [
    ['allow_csv_import_from_file_urls', bool, 'GRAPHDB_ALLOW_FILE_URLS'],
    ['load_url_allowlist', list, 'GRAPHDB_LOAD_URL_ALLOWLIST'],
  ]),
  ...group('security', 'dbms.import.csv', [['buffer_size', { type: 'size' }, 'GRAPHDB_CSV_BUFFER_SIZE']]),
  ...group('resources', 'dbms.memory.transaction.total', [['max', { type: 'size' }, 'GRAPHDB_MEMORY_TRANSACTION_TOTAL_MAX']]),
  ...group('resources', 'db.memory.transaction', [['max', { type: 'size' }, 'GRAPHDB_MEMORY_TRANSACTION_MAX']]),
  ...group('server', 'vectorapi', [
    ['grpc_enabled', bool, 'GRAPHDB_VECTORAPI_GRPC_ENABLED'],
    ['grpc_listen_addr', str, 'GRAPHDB_VECTORAPI_GRPC_LISTEN_ADDR'],
    ['grpc_tls_enabled', bool, 'GRAPHDB_VECTORAPI_GRPC_TLS_ENABLED'],
    ['grpc_tls_cert', str, 'GRAPHDB_VECTORAPI_GRPC_TLS_CERT'],
    ['grpc_tls_key', str, 'GRAPHDB_VECTORAPI_GRPC_TLS_KEY'],
    ['grpc_tls_client_ca', str, 'GRAPHDB_VECTORAPI_GRPC_TLS_CLIENT_CA'],
    [
      'grpc_tls_client_auth_mode',
      oneOf('none', 'request', 'request_verify', 'require_verify'),
      'GRAPHDB_VECTORAPI_GRPC_TLS_CLIENT_AUTH_MODE',
    ],
    ['database', str, 'GRAPHDB_VECTORAPI_DATABASE'],
  ]),
  ...group('auth', 'auth', [
    ['enabled', bool, 'GRAPHDB_NO_AUTH', { envInverted: true }],
    ['initial_credentials', str, 'GRAPHDB_AUTH', secret],
    ['jwt_secret', str, 'GRAPHDB_JWT_SECRET', secret],
    ['oauth_issuer', str, 'GRAPHDB_OAUTH_ISSUER'],
    ['oauth_client_id', str, 'GRAPHDB_OAUTH_CLIENT_ID'],
    ['oauth_client_secret', str, 'GRAPHDB_OAUTH_CLIENT_SECRET', secret],
    ['oauth_redirect_uri', str, 'GRAPHDB_OAUTH_REDIRECT_URI'],
    ['oauth_scopes', str, 'GRAPHDB_OAUTH_SCOPES'],
    ['oauth_default_role', str, 'GRAPHDB_OAUTH_DEFAULT_ROLE'],
    ['max_failed_attempts', int(1), 'GRAPHDB_AUTH_MAX_FAILED_ATTEMPTS'],
    ['lock_time', duration, 'GRAPHDB_AUTH_LOCK_TIME'],
    ['failed_attempts_window', duration, 'GRAPHDB_AUTH_FAILED_ATTEMPTS_WINDOW'],
    ['token_max_lifetime', duration, 'GRAPHDB_TOKEN_MAX_LIFETIME'],
    ['cluster_tokens_never_expire', bool, 'GRAPHDB_CLUSTER_TOKENS_NEVER_EXPIRE'],
    ['password_min_length', int(1), 'GRAPHDB_AUTH_PASSWORD_MIN_LENGTH'],
  ]),
  ...group('server', 'cors', [
    ['enabled', bool, 'GRAPHDB_CORS_ENABLED'],
    ['origins', list, 'GRAPHDB_CORS_ORIGINS'],
  ]),
  ...group('logging', 'logging', [['level', oneOf('fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'), 'GRAPHDB_LOG_LEVEL']]),
  ...group('async_writes', 'async_writes', [
    ['enabled', bool, 'GRAPHDB_ASYNC_WRITES_ENABLED', perDb],
    ['flush_interval', duration, 'GRAPHDB_ASYNC_FLUSH_INTERVAL', perDb],
    ['max_node_cache_size', int(0), 'GRAPHDB_ASYNC_MAX_NODE_CACHE_SIZE', perDb],
    ['max_edge_cache_size', int(0), 'GRAPHDB_ASYNC_MAX_EDGE_CACHE_SIZE', perDb],
  ]),
  ...group('embeddings', 'embeddings', [
    ['enabled', bool, 'GRAPHDB_EMBEDDING_ENABLED', perDb],
    ['provider', oneOf(...providers), 'GRAPHDB_EMBEDDING_PROVIDER', perDb],
    ['model', str, 'GRAPHDB_EMBEDDING_MODEL', perDb],
    ['dimensions', int(0), 'GRAPHDB_EMBEDDING_DIMENSIONS', perDb],
    ['api_url', str, 'GRAPHDB_EMBEDDING_API_URL', perDb],
    ['url', str, 'GRAPHDB_EMBEDDING_URL', perDb],
    ['api_key', str, 'GRAPHDB_EMBEDDING_API_KEY', { ...secret, ...perDb }],
  ]),
  ...group('embeddings', 'embedding_worker', [
    ['properties_include', list, 'GRAPHDB_EMBEDDING_PROPERTIES_INCLUDE', perDb],
    ['properties_exclude', list, 'GRAPHDB_EMBEDDING_PROPERTIES_EXCLUDE', perDb],
    ['include_labels', bool, 'GRAPHDB_EMBEDDING_INCLUDE_LABELS', perDb],
  ]),
  ...group('search', 'search', [
    ['min_similarity', num(0, 1), 'GRAPHDB_SEARCH_MIN_SIMILARITY', perDb],
    ['bm25_engine', oneOf('v1', 'v2'), 'GRAPHDB_SEARCH_BM25_ENGINE', perDb],
    ['hnsw_lexical_seed_max_terms', int(0), 'GRAPHDB_HNSW_LEXICAL_SEED_MAX_TERMS', perDb],
    ['hnsw_lexical_seed_per_term', int(0), 'GRAPHDB_HNSW_LEXICAL_SEED_PER_TERM', perDb],
    ['index_persist_delay_sec', int(0), 'GRAPHDB_SEARCH_INDEX_PERSIST_DELAY_SEC'],
    ['log_timings', bool, 'GRAPHDB_SEARCH_LOG_TIMINGS'],
    ['diag_timings', bool, 'GRAPHDB_SEARCH_DIAG_TIMINGS'],
  ]),
  ...group('search', 'vector', [
    ['gpu_brute_min_n', int(0), 'GRAPHDB_VECTOR_GPU_BRUTE_MIN_N', perDb],
    ['gpu_brute_max_n', int(0), 'GRAPHDB_VECTOR_GPU_BRUTE_MAX_N', perDb],
    ['ivf_hnsw_enabled', bool, 'GRAPHDB_VECTOR_IVF_HNSW_ENABLED', perDb],
    ['ivf_hnsw_min_cluster_size', int(1), 'GRAPHDB_VECTOR_IVF_HNSW_MIN_CLUSTER_SIZE', perDb],
    ['ivf_hnsw_max_clusters', int(1), 'GRAPHDB_VECTOR_IVF_HNSW_MAX_CLUSTERS', perDb],
    ['routing_mode', oneOf('hybrid', 'semantic'), 'GRAPHDB_VECTOR_ROUTING_MODE', perDb],
    ['hybrid_routing_w_sem', num(0, 1), 'GRAPHDB_VECTOR_HYBRID_ROUTING_W_SEM', perDb],
    ['hybrid_routing_w_lex', num(0, 1), 'GRAPHDB_VECTOR_HYBRID_ROUTING_W_LEX', perDb],
    ['hybrid_routing_lex_top_terms', int(0), 'GRAPHDB_VECTOR_HYBRID_ROUTING_LEX_TOP_TERMS', perDb],
    ['kmeans_num_clusters', int(0), 'GRAPHDB_KMEANS_NUM_CLUSTERS', perDb],
    ['kmeans_max_iterations', int(0), 'GRAPHDB_KMEANS_MAX_ITERATIONS', perDb],
    ['kmeans_seed_max_terms', int(0), 'GRAPHDB_KMEANS_SEED_MAX_TERMS', perDb],
    ['kmeans_seed_docs_per_term', int(0), 'GRAPHDB_KMEANS_SEED_DOCS_PER_TERM', perDb],
    ['ann_quality', oneOf('fast', 'balanced', 'accurate', 'compressed'), 'GRAPHDB_VECTOR_ANN_QUALITY', perDb],
    ['hnsw_m', int(0), 'GRAPHDB_VECTOR_HNSW_M', perDb],
    ['hnsw_ef_construction', int(0), 'GRAPHDB_VECTOR_HNSW_EF_CONSTRUCTION', perDb],
    ['hnsw_ef_search', int(0), 'GRAPHDB_VECTOR_HNSW_EF_SEARCH', perDb],
    ['pq_segments', int(1), 'GRAPHDB_VECTOR_PQ_SEGMENTS', perDb],
    ['pq_bits', int(1), 'GRAPHDB_VECTOR_PQ_BITS', perDb],
    ['ivfpq_nprobe', int(1), 'GRAPHDB_VECTOR_IVFPQ_NPROBE', perDb],
    ['ivfpq_rerank_topk', int(0), 'GRAPHDB_VECTOR_IVFPQ_RERANK_TOPK', perDb],
    ['ivfpq_training_sample_max', int(0), 'GRAPHDB_VECTOR_IVFPQ_TRAINING_SAMPLE_MAX', perDb],
    ['hnsw_metal_min_candidates', int(0), 'GRAPHDB_VECTOR_HNSW_METAL_MIN_CANDIDATES'],
    ['hnsw_maint_interval_ms', int(0), 'GRAPHDB_HNSW_MAINT_INTERVAL_MS'],
    ['hnsw_min_rebuild_interval_sec', int(0), 'GRAPHDB_HNSW_MIN_REBUILD_INTERVAL_SEC'],
    ['hnsw_tombstone_rebuild_ratio', num(0), 'GRAPHDB_HNSW_TOMBSTONE_REBUILD_RATIO'],
    ['hnsw_max_tombstone_overhead_factor', num(0), 'GRAPHDB_HNSW_MAX_TOMBSTONE_OVERHEAD_FACTOR'],
    ['hnsw_rebuild_enabled', bool, 'GRAPHDB_HNSW_REBUILD_ENABLED'],
  ]),
  ...group('search', 'search_rerank', [
    ['enabled', bool, 'GRAPHDB_SEARCH_RERANK_ENABLED', perDb],
    ['provider', oneOf(...providers, 'http'), 'GRAPHDB_SEARCH_RERANK_PROVIDER', perDb],
    ['model', str, 'GRAPHDB_SEARCH_RERANK_MODEL', perDb],
    ['api_url', str, 'GRAPHDB_SEARCH_RERANK_API_URL', perDb],
    ['api_key', str, 'GRAPHDB_SEARCH_RERANK_API_KEY', { ...secret, ...perDb }],
  ]),
  ...group('assistant', 'assistant', [
    ['enabled', bool, 'GRAPHDB_ASSISTANT_ENABLED'],
    ['provider', oneOf(...providers), 'GRAPHDB_ASSISTANT_PROVIDER'],
    ['api_url', str, 'GRAPHDB_ASSISTANT_API_URL'],
    ['api_key', str, 'GRAPHDB_ASSISTANT_API_KEY', secret],
    ['model', str, 'GRAPHDB_ASSISTANT_MODEL'],
    ['mcp_enable', bool, 'GRAPHDB_ASSISTANT_MCP_ENABLE'],
    ['mcp_tools', list, 'GRAPHDB_ASSISTANT_MCP_TOOLS'],
    ['max_rounds', int(1, 64), 'GRAPHDB_ASSISTANT_MAX_ROUNDS'],
    ['max_tool_result_chars', int(100), 'GRAPHDB_ASSISTANT_MAX_TOOL_RESULT_CHARS'],
    ['max_tokens', int(1), 'GRAPHDB_ASSISTANT_MAX_TOKENS'],
    ['context_size', int(128), 'GRAPHDB_ASSISTANT_CONTEXT_SIZE'],
    ['threads', int(0, 256), 'GRAPHDB_ASSISTANT_THREADS'],
    ['timeout', duration, 'GRAPHDB_ASSISTANT_TIMEOUT'],
  ]),
  ...group('mvcc', 'mvcc', [
    ['max_snapshot_lifetime', duration, 'GRAPHDB_MVCC_MAX_SNAPSHOT_LIFETIME', perDb],
    ['hard_expiry_after', duration, 'GRAPHDB_MVCC_HARD_EXPIRY_AFTER', perDb],
    ['max_chain_hard_cap', int(0), 'GRAPHDB_MVCC_MAX_CHAIN_HARD_CAP', perDb],
    ['pressure_high_enter', { type: 'size' }, 'GRAPHDB_MVCC_PRESSURE_HIGH_ENTER', perDb],
    ['pressure_critical_enter', { type: 'size' }, 'GRAPHDB_MVCC_PRESSURE_CRITICAL_ENTER', perDb],
    ['high_long_snapshot_rate', num(0), 'GRAPHDB_MVCC_HIGH_LONG_SNAPSHOT_RATE', perDb],
    ['budget_keys', int(0), 'GRAPHDB_MVCC_BUDGET_KEYS', perDb],
    ['min_slice_keys', int(1), 'GRAPHDB_MVCC_MIN_SLICE_KEYS'],
    ['max_cpu_share', num(0.01, 1), 'GRAPHDB_MVCC_MAX_CPU_SHARE'],
    ['max_io_bytes', { type: 'size' }, 'GRAPHDB_MVCC_MAX_IO_BYTES'],
    ['max_cycle_runtime', duration, 'GRAPHDB_MVCC_MAX_CYCLE_RUNTIME'],
  ]),
  ...group('memory_decay', 'memory_decay', [
    ['enabled', bool, 'GRAPHDB_MEMORY_DECAY_ENABLED'],
    ['recalculate_interval', duration, 'GRAPHDB_MEMORY_DECAY_RECALCULATE_INTERVAL'],
    ['decay_rate', num(0, 0.999), 'GRAPHDB_MEMORY_DECAY_RATE'],
    ['half_lives', list, 'GRAPHDB_MEMORY_DECAY_HALF_LIVES'],
    ['archive_threshold', num(0, 1), 'GRAPHDB_MEMORY_DECAY_ARCHIVE_THRESHOLD'],
    ['recency_weight', num(0, 1), 'GRAPHDB_MEMORY_DECAY_RECENCY_WEIGHT'],
    ['frequency_weight', num(0, 1), 'GRAPHDB_MEMORY_DECAY_FREQUENCY_WEIGHT'],
    ['importance_weight', num(0, 1), 'GRAPHDB_MEMORY_DECAY_IMPORTANCE_WEIGHT'],
    ['search_weight', num(0, 1), 'GRAPHDB_MEMORY_DECAY_SEARCH_WEIGHT'],
  ]),
  ...group('cluster', 'cluster', [
    ['nats_url', list, 'GRAPHDB_CLUSTER_NATS_URL'],
    ['name', str, 'GRAPHDB_CLUSTER_NAME'],
    ['node_id', str, 'GRAPHDB_CLUSTER_NODE_ID'],
    ['advertised_bolt_address', str, 'GRAPHDB_CLUSTER_ADVERTISED_BOLT_ADDRESS'],
    ['advertised_http_address', str, 'GRAPHDB_CLUSTER_ADVERTISED_HTTP_ADDRESS'],
    ['replicas', int(1, 5), 'GRAPHDB_CLUSTER_REPLICAS'],
    ['lease_ttl', duration, 'GRAPHDB_CLUSTER_LEASE_TTL'],
    ['append_timeout', duration, 'GRAPHDB_CLUSTER_APPEND_TIMEOUT'],
    ['max_log_entries', int(0), 'GRAPHDB_CLUSTER_MAX_LOG_ENTRIES'],
    ['routing_ttl', duration, 'GRAPHDB_CLUSTER_ROUTING_TTL'],
  ]),
  ...group('wal', 'wal', [
    ['snapshot_retention_max_count', int(0), 'GRAPHDB_WAL_SNAPSHOT_RETENTION_MAX_COUNT'],
    ['snapshot_retention_max_age', duration, 'GRAPHDB_WAL_SNAPSHOT_RETENTION_MAX_AGE'],
  ]),
  ...group('resources', 'resources', [
    ['low_memory', bool, 'GRAPHDB_LOW_MEMORY'],
    ['tmp_dir', str, 'GRAPHDB_TMP_DIR'],
    ['models_dir', str, 'GRAPHDB_MODELS_DIR'],
  ]),
];

/** Settings by dotted path. */
export const SETTINGS_BY_PATH: ReadonlyMap<string, SettingSpec> = new Map(SETTINGS.map((s) => [s.path, s]));

/** Settings by environment variable name. */
export const SETTINGS_BY_ENV: ReadonlyMap<string, SettingSpec> = new Map(SETTINGS.flatMap((s) => s.env.map((name) => [name, s] as const)));
