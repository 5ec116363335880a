/**
 * Route group: Neo4j's Query API v2, as Neo4j 5 documents it.
 *
 * - `POST /db/{db}/query/v2` runs one statement in an auto-commit transaction.
 * - `POST /db/{db}/query/v2/tx` begins an explicit transaction (optionally running a statement);
 *   `POST .../tx/{id}` runs a statement in it, `POST .../tx/{id}/commit` commits (optionally after
 *   a last statement), `DELETE .../tx/{id}` rolls back. Transactions are the HTTP API's open
 *   transactions: unguessable ids, owned by the principal that opened them, expiring when idle.
 *
 * Body: `{statement, parameters?, includeCounters?, bookmarks?, accessMode?: 'READ' | 'WRITE'}`.
 * `Content-Type`/`Accept: application/vnd.neo4j.query` switch requests and responses to typed
 * JSON (see json/query-api-values.ts). Success is 202 with `{data: {fields, values}, bookmarks,
 * counters?, notifications?, transaction?}`; errors are `{errors: [{code, message}]}` with a 4xx
 * status (a failing statement also rolls back its explicit transaction). Same auth as the rest.
 * `X-Graphdb-As-Of-Version` / `X-Graphdb-As-Of-Time` headers make the auto-commit statement or the
 * transaction begun a read-only temporal read (docs/temporal-reads.md).
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import {
  ArgumentError,
  DatabaseNotFound,
  type ResultStream,
  type ResultSummary,
  type Session,
  type TransactionOptions,
  type CypherValue,
  isMap,
} from '../../../engine/index.js';
import { JsonSyntaxError, parseJson, type JsonValue } from '../json/parse-json.js';
import { plainJson, plainToCypher, typedJson, typedToCypher, type DeferredParameter } from '../json/query-api-values.js';
import type { OpenTransaction } from '../tx/open-transactions.js';
import { asOfOf } from '../temporal-headers.js';
import { httpClientInfo } from '../client-info.js';

const TYPED = 'application/vnd.neo4j.query';
const PULL_BATCH = 1000;

interface QueryBody {
  readonly statement?: string;
  readonly parameters?: JsonValue;
  readonly includeCounters?: boolean;
  readonly bookmarks?: readonly string[];
  readonly accessMode?: string;
}

function bodyOf(request: FastifyRequest, required: boolean): QueryBody {
  const body = (request.body ?? {}) as QueryBody;
  if (typeof body !== 'object' || Array.isArray(body)) throw new ArgumentError('The request body must be a JSON object');
  if (required && typeof body.statement !== 'string') throw new ArgumentError('The request body needs a "statement" string');
  if (body.statement !== undefined && typeof body.statement !== 'string') throw new ArgumentError('"statement" must be a string');
  if (body.accessMode !== undefined && body.accessMode !== 'READ' && body.accessMode !== 'WRITE') {
    throw new ArgumentError('"accessMode" must be READ or WRITE');
  }
  return body;
}

function wantsTyped(request: FastifyRequest): boolean {
  return String(request.headers.accept ?? '').includes(TYPED);
}

function sentTyped(request: FastifyRequest): boolean {
  return String(request.headers['content-type'] ?? '').includes(TYPED);
}

function countersJson(summary: ResultSummary): string {
  const c = summary.counters;
  return JSON.stringify({
    containsUpdates: c.containsUpdates,
    nodesCreated: c.nodesCreated,
    nodesDeleted: c.nodesDeleted,
    propertiesSet: c.propertiesSet,
    relationshipsCreated: c.relationshipsCreated,
    relationshipsDeleted: c.relationshipsDeleted,
    labelsAdded: c.labelsAdded,
    labelsRemoved: c.labelsRemoved,
    indexesAdded: c.indexesAdded,
    indexesRemoved: c.indexesRemoved,
    constraintsAdded: c.constraintsAdded,
    constraintsRemoved: c.constraintsRemoved,
    containsSystemUpdates: c.systemUpdates > 0,
    systemUpdates: c.systemUpdates,
  });
}

/** Pulls a result to the end and renders the `data` part (plus counters and notifications). */
async function resultParts(stream: ResultStream, typed: boolean, includeCounters: boolean): Promise<string[]> {
  const encode = typed ? typedJson : plainJson;
  const values: string[] = [];
  for (;;) {
    const { records, hasMore } = await stream.pull(PULL_BATCH);
    for (const record of records) values.push(`[${record.map(encode).join(',')}]`);
    if (!hasMore) break;
  }
  const summary = stream.summary();
  const parts = [`"data":{"fields":${JSON.stringify(stream.keys)},"values":[${values.join(',')}]}`];
  if (summary.notifications.length > 0) parts.push(`"notifications":${JSON.stringify(summary.notifications)}`);
  if (includeCounters) parts.push(`"counters":${countersJson(summary)}`);
  return parts;
}

function send(reply: FastifyReply, status: number, typed: boolean, parts: readonly string[]): FastifyReply {
  return reply
    .status(status)
    .type(typed ? TYPED : 'application/json')
    .send(`{${parts.join(',')}}`);
}

/** Registers the Query API routes. */
export async function queryApiRoutes(app: FastifyInstance): Promise<void> {
  const services = app.graphdb;
  const { engine, transactions } = services;

  app.addContentTypeParser(TYPED, { parseAs: 'string' }, (_request, body, done) => {
    try {
      done(null, (body as string).trim() === '' ? undefined : parseJson(body as string));
    } catch (error) {
      const reason = error instanceof JsonSyntaxError ? error.message : String(error);
      done(
        Object.assign(new Error(`Unable to deserialize request: ${reason}`), { statusCode: 400, code: 'FST_ERR_INVALID_JSON' }),
        undefined,
      );
    }
  });

  const openSession = (request: FastifyRequest, database: string, body: QueryBody): Session => {
    if (!engine.hasDatabase(database)) throw new DatabaseNotFound(database);
    const client = httpClientInfo(request);
    return engine.session({ database, security: request.security, client, ...(body.bookmarks ? { bookmarks: [...body.bookmarks] } : {}) });
  };

  /** Request parameters as Cypher values; typed temporal and point values are parsed by the engine. */
  const parametersOf = async (request: FastifyRequest, body: QueryBody, session: Session): Promise<ReadonlyMap<string, CypherValue>> => {
    const raw = body.parameters;
    if (raw === undefined || raw === null) return new Map();
    if (typeof raw !== 'object' || Array.isArray(raw)) throw new ArgumentError('"parameters" must be an object');
    if (!sentTyped(request)) return plainToCypher(raw) as ReadonlyMap<string, CypherValue>;
    const deferred: DeferredParameter[] = [];
    const marker = (parameter: DeferredParameter): CypherValue => `\u0000typed:${deferred.push(parameter) - 1}`;
    const parameters = new Map(Object.entries(raw).map(([key, value]) => [key, typedToCypher(value, marker)] as const));
    if (deferred.length === 0) return parameters;
    const texts = new Map<string, CypherValue>(deferred.map((d, i) => [`t${i}`, d.function === 'point' ? wktMap(d.text) : d.text]));
    const expression = deferred.map((d, i) => `${d.function}($t${i})`).join(', ');
    const result = await session.run(`RETURN [${expression}] AS v`, texts);
    const parsed = (await result.pull(-1)).records[0]![0] as CypherValue[];
    const substitute = (value: CypherValue): CypherValue => {
      if (typeof value === 'string' && value.startsWith('\u0000typed:')) return parsed[Number(value.slice(7))]!;
      if (Array.isArray(value)) return value.map(substitute);
      if (isMap(value)) return new Map([...value].map(([k, v]) => [k, substitute(v)]));
      return value;
    };
    return new Map([...parameters].map(([k, v]) => [k, substitute(v)]));
  };

  const options = (request: FastifyRequest, body: QueryBody): TransactionOptions => {
    const asOf = asOfOf(request);
    return {
      ...(asOf === undefined ? {} : { asOf }),
      ...(body.accessMode ? { mode: body.accessMode as 'READ' | 'WRITE' } : {}),
      ...(services.config.global.server.statement_timeout > 0 ? { timeoutMs: services.config.global.server.statement_timeout } : {}),
    };
  };

  const expiry = (entry: OpenTransaction): string =>
    `"transaction":${JSON.stringify({ id: entry.id, expires: new Date(entry.expiresAt).toISOString() })}`;

  /** Runs the body's statement (if any) in an open transaction; a failure rolls it back. */
  const runIn = async (request: FastifyRequest, entry: OpenTransaction, body: QueryBody): Promise<string[]> => {
    if (body.statement === undefined) return [];
    try {
      const parameters = await parametersOf(request, body, entry.session);
      const stream = await entry.transaction.run(body.statement, parameters);
      return await resultParts(stream, wantsTyped(request), body.includeCounters === true);
    } catch (error) {
      try {
        if (entry.transaction.isOpen) await entry.transaction.rollback();
      } finally {
        await transactions.finish(entry);
      }
      throw error;
    }
  };

  app.post<{ Params: { database: string } }>('/db/:database/query/v2', async (request, reply) => {
    const body = bodyOf(request, true);
    const session = openSession(request, request.params.database, body);
    try {
      const parameters = await parametersOf(request, body, session);
      const stream = await session.run(body.statement!, parameters, options(request, body));
      const parts = await resultParts(stream, wantsTyped(request), body.includeCounters === true);
      const bookmark = session.lastBookmark();
      return send(reply, 202, wantsTyped(request), [...parts, `"bookmarks":${JSON.stringify(bookmark === null ? [] : [bookmark])}`]);
    } finally {
      await session.close();
    }
  });

  app.post<{ Params: { database: string } }>('/db/:database/query/v2/tx', async (request, reply) => {
    const body = bodyOf(request, false);
    const { database } = request.params;
    const session = openSession(request, database, body);
    let entry: OpenTransaction;
    try {
      entry = transactions.add(database, request.security.username, session, await session.beginTransaction(options(request, body)));
    } catch (error) {
      await session.close();
      throw error;
    }
    entry.busy = true;
    const parts = await runIn(request, entry, body);
    transactions.release(entry);
    return send(reply, 202, wantsTyped(request), [...parts, expiry(entry)]);
  });

  app.post<{ Params: { database: string; id: string } }>('/db/:database/query/v2/tx/:id', async (request, reply) => {
    const body = bodyOf(request, true);
    const entry = transactions.acquire(request.params.database, request.params.id, request.security.username);
    const parts = await runIn(request, entry, body);
    transactions.release(entry);
    return send(reply, 202, wantsTyped(request), [...parts, expiry(entry)]);
  });

  app.post<{ Params: { database: string; id: string } }>('/db/:database/query/v2/tx/:id/commit', async (request, reply) => {
    const body = bodyOf(request, false);
    const entry = transactions.acquire(request.params.database, request.params.id, request.security.username);
    const parts = await runIn(request, entry, body);
    try {
      const bookmark = await entry.transaction.commit();
      return send(reply, 202, wantsTyped(request), [...parts, `"bookmarks":${JSON.stringify([bookmark])}`]);
    } finally {
      await transactions.finish(entry);
    }
  });

  app.delete<{ Params: { database: string; id: string } }>('/db/:database/query/v2/tx/:id', async (request, reply) => {
    const entry = transactions.acquire(request.params.database, request.params.id, request.security.username);
    try {
      await entry.transaction.rollback();
    } finally {
      await transactions.finish(entry);
    }
    return send(reply, 200, wantsTyped(request), []);
  });
}

/** `SRID=4326;POINT (x y)` (or `POINT Z (x y z)`) as the map `point()` takes. */
function wktMap(text: string): Map<string, CypherValue> {
  const match = /^\s*SRID=(\d+)\s*;\s*POINT\s*(?:Z\s*)?\(\s*([-+\d.eE]+)\s+([-+\d.eE]+)(?:\s+([-+\d.eE]+))?\s*\)\s*$/i.exec(text);
  if (match === null) throw new ArgumentError(`Invalid Point value: ${JSON.stringify(text)} (expected 'SRID=n;POINT (x y)')`);
  const map = new Map<string, CypherValue>([
    ['srid', BigInt(match[1]!)],
    ['x', Number(match[2])],
    ['y', Number(match[3])],
  ]);
  if (match[4] !== undefined) map.set('z', Number(match[4]));
  return map;
}
