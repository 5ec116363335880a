/**
 * Native HTTPS drops a client that stalls in the TLS handshake after `tls.handshakeTimeoutMs`
 * (Node's own default would keep it for two minutes), and still serves clients that complete it.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import https from 'node:https';
import { connect } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { loadConfig } from '../../src/engine/config/index.js';
import { DatabaseConfigRegistry } from '../../src/engine/config/overrides.js';
import { buildHttpServer } from '../../src/server/index.js';
import { createLogger } from '../../src/server/logger.js';

const fixtures = path.join(import.meta.dirname, 'fixtures');

describe('HTTPS handshake timeout', () => {
  let app: FastifyInstance;
  let port: number;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'graphdb-tls-'));

  before(async () => {
    const loaded = loadConfig({
      env: {},
      discovery: {
        env: {},
        homeDir: dataDir,
        binDir: null,
        cwd: dataDir,
        platform: 'linux',
        systemConfigDir: path.join(dataDir, 'none'),
        exists: () => false,
      },
      flags: { 'database.path': dataDir, 'auth.enabled': false, 'logging.level': 'silent' },
    });
    app = await buildHttpServer({
      engine: {
        session: () => {
          throw new Error('no statements in this test');
        },
        hasDatabase: () => false,
        databaseFigures: () => [],
      },
      config: new DatabaseConfigRegistry(loaded, null),
      logger: createLogger('silent'),
      version: 'test',
      tls: {
        cert: fs.readFileSync(path.join(fixtures, 'tls-cert.pem')),
        key: fs.readFileSync(path.join(fixtures, 'tls-key.pem')),
        handshakeTimeoutMs: 200,
      },
    });
    await app.listen({ port: 0, host: '127.0.0.1' });
    port = (app.server.address() as { port: number }).port;
  });
  after(async () => {
    await app.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('closes a connection whose TLS handshake never completes', async () => {
    const socket = connect(port, '127.0.0.1');
    await new Promise<void>((resolve) => socket.once('connect', resolve));
    socket.on('error', () => undefined);
    // The start of a ClientHello record, never completed.
    socket.write(Buffer.from([0x16, 0x03, 0x01, 0x02, 0x00, 0x01]));
    const started = Date.now();
    await new Promise<void>((resolve) => socket.once('close', () => resolve()));
    assert.ok(Date.now() - started < 5_000, `closed after ${Date.now() - started} ms`);
  });

  it('serves a client that completes the handshake', async () => {
    const status = await new Promise<number>((resolve, reject) => {
      https
        .get(
          { host: '127.0.0.1', port, path: '/health', ca: fs.readFileSync(path.join(fixtures, 'tls-cert.pem')), servername: 'localhost' },
          (response) => {
            response.resume();
            resolve(response.statusCode ?? 0);
          },
        )
        .on('error', reject);
    });
    assert.equal(status, 200);
  });
});
