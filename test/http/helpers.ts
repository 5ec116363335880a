/** Shared helpers of the HTTP tests: a real server on a temp data dir and port 0, fetch wrappers. */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { loadConfig } from '../../src/engine/config/index.js';
import { startServer, type RunningServer, type StartServerOptions } from '../../src/server/index.js';
import { createLogger } from '../../src/server/logger.js';

/** A started server with its data dir; `stop()` closes it and removes the dir. */
export interface TestServer {
  readonly server: RunningServer;
  readonly url: string;
  readonly dataDir: string;
  stop(): Promise<void>;
}

/**
 * Starts a real server on 127.0.0.1 with an ephemeral HTTP port, no Bolt, no auth unless the
 * flags say otherwise. `flags` are dotted config paths (`server.base_path`).
 */
export async function startTestServer(
  flags: Record<string, unknown> = {},
  env: Record<string, string> = {},
  extras: {
    /** When given, log lines (JSON objects) at info level and above are collected here. */
    readonly logs?: Record<string, unknown>[];
    readonly httpRoutes?: StartServerOptions['httpRoutes'];
    readonly probes?: StartServerOptions['probes'];
    readonly lifecycleClock?: StartServerOptions['lifecycleClock'];
    readonly authClock?: StartServerOptions['authClock'];
  } = {},
): Promise<TestServer> {
  const { logs, httpRoutes, probes, lifecycleClock, authClock } = extras;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'graphdb-http-'));
  const loaded = loadConfig({
    env,
    configFile: undefined,
    discovery: {
      env,
      homeDir: dataDir,
      binDir: null,
      cwd: dataDir,
      platform: 'linux',
      systemConfigDir: path.join(dataDir, 'no-config'),
      exists: () => false,
    },
    flags: {
      'database.path': dataDir,
      'server.http_port': 0,
      'server.http_address': '127.0.0.1',
      'server.bolt_enabled': false,
      'auth.enabled': false,
      'auth.jwt_secret': 'test-jwt-secret-of-at-least-32-bytes!!',
      'logging.level': 'silent',
      ...flags,
    },
  });
  const destination = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString().split('\n')) if (line.trim() !== '') logs?.push(JSON.parse(line) as Record<string, unknown>);
      done();
    },
  });
  const logger = logs === undefined ? createLogger('silent') : createLogger('info', destination);
  const server = await startServer(loaded, { logger, version: '9.9.9-test', httpRoutes, probes, lifecycleClock, authClock });
  return {
    server,
    url: server.http!.url,
    dataDir,
    async stop() {
      await server.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** A parsed JSON response plus its raw text and headers. */
export interface JsonResponse<T = any> {
  readonly status: number;
  readonly headers: Headers;
  readonly text: string;
  readonly body: T;
}

/** fetch + JSON parsing (the raw text is kept for exact-number assertions). */
export async function request<T = any>(url: string, init: RequestInit & { json?: unknown } = {}): Promise<JsonResponse<T>> {
  const { json, ...rest } = init;
  const response = await fetch(url, {
    ...rest,
    headers: {
      ...(json === undefined ? {} : { 'content-type': 'application/json' }),
      ...(rest.headers as Record<string, string> | undefined),
    },
    body: json === undefined ? rest.body : JSON.stringify(json),
  });
  const text = await response.text();
  let body: T;
  try {
    body = (text === '' ? undefined : JSON.parse(text)) as T;
  } catch {
    body = text as T;
  }
  return { status: response.status, headers: response.headers, text, body };
}

/** POST /db/{db}/tx/commit with the given statements. */
export function commit(
  base: string,
  statements: (string | { statement: string; parameters?: unknown; resultDataContents?: string[]; includeStats?: boolean })[],
  db = 'graphdb',
  headers: Record<string, string> = {},
) {
  return request(`${base}/db/${db}/tx/commit`, {
    method: 'POST',
    headers,
    json: { statements: statements.map((s) => (typeof s === 'string' ? { statement: s } : s)) },
  });
}

/** Runs one read statement and returns its rows. */
export async function rows(base: string, statement: string, db = 'graphdb'): Promise<unknown[][]> {
  const response = await commit(base, [statement], db);
  if (response.body.errors.length > 0) throw new Error(JSON.stringify(response.body.errors));
  return response.body.results[0].data.map((d: { row: unknown[] }) => d.row);
}

/** Resolves after `ms` milliseconds. */
export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
