/**
 * Route group of the optional AI assistant (docs/assistant.md), OpenAI-compatible:
 * - `POST /assistant/v1/chat/completions`: one turn of the agentic loop; `stream: true` answers
 *   with server-sent events (`data: {chat.completion.chunk}` lines, then `data: [DONE]`);
 * - `GET /assistant/v1/models`: the models a request may name;
 * - `GET /assistant/status`: settings in effect, tools offered, whether the backend is ready.
 * Every route needs an authenticated caller; chat needs read access to the chosen database
 * (`database`, default the default database), and the memory tools run with the caller's rights
 * there. Chat and models answer 404 while the assistant is disabled. Errors use the
 * `{error: {message, type, code}}` shape chat-completion clients expect.
 */
import type { FastifyInstance, FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { AssistantService } from '../../../engine/assistant/index.js';
import { DatabaseNotFound, type GraphDB, type MemoryToolHost } from '../../../engine/index.js';
import type { JsonValue } from '../json/parse-json.js';
import {
  assistantErrorBody,
  completionIdentity,
  completionJson,
  deltaChunkJson,
  finalChunkJson,
  parseChatBody,
  type ChatBody,
  type CompletionIdentity,
} from './assistant-request.js';

/** Options of the assistant route group. */
export interface AssistantRoutesOptions {
  readonly graphdb: GraphDB;
  /** A ready-made service (tests, custom providers); built from the configuration otherwise. */
  readonly service?: AssistantService;
}

/** Writes server-sent events on a hijacked reply; headers go out with the first event. */
class EventStream {
  private started = false;

  constructor(private readonly reply: FastifyReply) {}

  get hasStarted(): boolean {
    return this.started;
  }

  send(payload: unknown): void {
    this.start();
    this.reply.raw.write(`data: ${typeof payload === 'string' ? payload : JSON.stringify(payload)}\n\n`);
  }

  end(): void {
    this.start();
    this.reply.raw.end();
  }

  private start(): void {
    if (this.started) return;
    this.started = true;
    this.reply.hijack();
    const inherited = Object.fromEntries(
      Object.entries(this.reply.getHeaders()).filter((entry): entry is [string, string | number | string[]] => entry[1] !== undefined),
    );
    this.reply.raw.writeHead(200, {
      ...inherited,
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-cache',
      connection: 'keep-alive',
      'x-accel-buffering': 'no',
    });
  }
}

/** The assistant route group for `buildHttpServer({ routes })`. */
export function assistantRoutes(options: AssistantRoutesOptions): FastifyPluginAsync {
  return async (app: FastifyInstance) => {
    const { graphdb } = options;
    const services = app.graphdb;
    const service =
      options.service ??
      new AssistantService({ settings: services.config.global.assistant, modelsDir: services.config.global.resources.models_dir });
    app.addHook('onClose', async () => service.close());

    app.setErrorHandler((error, request, reply) => {
      const { status, body } = assistantErrorBody(error);
      if (status >= 500 && !reply.raw.destroyed)
        request.log.error({ err: error, reqId: request.id, url: request.url }, 'assistant request failed');
      if (status === 401) void reply.header('WWW-Authenticate', 'Basic realm="graphdb", charset="UTF-8"');
      void reply.status(status).send(body);
    });

    /** The database a request uses, after checking it exists and the caller may read it. */
    const databaseFor = (request: FastifyRequest, body: ChatBody): string => {
      const database = body.database ?? graphdb.defaultDatabase;
      if (!services.engine.hasDatabase(database)) throw new DatabaseNotFound(database);
      request.security.authorize?.(database, 'read');
      return database;
    };

    const toolHost = (request: FastifyRequest, database: string): MemoryToolHost =>
      graphdb.memoryToolHost({ database, security: request.security });

    const disconnectSignal = (reply: FastifyReply): AbortSignal => {
      const controller = new AbortController();
      reply.raw.on('close', () => {
        if (!reply.raw.writableEnded) controller.abort(new Error('the client disconnected'));
      });
      return controller.signal;
    };

    app.post(
      '/assistant/v1/chat/completions',
      {
        schema: {
          summary: 'Chat completion with the agentic memory-tool loop (OpenAI-compatible; stream: true for SSE)',
          tags: ['assistant'],
        },
      },
      async (request, reply) => {
        const provider = service.provider();
        const body = parseChatBody(request.body as JsonValue | undefined);
        const model = provider.resolveModel(body.model);
        const database = databaseFor(request, body);
        const identity = completionIdentity(model);
        const chat = {
          model,
          messages: body.messages,
          ...(body.maxTokens !== undefined ? { maxTokens: body.maxTokens } : {}),
          ...(body.temperature !== undefined ? { temperature: body.temperature } : {}),
          signal: disconnectSignal(reply),
          host: toolHost(request, database),
        };
        if (!body.stream) {
          const result = await service.chat(chat);
          return reply.type('application/json; charset=utf-8').send(completionJson(identity, result, database));
        }
        await streamChat(reply, identity, database, (onText) => service.chat({ ...chat, onText }));
        return reply;
      },
    );

    app.get(
      '/assistant/v1/models',
      {
        schema: { summary: 'Models the assistant serves (OpenAI-compatible list)', tags: ['assistant'] },
      },
      async (_request, reply) => {
        const models = await service.models();
        return reply.send({ object: 'list', data: models.map((m) => ({ id: m.id, object: 'model', created: 0, owned_by: m.ownedBy })) });
      },
    );

    app.get(
      '/assistant/status',
      {
        schema: { summary: 'Assistant settings in effect, tools offered and backend readiness', tags: ['assistant'] },
      },
      async (_request, reply) => reply.send({ ...service.status(), default_database: graphdb.defaultDatabase }),
    );
  };
}

/**
 * Streams one chat turn: a role chunk, text chunks as the model writes them, a final chunk with
 * the finish reason, usage and tool calls, then `[DONE]`. A failure before anything was sent is
 * thrown (a normal JSON error response); after that it is sent as an `error` event.
 */
async function streamChat(
  reply: FastifyReply,
  identity: CompletionIdentity,
  database: string,
  run: (onText: (delta: string) => void) => Promise<Parameters<typeof finalChunkJson>[1]>,
): Promise<void> {
  const events = new EventStream(reply);
  const onText = (delta: string) => {
    if (!events.hasStarted) events.send(deltaChunkJson(identity, { role: 'assistant', content: '' }));
    if (delta !== '') events.send(deltaChunkJson(identity, { content: delta }));
  };
  let result;
  try {
    result = await run(onText);
  } catch (error) {
    if (!events.hasStarted) throw error;
    if (!reply.raw.destroyed) {
      events.send({ error: assistantErrorBody(error).body.error });
      events.send('[DONE]');
      events.end();
    }
    return;
  }
  onText('');
  events.send(finalChunkJson(identity, result, database));
  events.send('[DONE]');
  events.end();
}
