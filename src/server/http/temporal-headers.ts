/**
 * The HTTP form of a temporal read (docs/temporal-reads.md): `X-Graphdb-As-Of-Version: 42` or
 * `X-Graphdb-As-Of-Time: 2026-01-31T12:00:00Z` on the transaction API and the Query API requests
 * that begin a transaction (or run an auto-commit one).
 */
import type { FastifyRequest } from 'fastify';
import { asOfFromHeaders, type AsOf } from '../../engine/index.js';

/** Header names, lower case as Node reports them. */
export const AS_OF_VERSION_HEADER = 'x-graphdb-as-of-version';
export const AS_OF_TIME_HEADER = 'x-graphdb-as-of-time';

function header(request: FastifyRequest, name: string): string | undefined {
  const value = request.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

/** The point the request asks to read at, or undefined; a malformed value is an ArgumentError (400). */
export function asOfOf(request: FastifyRequest): AsOf | undefined {
  return asOfFromHeaders(header(request, AS_OF_VERSION_HEADER), header(request, AS_OF_TIME_HEADER));
}
