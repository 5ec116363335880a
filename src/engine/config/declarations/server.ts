import { choice, duration, flag, group, integer, list, port, size, text } from '../declare.js';

/** `server` section. */
export const server = group('server', {
  bolt_enabled: flag(true, { env: 'GRAPHDB_BOLT_ENABLED', help: 'Start the Bolt listener.', proof: 'test/serve/serve.test.ts' }),
  bolt_port: port(7687, { env: 'GRAPHDB_BOLT_PORT', help: 'Port of the Bolt listener.', proof: 'test/transactions/show-settings.test.ts' }),
  bolt_address: text('127.0.0.1', {
    env: 'GRAPHDB_BOLT_ADDRESS',
    help: 'Address the Bolt listener binds to.',
    proof: 'test/transactions/timeouts.test.ts',
  }),
  bolt_tls_enabled: flag(false, {
    env: 'GRAPHDB_BOLT_TLS_ENABLED',
    help: 'Offer TLS on the Bolt listener.',
    proof: 'test/config/setting-effects.test.ts',
  }),
  bolt_tls_require: flag(false, {
    env: 'GRAPHDB_BOLT_TLS_REQUIRE',
    help: 'Refuse plaintext Bolt connections.',
    proof: 'test/http/transport-policy.test.ts',
  }),
  bolt_tls_cert: text('', {
    env: 'GRAPHDB_BOLT_TLS_CERT',
    help: 'Certificate file of the Bolt listener.',
    proof: 'test/config/setting-effects.test.ts',
  }),
  bolt_tls_key: text('', {
    env: 'GRAPHDB_BOLT_TLS_KEY',
    help: 'Private key file of the Bolt listener.',
    proof: 'test/config/setting-effects.test.ts',
  }),
  bolt_require_auth: flag(true, {
    env: 'GRAPHDB_BOLT_REQUIRE_AUTH',
    help: 'Bolt clients must authenticate.',
    proof: 'test/auth/permission-matrix.test.ts',
  }),
  bolt_allow_anonymous: flag(false, {
    env: 'GRAPHDB_BOLT_ALLOW_ANONYMOUS',
    help: 'Accept Bolt clients without credentials.',
    proof: 'test/auth/permission-matrix.test.ts',
  }),
  http_enabled: flag(true, { env: 'GRAPHDB_HTTP_ENABLED', help: 'Start the HTTP listener.', proof: 'test/config/setting-effects.test.ts' }),
  http_port: port(7474, { env: 'GRAPHDB_HTTP_PORT', help: 'Port of the HTTP listener.', proof: 'test/config/config.test.ts' }),
  http_address: text('127.0.0.1', {
    env: 'GRAPHDB_ADDRESS',
    help: 'Address the HTTP listener binds to.',
    proof: 'test/config/config.test.ts',
  }),
  http_tls_enabled: flag(false, {
    env: 'GRAPHDB_HTTP_TLS_ENABLED',
    help: 'Serve the HTTP listener over TLS.',
    proof: 'test/config/setting-effects.test.ts',
  }),
  base_path: text('', { env: 'GRAPHDB_BASE_PATH', help: 'URL prefix of every HTTP route.', proof: 'test/config/config.test.ts' }),
  trusted_proxies: list([], {
    env: 'GRAPHDB_HTTP_TRUSTED_PROXIES',
    help: 'Proxies whose X-Forwarded-* headers are trusted.',
    proof: 'test/config/config.test.ts',
  }),
  body_limit: size(16_777_216, {
    env: 'GRAPHDB_HTTP_BODY_LIMIT',
    help: 'Maximum HTTP request body size in bytes.',
    proof: 'test/http/tx-endpoint.test.ts',
  }),
  statement_timeout: duration(0, {
    env: 'GRAPHDB_STATEMENT_TIMEOUT',
    help: 'How long a statement may run on the HTTP endpoint (0: no limit).',
    proof: 'test/robustness/soak.test.ts',
  }),
  transaction_idle_timeout: duration(60_000, {
    env: 'GRAPHDB_TRANSACTION_IDLE_TIMEOUT',
    help: 'Idle time after which an open HTTP transaction is rolled back.',
    proof: 'test/transactions/show-settings.test.ts',
  }),
  read_workers: integer(0, {
    env: 'GRAPHDB_READ_WORKERS',
    help: 'Worker threads that run auto-commit reads on SQLite connections of their own (0: none).',
    proof: 'test/robustness/storage-stall.test.ts',
    min: 0,
    max: 64,
  }),
  https: {
    enabled: flag(false, { env: 'GRAPHDB_HTTPS_ENABLED', help: 'Start the native HTTPS listener.', proof: 'test/http/transport.test.ts' }),
    port: port(7473, { env: 'GRAPHDB_HTTPS_PORT', help: 'Port of the HTTPS listener.', proof: 'test/http/transport.test.ts' }),
    cert_file: text('', {
      env: 'GRAPHDB_HTTP_TLS_CERT',
      help: 'Certificate file of the HTTPS listener.',
      proof: 'test/config/config.test.ts',
    }),
    key_file: text('', {
      env: 'GRAPHDB_HTTP_TLS_KEY',
      help: 'Private key file of the HTTPS listener.',
      proof: 'test/http/transport.test.ts',
    }),
  },
  directories: {
    import: text('', {
      env: 'GRAPHDB_IMPORT_DIR',
      help: 'Root directory of file: URLs in LOAD CSV and procedures (empty: <database.path>/import).',
      proof: 'test/security/file-settings.test.ts',
    }),
  },
  limits: {
    max_connections_per_ip: integer(256, {
      env: 'GRAPHDB_MAX_CONNECTIONS_PER_IP',
      min: 0,
      help: 'Open connections from one IP address, per listener (0: unlimited).',
      proof: 'test/security/client-limits.test.ts',
    }),
    idle_timeout: duration(600_000, {
      env: 'GRAPHDB_IDLE_TIMEOUT',
      help: 'A Bolt connection idle this long is closed (0: never).',
      proof: 'test/security/client-limits.test.ts',
    }),
    write_timeout: duration(30_000, {
      env: 'GRAPHDB_WRITE_TIMEOUT',
      help: 'A client that does not read a response for this long is disconnected.',
      proof: 'test/security/abusive-clients.test.ts',
    }),
    headers_timeout: duration(10_000, {
      env: 'GRAPHDB_HEADERS_TIMEOUT',
      help: 'Time an HTTP client has to send its request headers.',
      proof: 'test/security/client-limits.test.ts',
    }),
    request_timeout: duration(60_000, {
      env: 'GRAPHDB_REQUEST_TIMEOUT',
      help: 'Time an HTTP client has to send its whole request.',
      proof: 'test/config/auth-setting-effects.test.ts',
    }),
    http_max_result_bytes: size(536_870_912, {
      env: 'GRAPHDB_HTTP_MAX_RESULT_BYTES',
      help: 'Largest HTTP transaction API response in bytes (0: unlimited).',
      proof: 'test/security/client-limits.test.ts',
    }),
    bolt_unauthenticated_max_bytes: size(65_536, {
      env: 'GRAPHDB_BOLT_UNAUTHENTICATED_MAX_BYTES',
      help: 'Bytes a Bolt client may send before it has authenticated.',
      proof: 'test/security/client-limits.test.ts',
    }),
    bolt_max_inbound_bytes: size(16_777_216, {
      env: 'GRAPHDB_BOLT_MAX_INBOUND_BYTES',
      help: 'Bytes of unprocessed Bolt requests before reading pauses.',
      proof: 'test/security/client-limits.test.ts',
    }),
  },
});

/** `vectorapi` section. */
export const vectorapi = group('server', {
  grpc_enabled: flag(false, {
    env: 'GRAPHDB_VECTORAPI_GRPC_ENABLED',
    help: 'Start the vector-API (Qdrant-compatible) gRPC listener.',
    proof: 'test/vectorapi/auth.test.ts',
  }),
  grpc_listen_addr: text('127.0.0.1:6334', {
    env: 'GRAPHDB_VECTORAPI_GRPC_LISTEN_ADDR',
    help: 'Address of the gRPC listener: host:port, :port (every interface) or [v6]:port.',
    proof: 'test/vectorapi/auth.test.ts',
  }),
  grpc_tls_enabled: flag(false, {
    env: 'GRAPHDB_VECTORAPI_GRPC_TLS_ENABLED',
    help: 'Serve the gRPC listener over TLS.',
    proof: 'test/vectorapi/auth.test.ts',
  }),
  grpc_tls_cert: text('', {
    env: 'GRAPHDB_VECTORAPI_GRPC_TLS_CERT',
    help: 'Certificate file of the gRPC listener.',
    proof: 'test/vectorapi/auth.test.ts',
  }),
  grpc_tls_key: text('', {
    env: 'GRAPHDB_VECTORAPI_GRPC_TLS_KEY',
    help: 'Private key file of the gRPC listener.',
    proof: 'test/vectorapi/auth.test.ts',
  }),
  grpc_tls_client_ca: text('', {
    env: 'GRAPHDB_VECTORAPI_GRPC_TLS_CLIENT_CA',
    help: 'CA bundle client certificates of the gRPC listener are verified against (mutual TLS).',
    proof: 'test/config/auth-setting-effects.test.ts',
  }),
  grpc_tls_client_auth_mode: choice(['none', 'request', 'request_verify', 'require_verify'], 'none', {
    env: 'GRAPHDB_VECTORAPI_GRPC_TLS_CLIENT_AUTH_MODE',
    help: 'Client-certificate policy of the gRPC listener.',
    proof: 'test/vectorapi/auth.test.ts',
  }),
  database: text('', {
    env: 'GRAPHDB_VECTORAPI_DATABASE',
    help: 'Database holding the vector-API collections (empty: the default database).',
    proof: 'test/vectorapi/auth.test.ts',
  }),
});

/** `cors` section. */
export const cors = group('server', {
  enabled: flag(false, { env: 'GRAPHDB_CORS_ENABLED', help: 'Answer cross-origin HTTP requests.', proof: 'test/http/transport.test.ts' }),
  origins: list([], {
    env: 'GRAPHDB_CORS_ORIGINS',
    help: 'Origins allowed to make cross-origin requests.',
    proof: 'test/http/transport.test.ts',
  }),
});
