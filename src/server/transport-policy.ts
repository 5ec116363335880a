/**
 * The startup refusals of docs/security.md, "Safe defaults": with authentication enabled the
 * server refuses wildcard CORS on a non-loopback listener, cleartext HTTP on a non-loopback
 * listener without trusted proxies, and a non-loopback Bolt listener that does not require TLS.
 */
import net from 'node:net';
import type { GraphdbConfig } from '../engine/config/index.js';

/** Raised when the configuration is refused at startup; `message` starts with the documented prefix. */
export class SecurityConfigurationError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SecurityConfigurationError';
  }
}

/** True for addresses that only accept connections from this machine. */
export function isLoopbackAddress(address: string): boolean {
  const host = address.replace(/^\[|\]$/g, '').toLowerCase();
  if (host === 'localhost' || host === '::1') return true;
  if (net.isIPv4(host)) return host.startsWith('127.');
  return host.startsWith('::ffff:127.');
}

/** Throws SecurityConfigurationError when the transport settings are refused. */
export function checkTransportPolicy(config: GraphdbConfig): void {
  if (!config.auth.enabled) return;
  const { server, cors } = config;
  const httpPublic = server.http_enabled && !isLoopbackAddress(server.http_address);
  if (httpPublic && cors.enabled && cors.origins.includes('*')) {
    throw new SecurityConfigurationError(
      `security configuration: wildcard CORS origin is not allowed on a non-loopback listener (${server.http_address}) with authentication enabled; list exact origins in GRAPHDB_CORS_ORIGINS`,
    );
  }
  const httpTls = server.https.enabled || server.http_tls_enabled;
  if (httpPublic && !httpTls && server.trusted_proxies.length === 0) {
    throw new SecurityConfigurationError(
      `security configuration: public plaintext HTTP listener is not allowed (${server.http_address}) with authentication enabled; enable native HTTPS, set GRAPHDB_HTTP_TRUSTED_PROXIES for a TLS-terminating proxy, or bind to a loopback address`,
    );
  }
  if (server.bolt_enabled && !isLoopbackAddress(server.bolt_address) && !server.bolt_tls_require) {
    throw new SecurityConfigurationError(
      `security configuration: public Bolt listener must require TLS (${server.bolt_address}); set GRAPHDB_BOLT_TLS_REQUIRE=true with a certificate, or bind Bolt to a loopback address`,
    );
  }
}

/**
 * The listeners that accept connections from other machines while authentication is off
 * (`--no-auth` with an explicit non-loopback address): each one is named in a loud startup
 * warning. Empty when authentication is on or every listener is on loopback.
 */
export function unauthenticatedPublicListeners(config: GraphdbConfig, grpcHost: string | null): string[] {
  if (config.auth.enabled) return [];
  const { server } = config;
  const exposed: string[] = [];
  if (server.http_enabled && !isLoopbackAddress(server.http_address)) exposed.push(`HTTP on ${server.http_address}`);
  if (server.bolt_enabled && !isLoopbackAddress(server.bolt_address)) exposed.push(`Bolt on ${server.bolt_address}`);
  if (grpcHost !== null && !isLoopbackAddress(grpcHost)) exposed.push(`gRPC on ${grpcHost}`);
  return exposed;
}
