import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { DEFAULT_CONFIG, type GraphdbConfig } from '../../src/engine/config/index.js';
import { TrustedProxies, stripForwardingHeaders } from '../../src/server/http/trusted-proxies.js';
import { SecurityConfigurationError, checkTransportPolicy, isLoopbackAddress } from '../../src/server/transport-policy.js';

function config(edit: (c: GraphdbConfig) => void): GraphdbConfig {
  const copy = structuredClone(DEFAULT_CONFIG) as GraphdbConfig;
  copy.server.http_address = '127.0.0.1';
  copy.server.bolt_address = '127.0.0.1';
  edit(copy);
  return copy;
}

function refusal(c: GraphdbConfig): string | null {
  try {
    checkTransportPolicy(c);
    return null;
  } catch (error) {
    assert.ok(error instanceof SecurityConfigurationError);
    return error.message;
  }
}

describe('startup transport policy', () => {
  it('accepts loopback listeners', () => {
    assert.equal(refusal(config(() => {})), null);
    assert.ok(isLoopbackAddress('127.0.0.5') && isLoopbackAddress('::1') && isLoopbackAddress('localhost'));
    assert.ok(!isLoopbackAddress('0.0.0.0') && !isLoopbackAddress('::') && !isLoopbackAddress('10.1.2.3'));
  });

  it('refuses wildcard CORS on a public listener', () => {
    const message = refusal(
      config((c) => {
        c.server.http_address = '0.0.0.0';
        c.server.trusted_proxies = ['10.0.0.1'];
        c.cors = { enabled: true, origins: ['*'] };
      }),
    );
    assert.match(message ?? '', /^security configuration: wildcard CORS origin is not allowed/);
  });

  it('refuses public plaintext HTTP without trusted proxies', () => {
    const message = refusal(
      config((c) => {
        c.server.http_address = '0.0.0.0';
      }),
    );
    assert.match(message ?? '', /^security configuration: public plaintext HTTP listener is not allowed/);
  });

  it('refuses a public Bolt listener without required TLS', () => {
    const message = refusal(
      config((c) => {
        c.server.bolt_address = '0.0.0.0';
      }),
    );
    assert.match(message ?? '', /^security configuration: public Bolt listener must require TLS/);
  });

  it('accepts public listeners behind a trusted proxy and with required Bolt TLS', () => {
    assert.equal(
      refusal(
        config((c) => {
          c.server.http_address = '0.0.0.0';
          c.server.trusted_proxies = ['10.0.0.0/8'];
          c.server.bolt_address = '0.0.0.0';
          c.server.bolt_tls_require = true;
          c.cors = { enabled: true, origins: ['https://app.example.com'] };
        }),
      ),
      null,
    );
  });

  it('refuses nothing when authentication is disabled', () => {
    assert.equal(
      refusal(
        config((c) => {
          c.auth.enabled = false;
          c.server.http_address = '0.0.0.0';
          c.server.bolt_address = '0.0.0.0';
          c.cors = { enabled: true, origins: ['*'] };
        }),
      ),
      null,
    );
  });
});

describe('trusted proxies', () => {
  it('matches addresses and CIDR ranges, including IPv4-mapped IPv6', () => {
    const proxies = new TrustedProxies(['10.0.0.0/8', '192.168.1.7', '::1']);
    assert.ok(proxies.trusts('10.200.3.4'));
    assert.ok(proxies.trusts('::ffff:10.1.1.1'));
    assert.ok(proxies.trusts('192.168.1.7'));
    assert.ok(proxies.trusts('::1'));
    assert.ok(!proxies.trusts('192.168.1.8'));
    assert.ok(!proxies.trusts('127.0.0.1'));
    assert.ok(!new TrustedProxies([]).trusts('10.0.0.1'));
  });

  it('strips every forwarding header', () => {
    const headers = {
      'x-forwarded-for': '1.2.3.4',
      'x-forwarded-proto': 'https',
      'x-real-ip': '1.2.3.4',
      forwarded: 'for=1.2.3.4',
      'x-forwarded-prefix': '/p',
      host: 'h',
    };
    assert.equal(stripForwardingHeaders(headers), 5);
    assert.deepEqual(headers, { host: 'h' });
  });
});
