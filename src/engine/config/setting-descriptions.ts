/**
 * One-line descriptions of the settings (the `description` column of SHOW SETTINGS). A setting
 * added to the table without a description here gets one built from its category and kind.
 */
import type { SettingSpec } from './settings.js';

const DESCRIPTIONS: Readonly<Record<string, string>> = {
  'database.path': 'Data directory holding the database files.',
  'database.default_database': 'Name of the database sessions use when none is given.',
  'database.home_alias': 'Built-in alias of the default database (neo4j), seeded once per data directory; empty for none.',
  'database.max_connections': 'Maximum number of concurrent client connections.',
  'database.connection_timeout': 'How long an idle client connection is kept open.',
  'database.storage_serializer': 'Serializer of stored property records.',
  'database.mvcc_retention_max_versions': 'How many old versions of an entity history pruning keeps.',
  'database.mvcc_retention_ttl': 'Minimum age of a version before history pruning may remove it (0: no protection).',
  'database.persist_search_indexes': 'Persist search indexes to disk instead of rebuilding them at startup.',
  'database.transaction_timeout': "Default timeout of a transaction (Neo4j's db.transaction.timeout; 0: none). A driver's per-transaction timeout overrides it.",
  'server.bolt_enabled': 'Start the Bolt listener.',
  'server.bolt_port': 'Port of the Bolt listener.',
  'server.bolt_address': 'Address the Bolt listener binds to.',
  'server.bolt_tls_enabled': 'Offer TLS on the Bolt listener.',
  'server.bolt_tls_require': 'Refuse plaintext Bolt connections.',
  'server.bolt_tls_cert': 'Certificate file of the Bolt listener.',
  'server.bolt_tls_key': 'Private key file of the Bolt listener.',
  'server.bolt_require_auth': 'Bolt clients must authenticate.',
  'server.bolt_allow_anonymous': 'Accept Bolt clients without credentials.',
  'server.http_enabled': 'Start the HTTP listener.',
  'server.http_port': 'Port of the HTTP listener.',
  'server.http_address': 'Address the HTTP listener binds to.',
  'server.http_tls_enabled': 'Serve the HTTP listener over TLS.',
  'server.base_path': 'URL prefix of every HTTP route.',
  'server.trusted_proxies': 'Proxies whose X-Forwarded-* headers are trusted.',
  'server.body_limit': 'Maximum HTTP request body size in bytes.',
  'server.statement_timeout': 'How long a statement may run on the HTTP endpoint (0: no limit).',
  'server.transaction_idle_timeout': 'Idle time after which an open HTTP transaction is rolled back.',
  'server.https.enabled': 'Start the native HTTPS listener.',
  'server.https.port': 'Port of the HTTPS listener.',
  'server.https.cert_file': 'Certificate file of the HTTPS listener.',
  'server.https.key_file': 'Private key file of the HTTPS listener.',
  'server.directories.import': 'Root directory of file: URLs in LOAD CSV and procedures (empty: <database.path>/import).',
  'dbms.security.allow_csv_import_from_file_urls': 'Allow file: URLs in LOAD CSV and procedures.',
  'dbms.security.load_url_allowlist': 'HTTP(S) URL prefixes LOAD CSV and procedures may fetch (empty: none).',
  'dbms.import.csv.buffer_size': 'Longest CSV record LOAD CSV reads, in bytes.',
  'auth.enabled': 'Require authentication on every listener.',
  'auth.initial_credentials': 'user:password of the admin created at first start.',
  'auth.jwt_secret': 'Secret that signs session tokens.',
  'auth.oauth_issuer': 'OAuth/OIDC issuer URL.',
  'auth.oauth_client_id': 'OAuth client id.',
  'auth.oauth_client_secret': 'OAuth client secret.',
  'auth.oauth_redirect_uri': 'OAuth redirect URI.',
  'auth.oauth_scopes': 'OAuth scopes requested at login.',
  'auth.oauth_default_role': 'Role given to users who log in through OAuth.',
  'cors.enabled': 'Answer cross-origin HTTP requests.',
  'cors.origins': 'Origins allowed to make cross-origin requests.',
  'logging.level': 'Minimum level of log messages.',
  'async_writes.enabled': 'Acknowledge simple HTTP writes before they are durable (write-behind).',
  'async_writes.flush_interval': 'How often queued write-behind statements are flushed.',
  'async_writes.max_node_cache_size': 'Maximum queued node writes before a flush.',
  'async_writes.max_edge_cache_size': 'Maximum queued relationship writes before a flush.',
  'embeddings.enabled': 'Compute embeddings of nodes in the background.',
  'embeddings.provider': 'Where embeddings are computed.',
  'embeddings.model': 'Embedding model name.',
  'embeddings.dimensions': 'Dimensions of the embedding vectors.',
  'embeddings.api_url': 'URL of the hosted embedding API.',
  'embeddings.url': 'URL of the local embedding server.',
  'embeddings.api_key': 'API key of the embedding provider.',
  'search.min_similarity': 'Minimum similarity of a vector search hit.',
  'search.bm25_engine': 'Full-text scoring engine version.',
  'search.index_persist_delay_sec': 'Delay before changed search indexes are written to disk.',
  'search_rerank.enabled': 'Rerank search results with a cross-encoder.',
  'search_rerank.provider': 'Where reranking runs.',
  'search_rerank.model': 'Reranking model name.',
  'search_rerank.api_url': 'URL of the reranking API.',
  'search_rerank.api_key': 'API key of the reranking provider.',
  'assistant.enabled': 'Enable the AI assistant.',
  'assistant.provider': 'Where the assistant model runs.',
  'assistant.api_url': 'URL of the assistant model API.',
  'assistant.api_key': 'API key of the assistant model provider.',
  'assistant.model': 'Assistant model name.',
  'memory_decay.enabled': 'Recalculate memory decay scores on the interval, archive faded memories and weight search by decay.',
  'memory_decay.recalculate_interval': 'How often memory decay scores are recalculated.',
  'memory_decay.decay_rate': 'Daily decay rate of memories without a half-life profile.',
  'memory_decay.half_lives': 'Half-life profiles per label, as label=duration (0: never decays).',
  'memory_decay.archive_threshold': 'Decay score below which a memory is archived.',
  'memory_decay.search_weight': 'Share of the decay score in memory search ranking.',
  'wal.snapshot_retention_max_count': 'How many snapshots are kept.',
  'wal.snapshot_retention_max_age': 'How long snapshots are kept.',
  'resources.low_memory': 'Trade speed for a smaller memory footprint.',
  'resources.tmp_dir': 'Directory for temporary files.',
  'resources.models_dir': 'Directory of local model files.',
};

function words(path: string): string {
  return path.replace(/[._]/g, ' ');
}

/** The description of a setting. */
export function settingDescription(spec: SettingSpec): string {
  const known = DESCRIPTIONS[spec.path];
  if (known !== undefined) return known;
  const kind = spec.kind.type === 'boolean' ? 'Switch' : 'Setting';
  return `${kind} of the ${spec.category} component: ${words(spec.path)}.`;
}
