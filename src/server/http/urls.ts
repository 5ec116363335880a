import type { FastifyRequest } from 'fastify';

/**
 * The externally visible base URL of the API for links in responses: scheme and host as the
 * client used them (from X-Forwarded-Proto/Host when the peer is a trusted proxy; the trust
 * boundary has already removed them otherwise), then X-Forwarded-Prefix, then the base path.
 */
export function externalBaseUrl(request: FastifyRequest): string {
  const prefixHeader = request.headers['x-forwarded-prefix'];
  const forwardedPrefix = typeof prefixHeader === 'string' ? prefixHeader.replace(/\/+$/, '') : '';
  const basePath = request.server.graphdb.config.global.server.base_path;
  return `${request.protocol}://${request.host}${forwardedPrefix}${basePath}`;
}
