/**
 * graphql-ws over WebSocket at `<base path>/graphql`: the upgrade is taken from the HTTP server,
 * credentials come from the connection params (`{Authorization: "Basic ..."}`), and operations
 * run against the shared schema with the same validation limits and error codes as HTTP.
 */
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { parse, validate, specifiedRules, type GraphQLError, type GraphQLSchema, type ValidationRule } from 'graphql';
import { useServer } from 'graphql-ws/use/ws';
import { WebSocketServer } from 'ws';
import type { SecurityContext } from '../../engine/index.js';
import { formatError } from './errors.js';

/** Options of the WebSocket transport. */
export interface WsTransportOptions {
  readonly schema: GraphQLSchema;
  /** Path the upgrade must target (base path included). */
  readonly path: string;
  readonly rules: readonly ValidationRule[];
  /** Resolves a connection's credentials; rejects when they are refused. */
  readonly authenticate: (request: IncomingMessage, params: Readonly<Record<string, unknown>> | undefined) => Promise<SecurityContext>;
  readonly context: (security: SecurityContext) => unknown;
  /** Largest inbound WebSocket message in bytes (the HTTP body limit); default 16 MiB. */
  readonly maxPayload?: number;
}

/** A running WebSocket transport. */
export interface WsTransport {
  /** Handles an HTTP upgrade; false when the path is not ours. */
  handleUpgrade(request: IncomingMessage, socket: Duplex, head: Buffer): boolean;
  close(): Promise<void>;
}

interface ConnectionExtra extends Record<PropertyKey, unknown> {
  security?: SecurityContext;
}

/** Starts the graphql-ws server (not bound to a port: upgrades are handed to it). */
export function createWsTransport(options: WsTransportOptions): WsTransport {
  // Inbound messages are bounded like HTTP bodies (ws' own default is 100 MiB). Outbound, a
  // client that does not read holds nothing unbounded: graphql-ws awaits each send before it
  // pulls the next event, and a subscription buffers at most 10 events, dropping the rest.
  const wss = new WebSocketServer({ noServer: true, maxPayload: options.maxPayload ?? 16 * 1024 * 1024 });
  const rules = [...specifiedRules, ...options.rules];
  const disposable = useServer<Record<string, unknown> | undefined, ConnectionExtra>(
    {
      schema: options.schema,
      onConnect: async (ctx) => {
        try {
          ctx.extra.security = await options.authenticate(ctx.extra.request, ctx.connectionParams);
          return true;
        } catch {
          return false;
        }
      },
      context: (ctx) => options.context(ctx.extra.security!) as Record<string, unknown>,
      validate: (schema, document) => validate(schema, document, rules),
      parse,
      onError: (_ctx, _id, _payload, errors: readonly GraphQLError[]) => errors.map(formatError),
      onNext: (_ctx, _id, _payload, _args, result) => (result.errors ? { ...result, errors: result.errors.map(formatError) } : undefined),
    },
    wss,
  );
  return {
    handleUpgrade(request, socket, head) {
      const pathname = new URL(request.url ?? '/', 'http://localhost').pathname;
      if (pathname !== options.path) return false;
      wss.handleUpgrade(request, socket, head, (ws) => wss.emit('connection', ws, request));
      return true;
    },
    async close() {
      for (const client of wss.clients) client.terminate();
      await disposable.dispose();
      await new Promise<void>((resolve) => wss.close(() => resolve()));
    },
  };
}
