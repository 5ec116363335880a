/**
 * graphdb as a process would run it: `startServer(loadConfig(...))` from src/server (the path of
 * `graphdb serve`), HTTP and Bolt on ephemeral ports of 127.0.0.1, auth disabled, logs silenced,
 * data in a temp directory, no config-file discovery.
 */
import { join } from 'node:path';

/** A running graphdb server as the bench needs it. */
export interface RunningGraphdb {
  readonly httpPort: number | null;
  readonly boltPort: number | null;
  readonly database: string;
  /** The server's `GraphDB` (for operations without a network route, such as a bulk import). */
  readonly graphdb: unknown;
  stop(): Promise<void>;
}

interface LoadedConfigLike {
  readonly config: { readonly database: { readonly default_database: string } };
}
type LoadConfig = (options: Record<string, unknown>) => LoadedConfigLike;
type StartServer = (loaded: LoadedConfigLike) => Promise<{
  readonly http: { readonly port: number } | null;
  readonly bolt: { readonly port: number } | null;
  readonly engine: { readonly graphdb: unknown };
  close(): Promise<void>;
}>;

/** Builds a starter from the loaded modules (`settings` are added to the flags), or returns why it cannot. */
export function serverStarter(
  configModule: Record<string, unknown>,
  serverModule: Record<string, unknown>,
  settings: Readonly<Record<string, unknown>> = {},
): ((dir: string) => Promise<RunningGraphdb>) | string {
  const loadConfig = configModule['loadConfig'] as LoadConfig | undefined;
  const startServer = serverModule['startServer'] as StartServer | undefined;
  if (typeof loadConfig !== 'function') return 'engine/config exports no loadConfig';
  if (typeof startServer !== 'function') return 'server/index exports no startServer';
  return async (dir: string) => {
    const loaded = loadConfig({
      flags: {
        'database.path': join(dir, 'data'),
        'server.http_port': 0,
        'server.bolt_port': 0,
        'server.http_address': '127.0.0.1',
        'server.bolt_address': '127.0.0.1',
        'auth.enabled': false,
        'logging.level': 'silent',
        ...settings,
      },
      env: {},
      discovery: {
        env: {},
        homeDir: dir,
        binDir: null,
        cwd: dir,
        platform: process.platform,
        systemConfigDir: join(dir, 'no-system-config'),
        exists: () => false,
      },
    });
    const server = await startServer(loaded);
    return {
      httpPort: server.http?.port ?? null,
      boltPort: server.bolt?.port ?? null,
      database: loaded.config.database.default_database,
      graphdb: server.engine.graphdb,
      stop: () => server.close(),
    };
  };
}
