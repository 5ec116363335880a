/**
 * Route group: the MCP server over Streamable HTTP at `/mcp` (POST; GET and DELETE answer 405 in
 * this stateless mode). Authentication is the usual Basic/Bearer of every route; the caller needs
 * read access to the database (`?database=`, default the default database) and every tool runs
 * with the caller's rights, so a reader's `store` is refused. Each request gets a fresh server
 * and transport bound to its caller (stateless, JSON responses). As the MCP specification asks
 * against DNS rebinding, a request carrying an `Origin` header is refused (403) unless CORS allows
 * that origin (`cors.enabled` and `cors.origins`); MCP clients outside browsers send none.
 */
import type { FastifyInstance, FastifyPluginAsync, FastifyRequest } from 'fastify';
import { allowedTools, DatabaseNotFound, type GraphDB } from '../../engine/index.js';

/**
 * The MCP SDK (with zod, its JSON-schema converter and ajv, a few hundred modules) loads on the
 * first `/mcp` request rather than at start-up.
 */
async function mcpModules() {
  const [{ createMcpServer }, { StreamableHTTPServerTransport }] = await Promise.all([
    import('./mcp-server.js'),
    import('@modelcontextprotocol/sdk/server/streamableHttp.js'),
  ]);
  return { createMcpServer, StreamableHTTPServerTransport };
}

/** Options of the MCP route group. */
export interface McpRoutesOptions {
  readonly graphdb: GraphDB;
}

function jsonRpcError(code: number, message: string): string {
  return JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id: null });
}

/** The `/mcp` route group for `buildHttpServer({ routes })`. */
export function mcpRoutes(options: McpRoutesOptions): FastifyPluginAsync {
  return async (app: FastifyInstance) => {
    const { graphdb } = options;
    const services = app.graphdb;
    // MCP bodies are plain JSON-RPC (numbers stay numbers), not graphdb's Cypher-value JSON.
    app.removeAllContentTypeParsers();
    app.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, body, done) => {
      try {
        done(null, JSON.parse(body as string) as unknown);
      } catch (error) {
        done(
          Object.assign(new Error(`Parse error: ${error instanceof Error ? error.message : String(error)}`), { statusCode: 400 }),
          undefined,
        );
      }
    });

    const databaseOf = (request: FastifyRequest): string => {
      const query = request.query as { database?: unknown };
      const database = typeof query.database === 'string' && query.database !== '' ? query.database : graphdb.defaultDatabase;
      if (!services.engine.hasDatabase(database)) throw new DatabaseNotFound(database);
      request.security.authorize?.(database, 'read');
      return database;
    };

    const originAllowed = (origin: string | undefined): boolean => {
      if (origin === undefined) return true;
      const cors = services.config.global.cors;
      return cors.enabled && (cors.origins.includes('*') || cors.origins.includes(origin));
    };

    app.post(
      '/mcp',
      { schema: { summary: 'Model Context Protocol (Streamable HTTP): graphdb memory tools, resources and prompts', tags: ['mcp'] } },
      async (request, reply) => {
        if (!originAllowed(request.headers.origin)) {
          return reply
            .status(403)
            .type('application/json')
            .send(jsonRpcError(-32000, `Forbidden: origin ${request.headers.origin} is not allowed (cors.origins)`));
        }
        const database = databaseOf(request);
        const settings = services.config.global.assistant;
        const { createMcpServer, StreamableHTTPServerTransport } = await mcpModules();
        const server = createMcpServer({
          host: graphdb.memoryToolHost({ database, security: request.security }),
          tools: allowedTools(settings.mcp_tools),
          maxResultChars: settings.max_tool_result_chars,
          version: services.version,
        });
        const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
        reply.hijack();
        reply.raw.on('close', () => {
          void transport.close();
          void server.close();
        });
        try {
          await server.connect(transport);
          await transport.handleRequest(request.raw, reply.raw, request.body);
        } catch (error) {
          request.log.error({ err: error, reqId: request.id }, 'MCP request failed');
          if (!reply.raw.headersSent) reply.raw.writeHead(500, { 'content-type': 'application/json' });
          if (!reply.raw.writableEnded) reply.raw.end(jsonRpcError(-32603, 'Internal error'));
        }
      },
    );

    const notAllowed = async (_request: FastifyRequest, reply: import('fastify').FastifyReply) => {
      void reply
        .status(405)
        .header('allow', 'POST')
        .type('application/json')
        .send(jsonRpcError(-32000, 'Method not allowed: this MCP endpoint is stateless, use POST'));
    };
    app.get('/mcp', notAllowed);
    app.delete('/mcp', notAllowed);
  };
}
