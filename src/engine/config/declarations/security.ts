import { duration, flag, group, integer, list, size, text } from '../declare.js';

/** `dbms` section. */
export const dbms = group('security', {
  security: {
    allow_csv_import_from_file_urls: flag(true, {
      env: 'GRAPHDB_ALLOW_FILE_URLS',
      help: 'Allow file: URLs in LOAD CSV and procedures.',
      proof: 'test/security/file-settings.test.ts',
    }),
    load_url_allowlist: list([], {
      env: 'GRAPHDB_LOAD_URL_ALLOWLIST',
      help: 'HTTP(S) URL prefixes LOAD CSV and procedures may fetch (empty: none).',
      proof: 'test/apoc/load.test.ts',
    }),
  },
  import: {
    csv: {
      buffer_size: size(2_097_152, {
        env: 'GRAPHDB_CSV_BUFFER_SIZE',
        help: 'Longest CSV record LOAD CSV reads, in bytes.',
        proof: 'test/security/file-access.test.ts',
      }),
    },
  },
  memory: {
    transaction: {
      total: {
        max: size(0, {
          env: 'GRAPHDB_MEMORY_TRANSACTION_TOTAL_MAX',
          help: 'Bytes all running transactions may hold together (0: half of the heap limit).',
          proof: 'test/robustness/soak.test.ts',
        }),
      },
    },
    query_cache: {
      max_size: size(67_108_864, {
        env: 'GRAPHDB_QUERY_CACHE_MAX_SIZE',
        help: 'Estimated heap bytes the Cypher query and plan cache may hold.',
        proof: 'test/robustness/cache-bytes.test.ts',
      }),
    },
    search_index: {
      max_size: size(0, {
        env: 'GRAPHDB_SEARCH_INDEX_MAX_SIZE',
        help: 'Estimated heap bytes the search indexes of all databases may hold together, automatic full-text and named FULLTEXT/VECTOR (0: half of the heap limit); an index that would pass it is released and answers an error naming this setting.',
        proof: 'test/search/index-budget.test.ts',
      }),
    },
    regex_cache: {
      max_size: size(16_777_216, {
        env: 'GRAPHDB_REGEX_CACHE_MAX_SIZE',
        help: 'Estimated bytes of compiled regular expressions kept for reuse.',
        proof: 'test/security/regex.test.ts',
      }),
    },
    auth_cache: {
      max_size: size(2_097_152, {
        env: 'GRAPHDB_AUTH_CACHE_MAX_SIZE',
        help: 'Estimated bytes of the cache of recently verified passwords.',
        proof: 'test/auth/auth-cache.test.ts',
      }),
    },
    graphql_cache: {
      max_size: size(67_108_864, {
        env: 'GRAPHDB_GRAPHQL_CACHE_MAX_SIZE',
        help: 'Estimated heap bytes the GraphQL document cache may hold.',
        proof: 'test/robustness/cache-bytes.test.ts',
      }),
    },
  },
});

/** `db` section. */
export const db = group('resources', {
  memory: {
    transaction: {
      max: size(0, {
        env: 'GRAPHDB_MEMORY_TRANSACTION_MAX',
        help: 'Bytes one transaction may hold (0: a quarter of the heap limit).',
        proof: 'test/config/setting-effects.test.ts',
      }),
    },
  },
});

/** `auth` section. */
export const auth = group('auth', {
  enabled: flag(true, {
    env: 'GRAPHDB_NO_AUTH',
    help: 'Require authentication on every listener.',
    proof: 'test/config/config.test.ts',
    envInverted: true,
  }),
  initial_credentials: text('', {
    env: 'GRAPHDB_AUTH',
    help: 'user:password of the admin created at first start.',
    proof: 'test/admin/backup.test.ts',
    secret: true,
  }),
  jwt_secret: text('', {
    env: 'GRAPHDB_JWT_SECRET',
    help: 'Secret that signs session tokens.',
    proof: 'test/transactions/show-settings.test.ts',
    secret: true,
  }),
  oauth_issuer: text('', { env: 'GRAPHDB_OAUTH_ISSUER', help: 'OAuth/OIDC issuer URL.', proof: 'test/auth/oauth.test.ts' }),
  oauth_client_id: text('', { env: 'GRAPHDB_OAUTH_CLIENT_ID', help: 'OAuth client id.', proof: 'test/auth/oauth.test.ts' }),
  oauth_client_secret: text('', {
    env: 'GRAPHDB_OAUTH_CLIENT_SECRET',
    help: 'OAuth client secret.',
    proof: 'test/auth/oauth.test.ts',
    secret: true,
  }),
  oauth_redirect_uri: text('', { env: 'GRAPHDB_OAUTH_REDIRECT_URI', help: 'OAuth redirect URI.', proof: 'test/auth/oauth.test.ts' }),
  oauth_scopes: text('openid profile email', {
    env: 'GRAPHDB_OAUTH_SCOPES',
    help: 'OAuth scopes requested at login.',
    proof: 'test/config/auth-setting-effects.test.ts',
  }),
  oauth_default_role: text('viewer', {
    env: 'GRAPHDB_OAUTH_DEFAULT_ROLE',
    help: 'Role given to users who log in through OAuth.',
    proof: 'test/config/auth-setting-effects.test.ts',
  }),
  max_failed_attempts: integer(5, {
    env: 'GRAPHDB_AUTH_MAX_FAILED_ATTEMPTS',
    min: 1,
    help: 'Failed logins of one user from one address that lock that pair.',
    proof: 'test/auth/login-hardening.test.ts',
  }),
  lock_time: duration(5000, {
    env: 'GRAPHDB_AUTH_LOCK_TIME',
    help: 'First lock time of a (user, address) pair; doubles per further lock.',
    proof: 'test/auth/login-hardening.test.ts',
  }),
  failed_attempts_window: duration(900_000, {
    env: 'GRAPHDB_AUTH_FAILED_ATTEMPTS_WINDOW',
    help: 'Window in which failed logins are counted.',
    proof: 'test/config/auth-setting-effects.test.ts',
  }),
  token_max_lifetime: duration(7_776_000_000, {
    env: 'GRAPHDB_TOKEN_MAX_LIFETIME',
    help: 'Longest accepted token lifetime, also for tokens without expiry.',
    proof: 'test/config/auth-setting-effects.test.ts',
  }),
  cluster_tokens_never_expire: flag(false, {
    env: 'GRAPHDB_CLUSTER_TOKENS_NEVER_EXPIRE',
    help: 'Opt-in: cluster tokens minted without expiry never expire.',
    proof: 'test/auth/tokens.test.ts',
  }),
  password_min_length: integer(8, {
    env: 'GRAPHDB_AUTH_PASSWORD_MIN_LENGTH',
    min: 1,
    help: 'Shortest password a new or changed password may have; a password equal to the user name is always refused.',
    proof: 'test/cli/user.test.ts',
  }),
});
