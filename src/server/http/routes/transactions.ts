/**
 * Route group: the Neo4j transactional Cypher endpoint.
 *
 * - `POST /db/{db}/tx/commit` runs the statements in one transaction and commits.
 * - `POST /db/{db}/tx` begins an explicit transaction (201 + Location), `POST /db/{db}/tx/{id}`
 *   runs more statements in it, `POST /db/{db}/tx/{id}/commit` commits, `DELETE /db/{db}/tx/{id}`
 *   rolls back. Idle transactions expire. A statement error rolls the transaction back.
 * - With async writes enabled for the database, a request made only of pure CREATE statements
 *   (decided from the AST) whose parameters pass the up-front checks is queued for the
 *   write-behind engine: 202, `X-Graphdb-Consistency: eventual`, a `writeId` in the body and a
 *   `Location` of its status, `GET /db/{db}/tx/writes/{id}` (routes/write-status.ts).
 *   Everything else is synchronous and durable (200), so its errors come back at once.
 *
 * `X-Graphdb-As-Of-Version` / `X-Graphdb-As-Of-Time` on a request that begins a transaction make
 * it a read-only temporal read (docs/temporal-reads.md).
 *
 * Statement errors are reported in the body (`errors`) with status 200, as Neo4j does; request
 * problems (bad JSON, unknown database or transaction) use 4xx statuses.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { DatabaseNotFound, type Session, type TransactionOptions, AsyncWriteClassifier } from '../../../engine/index.js';
import { statementErrorEntry, type ErrorEntry } from '../http-errors.js';
import type { JsonValue } from '../json/parse-json.js';
import { jsonToParameters } from '../json/values-in.js';
import type { OpenTransaction } from '../tx/open-transactions.js';
import { ResponseWriter } from '../tx/response-writer.js';
import { writeStatement, type ResultDataContent, type StatementExecutor, type StatementRequest } from '../tx/statement-results.js';
import { externalBaseUrl } from '../urls.js';
import { AS_OF_TIME_HEADER, AS_OF_VERSION_HEADER, asOfOf } from '../temporal-headers.js';
import { httpClientInfo } from '../client-info.js';

const statementSchema = {
  type: 'object',
  required: ['statement'],
  properties: {
    statement: { type: 'string' },
    parameters: { type: 'object', additionalProperties: true },
    resultDataContents: { type: 'array', items: { type: 'string', enum: ['row', 'graph', 'ROW', 'GRAPH'] } },
    includeStats: { type: 'boolean' },
  },
} as const;

const bodySchema = {
  type: 'object',
  nullable: true,
  properties: { statements: { type: 'array', items: statementSchema } },
} as const;

const resultSchema = {
  type: 'object',
  properties: {
    results: {
      type: 'array',
      items: {
        type: 'object',
        properties: {
          columns: { type: 'array', items: { type: 'string' } },
          data: { type: 'array', items: { type: 'object', additionalProperties: true } },
          stats: { type: 'object', additionalProperties: true },
        },
      },
    },
    errors: {
      type: 'array',
      items: { type: 'object', properties: { code: { type: 'string' }, message: { type: 'string' } } },
    },
    commit: { type: 'string' },
    transaction: { type: 'object', properties: { expires: { type: 'string' } } },
    lastBookmarks: { type: 'array', items: { type: 'string' } },
  },
} as const;

const databaseParams = {
  type: 'object',
  required: ['database'],
  properties: { database: { type: 'string', description: 'Database name' } },
} as const;

const transactionParams = {
  type: 'object',
  required: ['database', 'id'],
  properties: { database: { type: 'string', description: 'Database name' }, id: { type: 'string', description: 'Transaction id' } },
} as const;

const headersSchema = {
  type: 'object',
  properties: {
    'max-execution-time': { type: 'integer', minimum: 0, description: 'Statement timeout in milliseconds' },
    [AS_OF_VERSION_HEADER]: { type: 'string', description: 'Read the database as it was at this commit version (read-only)' },
    [AS_OF_TIME_HEADER]: { type: 'string', description: 'Read the database as it was at this date-time (read-only)' },
  },
} as const;

interface TxBody {
  readonly statements?: readonly { statement: string; parameters?: JsonValue; resultDataContents?: string[]; includeStats?: boolean }[];
}

interface DatabaseRoute {
  Params: { database: string };
  Body: TxBody | undefined;
}

interface TransactionRoute {
  Params: { database: string; id: string };
  Body: TxBody | undefined;
}

function statementRequests(body: TxBody | undefined): StatementRequest[] {
  return (body?.statements ?? []).map((s) => ({
    statement: s.statement,
    parameters: jsonToParameters(s.parameters),
    resultDataContents: (s.resultDataContents ?? ['row']).map((c) => c.toLowerCase() as ResultDataContent),
    includeStats: s.includeStats === true,
  }));
}

/** The outcome of running a request's statements (their results are in the response writer). */
interface RunOutcome {
  readonly errors: ErrorEntry[];
}

function responseJson(outcome: { results: string[]; errors: ErrorEntry[] }, extra: Record<string, unknown> = {}): string {
  return `{"results":[${outcome.results.join(',')}],"errors":${JSON.stringify(outcome.errors)}${tailJson(extra)}}`;
}

function tailJson(extra: Record<string, unknown>): string {
  return Object.entries(extra)
    .map(([key, value]) => `,${JSON.stringify(key)}:${JSON.stringify(value)}`)
    .join('');
}

/** Closes the results array, adds errors and `extra`, and sends (or ends the stream of) the body. */
async function finishResponse(
  out: ResponseWriter,
  status: number,
  errors: readonly ErrorEntry[],
  extra: Record<string, unknown> = {},
  headers: Record<string, string> = {},
): Promise<FastifyReply> {
  await out.write(`],"errors":${JSON.stringify(errors)}${tailJson(extra)}}`, false);
  return out.finish(status, headers);
}

/** The principal a request acts as: the owner of the transactions it opens. */
function ownerOf(request: FastifyRequest): string | null {
  return request.security.username;
}

function sendJson(reply: FastifyReply, status: number, json: string): FastifyReply {
  return reply.status(status).type('application/json; charset=utf-8').send(json);
}

/** Registers the transactional endpoint routes. */
export async function transactionRoutes(app: FastifyInstance): Promise<void> {
  const services = app.graphdb;
  const { engine, transactions, writeBehind, writeStatuses } = services;
  const classifier = new AsyncWriteClassifier();

  const timeoutFor = (request: FastifyRequest): number => {
    const header: unknown = request.headers['max-execution-time'];
    const requested = typeof header === 'string' || typeof header === 'number' ? Number(header) : NaN;
    return Number.isInteger(requested) && requested > 0 ? requested : services.config.global.server.statement_timeout;
  };

  /** A session on a database known to exist. */
  const sessionOn = (request: FastifyRequest, database: string): Session => {
    const client = httpClientInfo(request);
    return engine.session({ database, security: request.security, client });
  };

  const openSession = (request: FastifyRequest, database: string): Session => {
    if (!engine.hasDatabase(database)) throw new DatabaseNotFound(database);
    return sessionOn(request, database);
  };

  /** A response writer under the server's result limits, its body opened. */
  const writerFor = async (reply: FastifyReply): Promise<ResponseWriter> => {
    const { limits } = services.config.global.server;
    const out = new ResponseWriter(reply, { maxBytes: limits.http_max_result_bytes, writeTimeoutMs: limits.write_timeout });
    await out.write('{"results":[', false);
    return out;
  };

  /** Runs statements in order, writing their results, stopping at the first error. */
  const runAll = async (execute: StatementExecutor, statements: readonly StatementRequest[], out: ResponseWriter): Promise<RunOutcome> => {
    let first = true;
    for (const statement of statements) {
      try {
        await writeStatement(execute, statement, out, first);
        first = false;
      } catch (error) {
        return { errors: [statementErrorEntry(error)] };
      }
    }
    return { errors: [] };
  };

  const transactionLinks = (request: FastifyRequest, entry: OpenTransaction): Record<string, unknown> => ({
    commit: `${externalBaseUrl(request)}/db/${encodeURIComponent(entry.database)}/tx/${entry.id}/commit`,
    transaction: { expires: new Date(entry.expiresAt).toUTCString() },
  });

  /** Runs statements inside an open transaction; a failure rolls it back and forgets it. */
  const runInOpen = async (entry: OpenTransaction, statements: readonly StatementRequest[], out: ResponseWriter): Promise<RunOutcome> => {
    const outcome = await runAll((statement, parameters) => entry.transaction.run(statement, parameters), statements, out);
    if (outcome.errors.length > 0) {
      try {
        if (entry.transaction.isOpen) await entry.transaction.rollback();
      } finally {
        await transactions.finish(entry);
      }
    }
    return outcome;
  };

  app.post<DatabaseRoute>(
    '/db/:database/tx/commit',
    {
      schema: {
        summary: 'Run statements in one transaction and commit',
        tags: ['cypher'],
        params: databaseParams,
        headers: headersSchema,
        body: bodySchema,
        response: {
          200: resultSchema,
          202: {
            ...resultSchema,
            properties: { ...resultSchema.properties, writeId: { type: 'string', description: 'Id of the status route in Location' } },
            description: 'Accepted for asynchronous write (eventual consistency)',
          },
        },
      },
    },
    async (request, reply) => {
      const { database } = request.params;
      const statements = statementRequests(request.body);
      if (!engine.hasDatabase(database)) throw new DatabaseNotFound(database);
      const asOf = asOfOf(request);
      const asyncSettings = services.config.effectiveConfig(database).async_writes;
      const queueable = asyncSettings.enabled && asOf === undefined && engine.isComposite?.(database) !== true;
      const estimates = queueable ? classifier.classify(statements, engine.constrainedTokens?.(database)) : null;
      if (estimates !== null) {
        // Queued writes are flushed later under the server's own context: check the client's right now.
        request.security.authorize?.(database, 'write');
        for (const s of statements) engine.authorizeStatement?.(request.security, database, s.statement);
        const id = writeStatuses.accept(database, ownerOf(request), statements.length);
        statements.forEach((s, i) =>
          writeBehind.enqueue(database, {
            id,
            statement: s.statement,
            parameters: s.parameters,
            username: request.security.username,
            ...estimates[i]!,
          }),
        );
        const results = estimates.map((e, i) => {
          const stats = statements[i]!.includeStats
            ? `,"stats":${JSON.stringify({ contains_updates: true, nodes_created: e.nodes, relationships_created: e.relationships })}`
            : '';
          return `{"columns":[],"data":[]${stats}}`;
        });
        reply.header('X-Graphdb-Consistency', 'eventual');
        reply.header('Location', `${externalBaseUrl(request)}/db/${encodeURIComponent(database)}/tx/writes/${id}`);
        return sendJson(reply, 202, responseJson({ results, errors: [] }, { writeId: id }));
      }
      const session = sessionOn(request, database);
      try {
        if (writeBehind.hasPending(database)) await writeBehind.flushDatabase(database);
        const options: TransactionOptions = { timeoutMs: timeoutFor(request), ...(asOf === undefined ? {} : { asOf }) };
        const out = await writerFor(reply);
        if (statements.length === 1) {
          const outcome = await runAll((statement, parameters) => session.run(statement, parameters, options), statements, out);
          const bookmark = session.lastBookmark();
          return await finishResponse(out, 200, outcome.errors, bookmark === null ? {} : { lastBookmarks: [bookmark] });
        }
        const transaction = await session.beginTransaction(options);
        const outcome = await runAll((statement, parameters) => transaction.run(statement, parameters), statements, out);
        if (outcome.errors.length > 0) {
          if (transaction.isOpen) await transaction.rollback();
          return await finishResponse(out, 200, outcome.errors);
        }
        try {
          const bookmark = await transaction.commit();
          return await finishResponse(out, 200, [], { lastBookmarks: [bookmark] });
        } catch (error) {
          return await finishResponse(out, 200, [statementErrorEntry(error)]);
        }
      } finally {
        await session.close();
      }
    },
  );

  app.post<DatabaseRoute>(
    '/db/:database/tx',
    {
      schema: {
        summary: 'Begin an explicit transaction, optionally running statements',
        tags: ['cypher'],
        params: databaseParams,
        headers: headersSchema,
        body: bodySchema,
        response: { 201: resultSchema },
      },
    },
    async (request, reply) => {
      const { database } = request.params;
      const statements = statementRequests(request.body);
      const asOf = asOfOf(request);
      const session = openSession(request, database);
      let entry: OpenTransaction;
      try {
        if (writeBehind.hasPending(database)) await writeBehind.flushDatabase(database);
        const transaction = await session.beginTransaction({ timeoutMs: timeoutFor(request), ...(asOf === undefined ? {} : { asOf }) });
        entry = transactions.add(database, ownerOf(request), session, transaction);
      } catch (error) {
        await session.close();
        throw error;
      }
      entry.busy = true;
      const location = { Location: `${externalBaseUrl(request)}/db/${encodeURIComponent(database)}/tx/${entry.id}` };
      const out = await writerFor(reply);
      out.streamAs(201, location);
      const outcome = await runInOpen(entry, statements, out);
      if (outcome.errors.length > 0) return finishResponse(out, 200, outcome.errors);
      transactions.release(entry);
      return finishResponse(out, 201, [], transactionLinks(request, entry), location);
    },
  );

  app.post<TransactionRoute>(
    '/db/:database/tx/:id',
    {
      schema: {
        summary: 'Run statements in an open transaction (also keeps it alive)',
        tags: ['cypher'],
        params: transactionParams,
        body: bodySchema,
        response: { 200: resultSchema },
      },
    },
    async (request, reply) => {
      const entry = transactions.acquire(request.params.database, request.params.id, ownerOf(request));
      const out = await writerFor(reply);
      const outcome = await runInOpen(entry, statementRequests(request.body), out);
      if (outcome.errors.length > 0) return finishResponse(out, 200, outcome.errors);
      transactions.release(entry);
      return finishResponse(out, 200, [], transactionLinks(request, entry));
    },
  );

  app.post<TransactionRoute>(
    '/db/:database/tx/:id/commit',
    {
      schema: {
        summary: 'Run final statements and commit an open transaction',
        tags: ['cypher'],
        params: transactionParams,
        body: bodySchema,
        response: { 200: resultSchema },
      },
    },
    async (request, reply) => {
      const entry = transactions.acquire(request.params.database, request.params.id, ownerOf(request));
      const out = await writerFor(reply);
      const outcome = await runInOpen(entry, statementRequests(request.body), out);
      if (outcome.errors.length > 0) return finishResponse(out, 200, outcome.errors);
      try {
        const bookmark = await entry.transaction.commit();
        return await finishResponse(out, 200, [], { lastBookmarks: [bookmark] });
      } catch (error) {
        return await finishResponse(out, 200, [statementErrorEntry(error)]);
      } finally {
        await transactions.finish(entry);
      }
    },
  );

  app.delete<{ Params: { database: string; id: string } }>(
    '/db/:database/tx/:id',
    {
      schema: {
        summary: 'Roll back an open transaction',
        tags: ['cypher'],
        params: transactionParams,
        response: { 200: resultSchema },
      },
    },
    async (request, reply) => {
      const entry = transactions.acquire(request.params.database, request.params.id, ownerOf(request));
      try {
        await entry.transaction.rollback();
      } finally {
        await transactions.finish(entry);
      }
      return sendJson(reply, 200, responseJson({ results: [], errors: [] }));
    },
  );
}
