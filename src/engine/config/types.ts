/**
 * The typed configuration of a graphdb process, derived from the declarations (`declarations/`).
 * Key names are the YAML keys (snake_case), so `config.async_writes.flush_interval` is
 * `async_writes: { flush_interval: 50ms }` in the file. Durations are held in milliseconds, sizes
 * in bytes; 0 means "unlimited" or "none" where the setting's help says so. Settings startup
 * rejects have no value here.
 */
import type { ConfigOf } from './declare.js';
import type { DECLARATIONS } from './declarations/index.js';

/** The whole configuration. */
export type GraphdbConfig = ConfigOf<typeof DECLARATIONS>;

/** Log levels accepted by `logging.level` / `GRAPHDB_LOG_LEVEL` (pino's names). */
export type LogLevel = GraphdbConfig['logging']['level'];
/** Embedding providers: neutral names for in-process, local server and hosted API. */
export type ModelProvider = GraphdbConfig['embeddings']['provider'];
/** Client-certificate policy of the vector-API gRPC listener. */
export type GrpcClientAuthMode = GraphdbConfig['vectorapi']['grpc_tls_client_auth_mode'];

/** `database` section. */
export type DatabaseSettings = GraphdbConfig['database'];
/** `server` section: listeners and HTTP request limits. */
export type ServerSettings = GraphdbConfig['server'];
/** Native HTTPS listener (`server.https`). */
export type HttpsSettings = ServerSettings['https'];
/** `server.limits`: what one client may hold; sizes in bytes, durations in milliseconds. */
export type ClientLimits = ServerSettings['limits'];
/** `dbms` section: Neo4j-named security settings of file and URL access. */
export type DbmsSettings = GraphdbConfig['dbms'];
/** `db` section: Neo4j-named per-database limits. */
export type DbSettings = GraphdbConfig['db'];
/** `vectorapi` section: the Qdrant-compatible gRPC listener (docs/vectorapi.md). */
export type VectorApiSettings = GraphdbConfig['vectorapi'];
/** `auth` section. */
export type AuthSettings = GraphdbConfig['auth'];
/** `cors` section. */
export type CorsSettings = GraphdbConfig['cors'];
/** `logging` section. */
export type LoggingSettings = GraphdbConfig['logging'];
/** `async_writes` section (write-behind engine of the transactional endpoint). */
export type AsyncWriteSettings = GraphdbConfig['async_writes'];
/** `embeddings` section. */
export type EmbeddingSettings = GraphdbConfig['embeddings'];
/** `embedding_worker` section. */
export type EmbeddingWorkerSettings = GraphdbConfig['embedding_worker'];
/** `search` section. */
export type SearchSettings = GraphdbConfig['search'];
/** `vector` section: vector index strategy and ANN tuning. */
export type VectorSettings = GraphdbConfig['vector'];
/** `search_rerank` section (stage-2 reranking). */
export type RerankSettings = GraphdbConfig['search_rerank'];
/** `assistant` section. */
export type AssistantSettings = GraphdbConfig['assistant'];
/** `memory_decay` section (docs/ai-memory.md): scores of `:Memory` nodes and their archival. */
export type MemoryDecaySettings = GraphdbConfig['memory_decay'];
/** `cluster` section: replication on NATS JetStream (docs/replication.md); no NATS URL = single node. */
export type ClusterSettings = GraphdbConfig['cluster'];
/** `mvcc` section (docs/mvcc-lifecycle.md): the MVCC lifecycle's reader policy, pressure and ceilings. */
export type MvccSettings = GraphdbConfig['mvcc'];
/** `wal` section. */
export type WalSettings = GraphdbConfig['wal'];
/** `resources` section: process-wide knobs. */
export type ResourceSettings = GraphdbConfig['resources'];
