import { choice, decimal, flag, group, integer, list, rejected, text } from '../declare.js';

/** `embeddings` section. */
export const embeddings = group('embeddings', {
  enabled: flag(false, {
    env: 'GRAPHDB_EMBEDDING_ENABLED',
    help: 'Compute embeddings of nodes in the background.',
    proof: 'test/search-e2e/http-search.test.ts',
    perDatabase: true,
  }),
  provider: choice(['local', 'local_server', 'hosted_api'], 'local', {
    env: 'GRAPHDB_EMBEDDING_PROVIDER',
    help: 'Where embeddings are computed.',
    proof: 'test/search-e2e/http-search.test.ts',
    perDatabase: true,
  }),
  model: text('', {
    env: 'GRAPHDB_EMBEDDING_MODEL',
    help: 'Embedding model name.',
    proof: 'test/search-e2e/http-search.test.ts',
    perDatabase: true,
  }),
  dimensions: integer(0, {
    env: 'GRAPHDB_EMBEDDING_DIMENSIONS',
    min: 0,
    help: 'Dimensions of the embedding vectors.',
    proof: 'test/search-e2e/http-search.test.ts',
    perDatabase: true,
  }),
  api_url: text('', {
    env: 'GRAPHDB_EMBEDDING_API_URL',
    help: 'URL of the hosted embedding API.',
    proof: 'test/search/local-models.test.ts',
    perDatabase: true,
  }),
  url: text('', {
    env: 'GRAPHDB_EMBEDDING_URL',
    help: 'URL of the local embedding server.',
    proof: 'test/search-e2e/http-search.test.ts',
    perDatabase: true,
  }),
  api_key: text('', {
    env: 'GRAPHDB_EMBEDDING_API_KEY',
    help: 'API key of the embedding provider.',
    proof: 'test/config/per-database-search.test.ts',
    secret: true,
    perDatabase: true,
  }),
});

/** `embedding_worker` section. */
export const embeddingWorker = group('embeddings', {
  properties_include: list([], {
    env: 'GRAPHDB_EMBEDDING_PROPERTIES_INCLUDE',
    help: 'Property keys that are embedded (comma-separated; empty: all).',
    proof: 'test/config/per-database-search.test.ts',
    perDatabase: true,
  }),
  properties_exclude: list([], {
    env: 'GRAPHDB_EMBEDDING_PROPERTIES_EXCLUDE',
    help: 'Property keys that are never embedded, also when properties_include is set.',
    proof: 'test/config/per-database-search.test.ts',
    perDatabase: true,
  }),
  include_labels: flag(true, {
    env: 'GRAPHDB_EMBEDDING_INCLUDE_LABELS',
    help: 'Put the node labels into the embedded text.',
    proof: 'test/config/per-database-search.test.ts',
    perDatabase: true,
  }),
});

/** `search` section. */
export const search = group('search', {
  min_similarity: decimal(0.5, {
    env: 'GRAPHDB_SEARCH_MIN_SIMILARITY',
    min: 0,
    max: 1,
    help: 'Minimum similarity of a vector search hit.',
    proof: 'test/config/per-database-search.test.ts',
    perDatabase: true,
  }),
  bm25_engine: choice(['v1', 'v2'], 'v2', {
    env: 'GRAPHDB_SEARCH_BM25_ENGINE',
    help: 'Full-text scoring engine version.',
    proof: 'test/config/config.test.ts',
    perDatabase: true,
  }),
  hnsw_lexical_seed_max_terms: rejected(
    { type: 'integer', min: 0 },
    {
      env: 'GRAPHDB_HNSW_LEXICAL_SEED_MAX_TERMS',
      help: 'Most lexical terms that seed the HNSW entry points.',
      why: 'the vector indexes (faiss HNSW/IVF) are not seeded from lexical terms; hybrid search fuses BM25 and vector results instead',
    },
  ),
  hnsw_lexical_seed_per_term: rejected(
    { type: 'integer', min: 0 },
    {
      env: 'GRAPHDB_HNSW_LEXICAL_SEED_PER_TERM',
      help: 'Documents per lexical term that seed the HNSW entry points.',
      why: 'the vector indexes (faiss HNSW/IVF) are not seeded from lexical terms; hybrid search fuses BM25 and vector results instead',
    },
  ),
  index_persist_delay_sec: integer(30, {
    env: 'GRAPHDB_SEARCH_INDEX_PERSIST_DELAY_SEC',
    min: 0,
    help: 'Delay before changed search indexes are written to disk.',
    proof: 'test/config/setting-effects.test.ts',
  }),
  log_timings: flag(false, {
    env: 'GRAPHDB_SEARCH_LOG_TIMINGS',
    help: 'Log the stage timings of every search (embedding, total).',
    proof: 'test/config/per-database-search.test.ts',
  }),
  diag_timings: flag(false, {
    env: 'GRAPHDB_SEARCH_DIAG_TIMINGS',
    help: 'Log the timing breakdown of the HTTP search handler (search, node loading, serialization).',
    proof: 'test/config/per-database-search.test.ts',
  }),
});

/** `vector` section. */
export const vector = group('search', {
  gpu_brute_min_n: rejected(
    { type: 'integer', min: 0 },
    {
      env: 'GRAPHDB_VECTOR_GPU_BRUTE_MIN_N',
      help: 'Fewest vectors for GPU brute-force search.',
      why: 'there is no GPU backend; exact search runs on the CPU below 5000 vectors',
    },
  ),
  gpu_brute_max_n: rejected(
    { type: 'integer', min: 0 },
    {
      env: 'GRAPHDB_VECTOR_GPU_BRUTE_MAX_N',
      help: 'Most vectors for GPU brute-force search.',
      why: 'there is no GPU backend; exact search runs on the CPU below 5000 vectors',
    },
  ),
  ivf_hnsw_enabled: flag(false, {
    env: 'GRAPHDB_VECTOR_IVF_HNSW_ENABLED',
    help: 'Use the cluster strategy (IVF over an HNSW coarse quantizer) for large collections.',
    proof: 'test/config/setting-effects.test.ts',
    perDatabase: true,
  }),
  ivf_hnsw_min_cluster_size: integer(200, {
    env: 'GRAPHDB_VECTOR_IVF_HNSW_MIN_CLUSTER_SIZE',
    min: 1,
    help: 'Fewest vectors per cluster of the cluster strategy (bounds the cluster count).',
    proof: 'test/config/setting-effects.test.ts',
    perDatabase: true,
  }),
  ivf_hnsw_max_clusters: integer(1024, {
    env: 'GRAPHDB_VECTOR_IVF_HNSW_MAX_CLUSTERS',
    min: 1,
    help: 'Most clusters of the cluster strategy.',
    proof: 'test/config/setting-effects.test.ts',
    perDatabase: true,
  }),
  routing_mode: rejected(
    { type: 'enum', values: ['hybrid', 'semantic'] },
    {
      env: 'GRAPHDB_VECTOR_ROUTING_MODE',
      help: 'How queries are routed to clusters: hybrid (semantic and lexical) or semantic.',
      why: 'the cluster strategy routes queries by centroid distance only (faiss IVF); hybrid lexical routing is not implemented',
    },
  ),
  hybrid_routing_w_sem: rejected(
    { type: 'number', min: 0, max: 1 },
    {
      env: 'GRAPHDB_VECTOR_HYBRID_ROUTING_W_SEM',
      help: 'Weight of semantic similarity in hybrid cluster routing.',
      why: 'the cluster strategy routes queries by centroid distance only (faiss IVF); hybrid lexical routing is not implemented',
    },
  ),
  hybrid_routing_w_lex: rejected(
    { type: 'number', min: 0, max: 1 },
    {
      env: 'GRAPHDB_VECTOR_HYBRID_ROUTING_W_LEX',
      help: 'Weight of lexical overlap in hybrid cluster routing.',
      why: 'the cluster strategy routes queries by centroid distance only (faiss IVF); hybrid lexical routing is not implemented',
    },
  ),
  hybrid_routing_lex_top_terms: rejected(
    { type: 'integer', min: 0 },
    {
      env: 'GRAPHDB_VECTOR_HYBRID_ROUTING_LEX_TOP_TERMS',
      help: 'Lexical terms per cluster used by hybrid routing.',
      why: 'the cluster strategy routes queries by centroid distance only (faiss IVF); hybrid lexical routing is not implemented',
    },
  ),
  kmeans_num_clusters: integer(0, {
    env: 'GRAPHDB_KMEANS_NUM_CLUSTERS',
    min: 0,
    help: 'Cluster count of the cluster strategy (0: sqrt(n/2) clamped to 10..8192).',
    proof: 'test/config/setting-effects.test.ts',
    perDatabase: true,
  }),
  kmeans_max_iterations: rejected(
    { type: 'integer', min: 0 },
    {
      env: 'GRAPHDB_KMEANS_MAX_ITERATIONS',
      help: 'Most k-means iterations when clusters are trained.',
      why: 'clusters are trained by faiss, whose k-means iteration count the faiss-node binding does not expose',
    },
  ),
  kmeans_seed_max_terms: rejected(
    { type: 'integer', min: 0 },
    {
      env: 'GRAPHDB_KMEANS_SEED_MAX_TERMS',
      help: 'Lexical terms that seed k-means centroids.',
      why: 'k-means centroids are initialised by faiss, not seeded from lexical terms',
    },
  ),
  kmeans_seed_docs_per_term: rejected(
    { type: 'integer', min: 0 },
    {
      env: 'GRAPHDB_KMEANS_SEED_DOCS_PER_TERM',
      help: 'Documents per term that seed k-means centroids.',
      why: 'k-means centroids are initialised by faiss, not seeded from lexical terms',
    },
  ),
  ann_quality: choice(['fast', 'balanced', 'accurate', 'compressed'], 'fast', {
    env: 'GRAPHDB_VECTOR_ANN_QUALITY',
    help: 'ANN preset: fast, balanced, accurate (HNSW) or compressed (IVF-PQ).',
    proof: 'test/config/setting-effects.test.ts',
    perDatabase: true,
  }),
  hnsw_m: integer(0, {
    env: 'GRAPHDB_VECTOR_HNSW_M',
    min: 0,
    help: 'HNSW links per node (0: from ann_quality).',
    proof: 'test/config/setting-effects.test.ts',
    perDatabase: true,
  }),
  hnsw_ef_construction: integer(0, {
    env: 'GRAPHDB_VECTOR_HNSW_EF_CONSTRUCTION',
    min: 0,
    help: 'HNSW candidate list size while building (0: from ann_quality).',
    proof: 'test/config/setting-effects.test.ts',
    perDatabase: true,
  }),
  hnsw_ef_search: integer(0, {
    env: 'GRAPHDB_VECTOR_HNSW_EF_SEARCH',
    min: 0,
    help: 'HNSW candidate list size while searching (0: from ann_quality).',
    proof: 'test/config/setting-effects.test.ts',
    perDatabase: true,
  }),
  pq_segments: integer(16, {
    env: 'GRAPHDB_VECTOR_PQ_SEGMENTS',
    min: 1,
    help: 'Product-quantization segments of the compressed (IVF-PQ) index.',
    proof: 'test/config/setting-effects.test.ts',
    perDatabase: true,
  }),
  pq_bits: integer(8, {
    env: 'GRAPHDB_VECTOR_PQ_BITS',
    min: 1,
    help: 'Bits per product-quantization code (clamped to 4..8).',
    proof: 'test/config/setting-effects.test.ts',
    perDatabase: true,
  }),
  ivfpq_nprobe: integer(16, {
    env: 'GRAPHDB_VECTOR_IVFPQ_NPROBE',
    min: 1,
    help: 'Clusters an IVF-PQ search visits.',
    proof: 'test/config/setting-effects.test.ts',
    perDatabase: true,
  }),
  ivfpq_rerank_topk: integer(200, {
    env: 'GRAPHDB_VECTOR_IVFPQ_RERANK_TOPK',
    min: 0,
    help: 'Candidates taken from IVF-PQ before exact re-scoring.',
    proof: 'test/config/setting-effects.test.ts',
    perDatabase: true,
  }),
  ivfpq_training_sample_max: integer(200_000, {
    env: 'GRAPHDB_VECTOR_IVFPQ_TRAINING_SAMPLE_MAX',
    min: 0,
    help: 'Most vectors sampled to train the IVF-PQ index.',
    proof: 'test/config/setting-effects.test.ts',
    perDatabase: true,
  }),
  hnsw_metal_min_candidates: rejected(
    { type: 'integer', min: 0 },
    {
      env: 'GRAPHDB_VECTOR_HNSW_METAL_MIN_CANDIDATES',
      help: 'Fewest candidates for Metal (GPU) HNSW scoring.',
      why: 'there is no Metal (GPU) backend',
    },
  ),
  hnsw_maint_interval_ms: integer(30_000, {
    env: 'GRAPHDB_HNSW_MAINT_INTERVAL_MS',
    min: 0,
    help: 'Milliseconds between checks whether an ANN index needs a rebuild.',
    proof: 'test/config/setting-effects.test.ts',
  }),
  hnsw_min_rebuild_interval_sec: integer(60, {
    env: 'GRAPHDB_HNSW_MIN_REBUILD_INTERVAL_SEC',
    min: 0,
    help: 'Shortest time between two rebuilds of one ANN index, in seconds.',
    proof: 'test/config/setting-effects.test.ts',
  }),
  hnsw_tombstone_rebuild_ratio: decimal(0.5, {
    env: 'GRAPHDB_HNSW_TOMBSTONE_REBUILD_RATIO',
    min: 0,
    help: 'Rebuild an ANN index when deleted entries reach this share of its entries.',
    proof: 'test/config/setting-effects.test.ts',
  }),
  hnsw_max_tombstone_overhead_factor: decimal(2, {
    env: 'GRAPHDB_HNSW_MAX_TOMBSTONE_OVERHEAD_FACTOR',
    min: 0,
    help: 'Rebuild an ANN index when its entries exceed the live vectors by this factor.',
    proof: 'test/config/setting-effects.test.ts',
  }),
  hnsw_rebuild_enabled: flag(true, {
    env: 'GRAPHDB_HNSW_REBUILD_ENABLED',
    help: 'Rebuild ANN indexes in the background when deletions accumulate.',
    proof: 'test/config/setting-effects.test.ts',
  }),
});

/** `search_rerank` section. */
export const searchRerank = group('search', {
  enabled: flag(false, {
    env: 'GRAPHDB_SEARCH_RERANK_ENABLED',
    help: 'Rerank search results with a cross-encoder.',
    proof: 'test/config/per-database-search.test.ts',
    perDatabase: true,
  }),
  provider: choice(['local', 'local_server', 'hosted_api', 'http'], 'local', {
    env: 'GRAPHDB_SEARCH_RERANK_PROVIDER',
    help: 'Where reranking runs.',
    proof: 'test/config/per-database-search.test.ts',
    perDatabase: true,
  }),
  model: text('', {
    env: 'GRAPHDB_SEARCH_RERANK_MODEL',
    help: 'Reranking model name.',
    proof: 'test/config/per-database-search.test.ts',
    perDatabase: true,
  }),
  api_url: text('', {
    env: 'GRAPHDB_SEARCH_RERANK_API_URL',
    help: 'URL of the reranking API.',
    proof: 'test/config/per-database-search.test.ts',
    perDatabase: true,
  }),
  api_key: text('', {
    env: 'GRAPHDB_SEARCH_RERANK_API_KEY',
    help: 'API key of the reranking provider.',
    proof: 'test/config/per-database-search.test.ts',
    secret: true,
    perDatabase: true,
  }),
});
