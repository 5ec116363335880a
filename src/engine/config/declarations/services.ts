import { choice, decimal, duration, flag, group, integer, list, rejected, text } from '../declare.js';

/** `logging` section. */
export const logging = group('logging', {
  level: choice(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'], 'info', {
    env: 'GRAPHDB_LOG_LEVEL',
    help: 'Minimum level of log messages.',
    proof: 'test/config/config.test.ts',
  }),
});

/** `async_writes` section. */
export const asyncWrites = group('async_writes', {
  enabled: flag(true, {
    env: 'GRAPHDB_ASYNC_WRITES_ENABLED',
    help: 'Acknowledge simple HTTP writes before they are durable (write-behind).',
    proof: 'test/config/config.test.ts',
    perDatabase: true,
  }),
  flush_interval: duration(50, {
    env: 'GRAPHDB_ASYNC_FLUSH_INTERVAL',
    help: 'How often queued write-behind statements are flushed.',
    proof: 'test/config/config.test.ts',
    perDatabase: true,
  }),
  max_node_cache_size: integer(50_000, {
    env: 'GRAPHDB_ASYNC_MAX_NODE_CACHE_SIZE',
    min: 0,
    help: 'Maximum queued node writes before a flush.',
    proof: 'test/config/config.test.ts',
    perDatabase: true,
  }),
  max_edge_cache_size: integer(100_000, {
    env: 'GRAPHDB_ASYNC_MAX_EDGE_CACHE_SIZE',
    min: 0,
    help: 'Maximum queued relationship writes before a flush.',
    proof: 'test/config/config.test.ts',
    perDatabase: true,
  }),
  status_capacity: integer(10_000, {
    env: 'GRAPHDB_ASYNC_STATUS_CAPACITY',
    min: 1,
    help: 'How many outcomes of asynchronous writes are kept for polling (GET /db/{db}/tx/writes/{id}); the oldest is evicted first.',
    proof: 'test/http/async-write-status.test.ts',
  }),
});

/** `assistant` section. */
export const assistant = group('assistant', {
  enabled: flag(false, { env: 'GRAPHDB_ASSISTANT_ENABLED', help: 'Enable the AI assistant.', proof: 'test/assistant/errors.test.ts' }),
  provider: choice(['local', 'local_server', 'hosted_api'], 'local', {
    env: 'GRAPHDB_ASSISTANT_PROVIDER',
    help: 'Where the assistant model runs.',
    proof: 'test/assistant/settings.test.ts',
  }),
  api_url: text('', {
    env: 'GRAPHDB_ASSISTANT_API_URL',
    help: 'URL of the assistant model API.',
    proof: 'test/search/local-models.test.ts',
  }),
  api_key: text('', {
    env: 'GRAPHDB_ASSISTANT_API_KEY',
    help: 'API key of the assistant model provider.',
    proof: 'test/assistant/errors.test.ts',
    secret: true,
  }),
  model: text('', { env: 'GRAPHDB_ASSISTANT_MODEL', help: 'Assistant model name.', proof: 'test/assistant/settings.test.ts' }),
  mcp_enable: flag(false, {
    env: 'GRAPHDB_ASSISTANT_MCP_ENABLE',
    help: 'Let the assistant call the MCP tools.',
    proof: 'test/assistant/settings.test.ts',
  }),
  mcp_tools: list([], {
    env: 'GRAPHDB_ASSISTANT_MCP_TOOLS',
    help: 'MCP tools the assistant may call (empty: all).',
    proof: 'test/assistant/settings.test.ts',
  }),
  max_rounds: integer(8, {
    env: 'GRAPHDB_ASSISTANT_MAX_ROUNDS',
    min: 1,
    max: 64,
    help: 'Most tool-calling rounds of the assistant before a final answer without tools.',
    proof: 'test/assistant/settings.test.ts',
  }),
  max_tool_result_chars: integer(4000, {
    env: 'GRAPHDB_ASSISTANT_MAX_TOOL_RESULT_CHARS',
    min: 100,
    help: 'Characters one tool result may put into the model context; longer results are truncated.',
    proof: 'test/assistant/settings.test.ts',
  }),
  max_tokens: integer(1024, {
    env: 'GRAPHDB_ASSISTANT_MAX_TOKENS',
    min: 1,
    help: 'Default max_tokens of an assistant answer when the request gives none.',
    proof: 'test/assistant/errors.test.ts',
  }),
  context_size: integer(4096, {
    env: 'GRAPHDB_ASSISTANT_CONTEXT_SIZE',
    min: 128,
    help: 'Context window of the local assistant model in tokens (capped by its training context).',
    proof: 'test/assistant/local-provider.test.ts',
  }),
  threads: integer(1, {
    env: 'GRAPHDB_ASSISTANT_THREADS',
    min: 0,
    max: 256,
    help: 'Inference threads of the local assistant model (0: the runtime default).',
    proof: 'test/assistant/local-provider.test.ts',
  }),
  timeout: duration(120_000, {
    env: 'GRAPHDB_ASSISTANT_TIMEOUT',
    help: 'How long one assistant model call may take (0: no limit).',
    proof: 'test/assistant/settings.test.ts',
  }),
});

/** `memory_decay` section. */
export const memoryDecay = group('memory_decay', {
  enabled: flag(false, {
    env: 'GRAPHDB_MEMORY_DECAY_ENABLED',
    help: 'Recalculate memory decay scores on the interval, archive faded memories and weight search by decay.',
    proof: 'test/mcp/decay.test.ts',
  }),
  recalculate_interval: duration(3_600_000, {
    env: 'GRAPHDB_MEMORY_DECAY_RECALCULATE_INTERVAL',
    help: 'How often memory decay scores are recalculated.',
    proof: 'test/mcp/decay.test.ts',
  }),
  decay_rate: decimal(0.1, {
    env: 'GRAPHDB_MEMORY_DECAY_RATE',
    min: 0,
    max: 0.999,
    help: 'Daily decay rate of memories without a half-life profile.',
    proof: 'test/mcp/decay.test.ts',
  }),
  half_lives: list(['episodic=7d', 'semantic=69d', 'procedural=693d'], {
    env: 'GRAPHDB_MEMORY_DECAY_HALF_LIVES',
    help: 'Half-life profiles per label, as label=duration (0: never decays).',
    proof: 'test/mcp/decay.test.ts',
  }),
  archive_threshold: decimal(0.05, {
    env: 'GRAPHDB_MEMORY_DECAY_ARCHIVE_THRESHOLD',
    min: 0,
    max: 1,
    help: 'Decay score below which a memory is archived.',
    proof: 'test/mcp/decay.test.ts',
  }),
  recency_weight: decimal(0.6, {
    env: 'GRAPHDB_MEMORY_DECAY_RECENCY_WEIGHT',
    min: 0,
    max: 1,
    help: 'Weight of recency in a memory decay score.',
    proof: 'test/mcp/decay.test.ts',
  }),
  frequency_weight: decimal(0.2, {
    env: 'GRAPHDB_MEMORY_DECAY_FREQUENCY_WEIGHT',
    min: 0,
    max: 1,
    help: 'Weight of access frequency in a memory decay score.',
    proof: 'test/mcp/decay.test.ts',
  }),
  importance_weight: decimal(0.2, {
    env: 'GRAPHDB_MEMORY_DECAY_IMPORTANCE_WEIGHT',
    min: 0,
    max: 1,
    help: 'Weight of importance in a memory decay score.',
    proof: 'test/mcp/decay.test.ts',
  }),
  search_weight: decimal(0.3, {
    env: 'GRAPHDB_MEMORY_DECAY_SEARCH_WEIGHT',
    min: 0,
    max: 1,
    help: 'Share of the decay score in memory search ranking.',
    proof: 'test/mcp/decay.test.ts',
  }),
});

/** `wal` section: compact JSON snapshots of every user database (docs/backup-format.md, "WAL snapshots"). */
export const wal = group('wal', {
  snapshot_interval: duration(0, {
    env: 'GRAPHDB_WAL_SNAPSHOT_INTERVAL',
    help: 'How often a snapshot of every user database is written to <data_dir>/snapshots (0: only on request, POST /admin/snapshots).',
    proof: 'test/admin/wal-snapshots.test.ts',
  }),
  snapshot_retention_max_count: integer(3, {
    env: 'GRAPHDB_WAL_SNAPSHOT_RETENTION_MAX_COUNT',
    min: 1,
    help: 'How many snapshots are kept per database (the oldest are deleted after each snapshot).',
    proof: 'test/admin/wal-snapshots.test.ts',
  }),
  snapshot_retention_max_age: duration(0, {
    env: 'GRAPHDB_WAL_SNAPSHOT_RETENTION_MAX_AGE',
    help: 'Snapshots older than this are deleted after each snapshot (0: no age limit).',
    proof: 'test/admin/wal-snapshots.test.ts',
  }),
});

/** `resources` section. */
export const resources = group('resources', {
  low_memory: flag(false, {
    env: 'GRAPHDB_LOW_MEMORY',
    help: 'Trade speed for a smaller memory footprint.',
    proof: 'test/config/setting-effects.test.ts',
  }),
  tmp_dir: rejected(
    { type: 'string' },
    {
      env: 'GRAPHDB_TMP_DIR',
      help: 'Directory for temporary files.',
      why: 'graphdb writes no temporary files of its own: staging (restore, WAL snapshots) happens inside the data directory so the final rename is atomic, and SQLite keeps its temporary tables in memory',
    },
  ),
  models_dir: text('./models', {
    env: 'GRAPHDB_MODELS_DIR',
    help: 'Directory of local model files.',
    proof: 'test/assistant/local-provider.test.ts',
  }),
});
