/**
 * Server-sent events over `POST /graphql` (`Accept: text/event-stream`), through graphql-sse's
 * fastify handler in "distinct connections" mode: one operation per request, `event: next`
 * frames, then `event: complete`. The request already passed the security hook (same headers
 * as any other `/graphql` request), so its SecurityContext is `request.security`.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { validate, specifiedRules, type GraphQLSchema, type ValidationRule } from 'graphql';
import { createHandler } from 'graphql-sse/lib/use/fastify';
import type { SecurityContext } from '../../engine/index.js';
import { formatError } from './errors.js';

/** Options of the SSE transport. */
export interface SseTransportOptions {
  readonly schema: GraphQLSchema;
  readonly rules: readonly ValidationRule[];
  readonly context: (security: SecurityContext) => unknown;
}

/** True when the request asks for an event stream. */
export function wantsEventStream(request: FastifyRequest): boolean {
  return (request.headers.accept ?? '').split(',').some((part) => part.trim().split(';')[0] === 'text/event-stream');
}

/** The handler of SSE requests (call after `reply.hijack()`). */
export function createSseHandler(options: SseTransportOptions): (request: FastifyRequest, reply: FastifyReply) => Promise<void> {
  const rules = [...specifiedRules, ...options.rules];
  const handler = createHandler<Record<string, unknown>>({
    schema: options.schema,
    validate: (schema, document) => validate(schema, document, rules),
    context: (req) => options.context(req.raw.security) as Record<string, unknown>,
    onNext: (_ctx, _req, result) => (result.errors ? { ...result, errors: result.errors.map(formatError) as never } : undefined),
  });
  return (request, reply) => {
    // graphql-sse compares the Accept header exactly; a list such as `text/event-stream, */*` is
    // normalized so it selects the stream too.
    request.headers.accept = 'text/event-stream';
    return handler(request, reply);
  };
}
