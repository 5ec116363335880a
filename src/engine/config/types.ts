/**
 * The typed configuration of a graphdb process. Key names are the YAML keys (snake_case), so
 * `config.async_writes.flush_interval` is `async_writes: { flush_interval: 50ms }` in the file.
 * Durations are held in milliseconds, sizes in bytes; 0 means "unlimited" or "none" where noted.
 */

/** Log levels accepted by `logging.level` / `GRAPHDB_LOG_LEVEL` (pino's names). */
export type LogLevel = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';

/** Embedding and reranking providers: neutral names for in-process, local server and hosted API. */
export type ModelProvider = 'local' | 'local_server' | 'hosted_api';

/** `database` section. */
export interface DatabaseSettings {
  /** Storage location (data directory). */
  path: string;
  default_database: string;
  /** Built-in alias of the default database (`neo4j`); empty: none. */
  home_alias: string;
  max_connections: number;
  /** Milliseconds. */
  connection_timeout: number;
  storage_serializer: 'gob' | 'msgpack';
  mvcc_retention_max_versions: number;
  /** Milliseconds; 0 = no TTL protection. */
  mvcc_retention_ttl: number;
  persist_search_indexes: boolean;
  /** Default transaction timeout in ms (Neo4j's `db.transaction.timeout`); 0 = none. */
  transaction_timeout: number;
  /** Milliseconds a transaction waits for an entity lock (Neo4j's `db.lock.acquisition.timeout`); 0 = no limit. */
  lock_acquisition_timeout: number;
  /** Bytes an explicit transaction's write set may hold before its statement fails (MemoryPoolOutOfMemoryError). */
  transaction_max_write_set: number;
}

/** Native HTTPS listener (`server.https`). */
export interface HttpsSettings {
  enabled: boolean;
  port: number;
  cert_file: string;
  key_file: string;
}

/** `server` section: listeners and HTTP request limits. */
export interface ServerSettings {
  bolt_enabled: boolean;
  bolt_port: number;
  bolt_address: string;
  bolt_tls_enabled: boolean;
  /** Refuse plaintext Bolt connections. */
  bolt_tls_require: boolean;
  bolt_tls_cert: string;
  bolt_tls_key: string;
  bolt_require_auth: boolean;
  bolt_allow_anonymous: boolean;
  http_enabled: boolean;
  http_port: number;
  http_address: string;
  /** Serve the HTTP listener itself over TLS (same certificate settings as `https`). */
  http_tls_enabled: boolean;
  /** URL prefix of every HTTP route, e.g. `/graph`; empty for none. */
  base_path: string;
  /** IP addresses or CIDR ranges whose X-Forwarded-* / X-Real-IP headers are honoured. */
  trusted_proxies: string[];
  /** Maximum request body in bytes. */
  body_limit: number;
  /** Milliseconds a statement may run on the HTTP endpoint; 0 = no limit. */
  statement_timeout: number;
  /** Milliseconds an explicit HTTP transaction may stay idle before it is rolled back. */
  transaction_idle_timeout: number;
  https: HttpsSettings;
  /** `server.directories.import`: root of `file:` URLs; empty = `<database.path>/import`. */
  directories: { import: string };
  /** Per-client resource limits of every listener (see docs/security.md). */
  limits: ClientLimits;
}

/** `server.limits`: what one client may hold; sizes in bytes, durations in milliseconds. */
export interface ClientLimits {
  /** Open connections from one IP address, per listener; 0 = unlimited. */
  max_connections_per_ip: number;
  /** A Bolt connection without a byte in either direction for this long is closed; 0 = never. */
  idle_timeout: number;
  /** A client that does not read a response for this long is disconnected (HTTP, Bolt, WebSocket). */
  write_timeout: number;
  /** Time an HTTP client has to send the request headers (slow-header clients). */
  headers_timeout: number;
  /** Time an HTTP client has to send the whole request. */
  request_timeout: number;
  /** Largest HTTP transaction API response; 0 = unlimited. */
  http_max_result_bytes: number;
  /** Bytes a Bolt client may have buffered before it has authenticated. */
  bolt_unauthenticated_max_bytes: number;
  /** Bytes of received, not yet processed Bolt requests; reading pauses above it. */
  bolt_max_inbound_bytes: number;
}

/**
 * `dbms` section: Neo4j-named security settings of file and URL access (see docs/security.md).
 */
export interface DbmsSettings {
  security: {
    /** `file:` URLs may be read by LOAD CSV and procedures. */
    allow_csv_import_from_file_urls: boolean;
    /** HTTP(S) URL prefixes LOAD CSV and procedures may fetch; empty = none. */
    load_url_allowlist: string[];
  };
  /** Longest CSV record in bytes. */
  import: { csv: { buffer_size: number } };
  /** Bytes all running transactions may hold together (0: half of the V8 heap limit). */
  memory: { transaction: { total: { max: number } } };
}

/** `db` section: Neo4j-named per-database limits. */
export interface DbSettings {
  /** Bytes one transaction may hold (0: a quarter of the V8 heap limit). */
  memory: { transaction: { max: number } };
}

/** Client-certificate policy of the vector-API gRPC listener. */
export type GrpcClientAuthMode = 'none' | 'request' | 'request_verify' | 'require_verify';

/** `vectorapi` section: the Qdrant-compatible gRPC listener (docs/vectorapi.md). */
export interface VectorApiSettings {
  grpc_enabled: boolean;
  /** `host:port`, `:port` (every interface) or `[v6]:port`. */
  grpc_listen_addr: string;
  grpc_tls_enabled: boolean;
  grpc_tls_cert: string;
  grpc_tls_key: string;
  /** CA bundle client certificates are verified against (mutual TLS). */
  grpc_tls_client_ca: string;
  grpc_tls_client_auth_mode: GrpcClientAuthMode;
  /** Database holding the collections; empty = the default database. */
  database: string;
}

/** `auth` section. */
export interface AuthSettings {
  /** False with `--no-auth` / `GRAPHDB_NO_AUTH=true`. */
  enabled: boolean;
  /** Initial credentials `user:secret` (`GRAPHDB_AUTH`). Secret. */
  initial_credentials: string;
  /** JWT signing secret, at least 32 bytes when set. Secret. */
  jwt_secret: string;
  /** OpenID Connect issuer URL (discovery at `/.well-known/openid-configuration`); empty disables OAuth. */
  oauth_issuer: string;
  oauth_client_id: string;
  /** Secret. Empty for a public client (PKCE only). */
  oauth_client_secret: string;
  /** The callback URL registered at the provider (`.../auth/oauth/callback`). */
  oauth_redirect_uri: string;
  /** Space-separated scopes (default `openid profile email`). */
  oauth_scopes: string;
  /** Role given to a user provisioned by an OAuth login (default `viewer`). */
  oauth_default_role: string;
  /** Failed logins of one user from one source address, within the window, that lock that pair (default 5). */
  max_failed_attempts: number;
  /** First lock time of a (user, source) pair in milliseconds, doubled per further lock (default 5 s). */
  lock_time: number;
  /** Window failed logins are counted in, in milliseconds (default 15 minutes). */
  failed_attempts_window: number;
  /** Longest accepted token lifetime in milliseconds, also for tokens minted without `exp` (default 90 days). */
  token_max_lifetime: number;
  /** Opt-in: cluster tokens minted without an expiry never expire (the spec's behaviour); default false. */
  cluster_tokens_never_expire: boolean;
  /** Shortest password a new or changed password may have (Neo4j's dbms.security.auth_minimum_password_length; default 8). */
  password_min_length: number;
}

/** `cors` section. */
export interface CorsSettings {
  enabled: boolean;
  /** Exact origins (`https://app.example.com`); `*` is refused on public listeners with auth on. */
  origins: string[];
}

/** `logging` section. */
export interface LoggingSettings {
  level: LogLevel;
}

/** `async_writes` section (write-behind engine of the transactional endpoint). */
export interface AsyncWriteSettings {
  enabled: boolean;
  /** Milliseconds between flushes. */
  flush_interval: number;
  /** Pending created nodes before a forced flush; 0 = unlimited. */
  max_node_cache_size: number;
  /** Pending created relationships before a forced flush; 0 = unlimited. */
  max_edge_cache_size: number;
}

/** `embeddings` section. */
export interface EmbeddingSettings {
  enabled: boolean;
  provider: ModelProvider;
  model: string;
  dimensions: number;
  api_url: string;
  url: string;
  /** Secret. */
  api_key: string;
}

/** `embedding_worker` section. */
export interface EmbeddingWorkerSettings {
  properties_include: string[];
  properties_exclude: string[];
  include_labels: boolean;
}

/** `search` section. */
export interface SearchSettings {
  min_similarity: number;
  bm25_engine: 'v1' | 'v2';
  hnsw_lexical_seed_max_terms: number;
  hnsw_lexical_seed_per_term: number;
  /** Seconds. */
  index_persist_delay_sec: number;
  log_timings: boolean;
  diag_timings: boolean;
}

/** `vector` section: vector index strategy and ANN tuning. */
export interface VectorSettings {
  gpu_brute_min_n: number;
  gpu_brute_max_n: number;
  ivf_hnsw_enabled: boolean;
  ivf_hnsw_min_cluster_size: number;
  ivf_hnsw_max_clusters: number;
  routing_mode: 'hybrid' | 'semantic';
  hybrid_routing_w_sem: number;
  hybrid_routing_w_lex: number;
  hybrid_routing_lex_top_terms: number;
  /** 0 = automatic (sqrt(n/2) clamped to 10..8192). */
  kmeans_num_clusters: number;
  kmeans_max_iterations: number;
  kmeans_seed_max_terms: number;
  kmeans_seed_docs_per_term: number;
  ann_quality: 'fast' | 'balanced' | 'accurate' | 'compressed';
  /** 0 = from the quality preset. */
  hnsw_m: number;
  hnsw_ef_construction: number;
  hnsw_ef_search: number;
  pq_segments: number;
  pq_bits: number;
  ivfpq_nprobe: number;
  ivfpq_rerank_topk: number;
  ivfpq_training_sample_max: number;
  hnsw_metal_min_candidates: number;
  hnsw_maint_interval_ms: number;
  hnsw_min_rebuild_interval_sec: number;
  hnsw_tombstone_rebuild_ratio: number;
  hnsw_max_tombstone_overhead_factor: number;
  hnsw_rebuild_enabled: boolean;
}

/** `search_rerank` section (stage-2 reranking). */
export interface RerankSettings {
  enabled: boolean;
  provider: ModelProvider | 'http';
  model: string;
  api_url: string;
  /** Secret. */
  api_key: string;
}

/** `assistant` section. */
export interface AssistantSettings {
  enabled: boolean;
  provider: ModelProvider;
  api_url: string;
  /** Secret. */
  api_key: string;
  model: string;
  mcp_enable: boolean;
  mcp_tools: string[];
  /** Most tool-calling rounds of the agentic loop before a final answer without tools. */
  max_rounds: number;
  /** Characters one tool result may put into the model context; longer results are truncated. */
  max_tool_result_chars: number;
  /** Default `max_tokens` of an answer when the request gives none. */
  max_tokens: number;
  /** Context window of the local model in tokens (capped by the model's training context). */
  context_size: number;
  /** Inference threads of the local model; 0 = node-llama-cpp's default. */
  threads: number;
  /** Milliseconds one model call may take; 0 = no limit. */
  timeout: number;
}

/** `memory_decay` section (docs/ai-memory.md): scores of `:Memory` nodes and their archival. */
export interface MemoryDecaySettings {
  /** Recalculate (and archive) on the interval; weight search ranking by decay. */
  enabled: boolean;
  /** Milliseconds between recalculations. */
  recalculate_interval: number;
  /** Daily decay rate of memories without a profile label (half-life ln 2 / -ln(1 - rate) days). */
  decay_rate: number;
  /** `label=duration` half-life profiles (`episodic=7d`); a duration of 0 never decays. */
  half_lives: string[];
  /** Memories scoring below this are archived (labelled `Archived`, kept out of search). */
  archive_threshold: number;
  recency_weight: number;
  frequency_weight: number;
  importance_weight: number;
  /** Share of the decay score in `discover` ranking (0 = search score only). */
  search_weight: number;
}

/** `cluster` section: replication on NATS JetStream (docs/replication.md); no NATS URL = single node. */
export interface ClusterSettings {
  /** NATS URLs of this member's NATS server(s); empty: not replicated. */
  nats_url: string[];
  name: string;
  /** Empty: the advertised Bolt address. */
  node_id: string;
  /** `host:port` clients and members reach this member's Bolt/HTTP at; empty: the bound address. */
  advertised_bolt_address: string;
  advertised_http_address: string;
  replicas: number;
  /** Milliseconds. */
  lease_ttl: number;
  /** Milliseconds. */
  append_timeout: number;
  /** 0: unlimited. */
  max_log_entries: number;
  /** Milliseconds a Bolt routing table stays valid. */
  routing_ttl: number;
}

/** `mvcc` section (docs/mvcc-lifecycle.md): the MVCC lifecycle's reader policy, pressure and ceilings. */
export interface MvccSettings {
  /** Milliseconds a long snapshot (explicit or temporal transaction) may live before it is cancelled; 0 = none. */
  max_snapshot_lifetime: number;
  /** Milliseconds of sustained critical pressure before the oldest reader is hard-expired. */
  hard_expiry_after: number;
  /** Longest chain of closed versions per key, enforced against TTL and max-versions protection; 0 = none. */
  max_chain_hard_cap: number;
  /** Bytes of pinned history that enter the high band; 0 = max(5 GiB, 15 % of free space). */
  pressure_high_enter: number;
  /** Bytes of pinned history that enter the critical band; 0 = max(20 GiB, 35 % of free space). */
  pressure_critical_enter: number;
  /** New long snapshots admitted per second in the high band. */
  high_long_snapshot_rate: number;
  /** Keys one prune cycle of a database may serve; 0 = its share of the global budget. */
  budget_keys: number;
  /** Keys every database is guaranteed per prune cycle. */
  min_slice_keys: number;
  /** Best-effort share of one core a lifecycle cycle may use (0.01..1). */
  max_cpu_share: number;
  /** Bytes of history one cycle may read and delete; 0 = no limit. */
  max_io_bytes: number;
  /** Milliseconds one cycle may run. */
  max_cycle_runtime: number;
}

/** `wal` section. */
export interface WalSettings {
  snapshot_retention_max_count: number;
  /** Milliseconds; 0 = no age limit. */
  snapshot_retention_max_age: number;
}

/** `resources` section: process-wide knobs. */
export interface ResourceSettings {
  low_memory: boolean;
  tmp_dir: string;
  models_dir: string;
}

/** The whole configuration. */
export interface GraphdbConfig {
  database: DatabaseSettings;
  server: ServerSettings;
  dbms: DbmsSettings;
  db: DbSettings;
  vectorapi: VectorApiSettings;
  auth: AuthSettings;
  cors: CorsSettings;
  logging: LoggingSettings;
  async_writes: AsyncWriteSettings;
  embeddings: EmbeddingSettings;
  embedding_worker: EmbeddingWorkerSettings;
  search: SearchSettings;
  vector: VectorSettings;
  search_rerank: RerankSettings;
  assistant: AssistantSettings;
  memory_decay: MemoryDecaySettings;
  cluster: ClusterSettings;
  mvcc: MvccSettings;
  wal: WalSettings;
  resources: ResourceSettings;
}
