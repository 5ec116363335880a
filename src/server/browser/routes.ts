/**
 * Route group of the built-in web UI: `GET /browser` (the single-page app), its bundled assets
 * under `/browser/assets/`, and `GET /browser/config.json` (where the app finds the Bolt
 * listener and whether it must log in). Everything is public: the page holds no data, and every
 * query it runs authenticates over Bolt or HTTP like any other client.
 *
 * The assets are built by `npm run build` (`src/server/browser/build.mjs`) into `dist/browser/`;
 * they are read once, gzipped off the event loop, and served from memory with an ETag.
 */
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { gzip } from 'node:zlib';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

/** The files of the bundle and their content types. */
const ASSETS: Readonly<Record<string, string>> = {
  'index.html': 'text/html; charset=utf-8',
  'app.js': 'text/javascript; charset=utf-8',
  'app.css': 'text/css; charset=utf-8',
};

/** URL path of the app below the base path. */
export const BROWSER_PATH = '/browser';

/**
 * The page's policy: scripts and styles only from this server (CodeMirror adds style elements),
 * WebSocket connections to the Bolt listener on any port of any host the user points it at.
 */
const CONTENT_SECURITY_POLICY =
  "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data: blob:; connect-src 'self' ws: wss:; frame-ancestors 'none'; base-uri 'none'; form-action 'self'";

interface Asset {
  readonly type: string;
  readonly raw: Buffer;
  readonly gzipped: Buffer;
  readonly etag: string;
}

/**
 * The directory holding the built app: `dist/browser/` next to the compiled server
 * (`dist/server/browser/routes.js`), or, when the server runs from its TypeScript sources,
 * the repository's `dist/browser/`.
 */
export function browserAssetsDir(): string | null {
  const here = path.dirname(fileURLToPath(import.meta.url));
  const candidates = [path.resolve(here, '../../browser'), path.resolve(here, '../../../dist/browser')];
  return candidates.find((dir) => existsSync(path.join(dir, 'index.html'))) ?? null;
}

async function loadAssets(dir: string): Promise<Map<string, Asset>> {
  const assets = new Map<string, Asset>();
  for (const [name, type] of Object.entries(ASSETS)) {
    const raw = await readFile(path.join(dir, name));
    const gzipped = await promisify(gzip)(raw);
    const etag = `"${createHash('sha256').update(raw).digest('base64url').slice(0, 22)}"`;
    assets.set(name, { type, raw, gzipped, etag });
  }
  return assets;
}

function send(request: FastifyRequest, reply: FastifyReply, asset: Asset): FastifyReply {
  void reply
    .header('content-type', asset.type)
    .header('cache-control', 'no-cache')
    .header('etag', asset.etag)
    .header('x-content-type-options', 'nosniff')
    .header('vary', 'accept-encoding');
  if (asset.type.startsWith('text/html')) {
    void reply.header('content-security-policy', CONTENT_SECURITY_POLICY).header('referrer-policy', 'no-referrer');
  }
  if (request.headers['if-none-match'] === asset.etag) return reply.status(304).send();
  const acceptsGzip = /\bgzip\b/.test(String(request.headers['accept-encoding'] ?? ''));
  if (acceptsGzip) return reply.header('content-encoding', 'gzip').send(asset.gzipped);
  return reply.send(asset.raw);
}

/** True when a request comes from a browser navigating (it asks for HTML), not from an API client. */
export function wantsHtml(request: FastifyRequest): boolean {
  const accept = request.headers.accept;
  return typeof accept === 'string' && accept.includes('text/html');
}

/**
 * The route plugin. `assetsDir` defaults to `browserAssetsDir()`; when the app is not built the
 * routes answer 404 with the command that builds it.
 */
export function browserRoutes(assetsDir: string | null = browserAssetsDir()) {
  return async (app: FastifyInstance): Promise<void> => {
    const services = app.graphdb;
    let loading: Promise<Map<string, Asset>> | null = null;
    const assets = (): Promise<Map<string, Asset>> | null => (assetsDir === null ? null : (loading ??= loadAssets(assetsDir)));
    const publicRoute = { auth: 'public' } as const;

    const serve = async (name: string, request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> => {
      const pending = assets();
      if (pending === null) {
        return reply.status(404).send({
          errors: [{ code: 'Neo.ClientError.Request.Invalid', message: 'The web UI is not built: run `npm run build`.' }],
        });
      }
      const asset = (await pending).get(name);
      if (asset === undefined) return reply.status(404).send();
      return send(request, reply, asset);
    };

    app.get(BROWSER_PATH, { config: publicRoute, schema: { hide: true } }, (request, reply) => {
      const base = services.config.global.server.base_path;
      return reply.redirect(`${base}${BROWSER_PATH}/`, 302);
    });
    app.get(
      `${BROWSER_PATH}/`,
      { config: publicRoute, schema: { summary: 'The web UI (graph browser)', tags: ['browser'] } },
      (request, reply) => serve('index.html', request, reply),
    );
    app.get<{ Params: { file: string } }>(
      `${BROWSER_PATH}/assets/:file`,
      { config: publicRoute, schema: { hide: true } },
      (request, reply) => serve(request.params.file, request, reply),
    );
    app.get(
      `${BROWSER_PATH}/config.json`,
      { config: publicRoute, schema: { summary: 'Where the web UI finds the Bolt listener', tags: ['browser'] } },
      async () => {
        const bolt = services.bolt();
        const { server, auth } = services.config.global;
        return {
          version: services.version,
          basePath: server.base_path,
          authEnabled: auth.enabled,
          bolt: bolt === null ? null : { port: bolt.port, encrypted: server.bolt_tls_require },
          defaultDatabase: services.config.global.database.default_database,
        };
      },
    );
  };
}
