/**
 * Safe defaults (issue #24): every listener binds loopback unless its own address is given, and
 * authentication off on a non-loopback address is named in a loud warning.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { DEFAULT_CONFIG } from '../../src/engine/config/defaults.js';
import type { GraphdbConfig } from '../../src/engine/config/types.js';
import { isLoopbackAddress, unauthenticatedPublicListeners } from '../../src/server/transport-policy.js';
import { parseListenAddress } from '../../src/server/vectorapi/index.js';
import { startTestServer } from '../http/helpers.js';

test('--address 127.0.0.1 --no-auth without --bolt-address leaves Bolt on loopback', async () => {
  const server = await startTestServer({ 'server.bolt_enabled': true, 'server.bolt_port': 0 });
  try {
    assert.equal(server.server.http?.host, '127.0.0.1');
    assert.ok(server.server.bolt !== null);
    assert.equal(server.server.bolt.host, '127.0.0.1');
  } finally {
    await server.stop();
  }
});

test('the default address of every listener (HTTP, HTTPS, Bolt, gRPC) is loopback', () => {
  assert.ok(isLoopbackAddress(DEFAULT_CONFIG.server.http_address));
  assert.ok(isLoopbackAddress(DEFAULT_CONFIG.server.bolt_address));
  assert.ok(isLoopbackAddress(parseListenAddress(DEFAULT_CONFIG.vectorapi.grpc_listen_addr).host));
  assert.ok(isLoopbackAddress(parseListenAddress(':6334').host), 'a port without host is loopback');
  assert.equal(parseListenAddress('0.0.0.0:6334').host, '0.0.0.0');
});

test('authentication off on an explicit public address is named for the loud warning', () => {
  const config = structuredClone(DEFAULT_CONFIG) as GraphdbConfig;
  config.auth.enabled = false;
  assert.deepEqual(unauthenticatedPublicListeners(config, null), []);
  config.server.http_address = '0.0.0.0';
  config.server.bolt_address = '::';
  assert.deepEqual(unauthenticatedPublicListeners(config, '10.1.2.3'), ['HTTP on 0.0.0.0', 'Bolt on ::', 'gRPC on 10.1.2.3']);
  config.auth.enabled = true;
  assert.deepEqual(unauthenticatedPublicListeners(config, '10.1.2.3'), []);
});
