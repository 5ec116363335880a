/** The client of an HTTP request as SHOW TRANSACTIONS lists it (both HTTP APIs open sessions with it). */
import type { FastifyRequest } from 'fastify';
import type { ClientInfo } from '../../engine/index.js';

/** Protocol, connection id, client and server addresses and the request URI of an HTTP request. */
export function httpClientInfo(request: FastifyRequest): ClientInfo {
  return {
    protocol: 'http',
    connectionId: `http-${String(request.id).replace(/^req-/, '')}`,
    clientAddress: `${request.clientIp || request.ip}:${request.socket.remotePort ?? ''}`,
    requestUri: request.url,
    serverAddress: `${request.socket.localAddress ?? ''}:${request.socket.localPort ?? ''}`,
  };
}
