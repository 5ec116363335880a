/**
 * Route group: `POST /graphdb/search` (hybrid BM25 + vector search fused by RRF, or `text` /
 * `vector` alone) and `POST /graphdb/similar` (nearest nodes to a node's embedding or to a
 * vector), over the engine's search services (`GraphDB.search(database)`).
 *
 * Bodies: search `{query, limit?, labels?, method?, database?, minSimilarity?, mmr?, mmrLambda?,
 * rerank?, queryVector?}`; similar `{nodeId? | vector?, limit?, labels?, minSimilarity?, database?}`.
 * Result nodes are read through a session with the caller's security context (read permission on
 * the database), as `{id, elementId, labels, properties}`. The query is embedded with the global
 * embedder; when its dimensions differ from the database's resolved `embeddings.dimensions` the
 * answer is 400 (`embedding dimension mismatch: ...`).
 */
import type { FastifyInstance, FastifyPluginAsync, FastifyRequest } from 'fastify';
import { ArgumentError, DatabaseNotFound, Node, type GraphDB, type SearchMethod, type CypherValue } from '../../../engine/index.js';
import type { JsonValue } from '../json/parse-json.js';
import { rowJson } from '../json/values-out.js';

/** Options of the search route group. */
export interface SearchRoutesOptions {
  readonly graphdb: GraphDB;
}

type Body = { readonly [key: string]: JsonValue };

const METHODS: readonly SearchMethod[] = ['hybrid', 'text', 'vector'];
const MAX_LIMIT = 1000;
const bodySchema = { type: 'object', additionalProperties: true } as const;

function bodyOf(request: FastifyRequest): Body {
  const body = request.body as JsonValue | undefined;
  if (body === null || body === undefined || typeof body !== 'object' || Array.isArray(body)) {
    throw new ArgumentError('the request body must be a JSON object');
  }
  return body;
}

function optionalString(body: Body, key: string): string | undefined {
  const value = body[key];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string') throw new ArgumentError(`'${key}' must be a string`);
  return value;
}

function optionalInteger(body: Body, key: string, min: number, max: number): number | undefined {
  const value = body[key];
  if (value === undefined || value === null) return undefined;
  const number = typeof value === 'bigint' ? Number(value) : value;
  if (typeof number !== 'number' || !Number.isInteger(number) || number < min || number > max) {
    throw new ArgumentError(`'${key}' must be an integer between ${min} and ${max}`);
  }
  return number;
}

function optionalNumber(body: Body, key: string): number | undefined {
  const value = body[key];
  if (value === undefined || value === null) return undefined;
  const number = typeof value === 'bigint' ? Number(value) : value;
  if (typeof number !== 'number' || !Number.isFinite(number)) throw new ArgumentError(`'${key}' must be a number`);
  return number;
}

function optionalBoolean(body: Body, key: string): boolean | undefined {
  const value = body[key];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'boolean') throw new ArgumentError(`'${key}' must be a boolean`);
  return value;
}

function optionalLabels(body: Body): string[] | undefined {
  const value = body.labels;
  if (value === undefined || value === null) return undefined;
  if (!Array.isArray(value) || !value.every((label) => typeof label === 'string'))
    throw new ArgumentError("'labels' must be a list of strings");
  return value;
}

function optionalVector(body: Body, key: string): number[] | undefined {
  const value = body[key];
  if (value === undefined || value === null) return undefined;
  if (!Array.isArray(value) || value.length === 0) throw new ArgumentError(`'${key}' must be a non-empty list of numbers`);
  return value.map((item) => {
    const number = typeof item === 'bigint' ? Number(item) : item;
    if (typeof number !== 'number' || !Number.isFinite(number)) throw new ArgumentError(`'${key}' must be a list of finite numbers`);
    return number;
  });
}

function optionalNodeId(body: Body): bigint | undefined {
  const value = body.nodeId;
  if (value === undefined || value === null) return undefined;
  if (typeof value === 'bigint') return value;
  if (typeof value === 'string' && /^\d+$/.test(value)) return BigInt(value);
  throw new ArgumentError("'nodeId' must be an integer (or its decimal text)");
}

function nodeJson(node: Node): string {
  return `{"id":${node.id},"elementId":${JSON.stringify(node.elementId)},"labels":${JSON.stringify(node.labels)},"properties":${rowJson(node.properties)}}`;
}

/** The search route group for `buildHttpServer({ routes })`. */
export function searchRoutes(options: SearchRoutesOptions): FastifyPluginAsync {
  return async (app: FastifyInstance) => {
    const { graphdb } = options;
    const services = app.graphdb;

    const databaseFor = (request: FastifyRequest, body: Body): string => {
      const database = (optionalString(body, 'database') ?? graphdb.defaultDatabase).toLowerCase();
      if (!services.engine.hasDatabase(database)) throw new DatabaseNotFound(database);
      request.security.authorize?.(database, 'read');
      return database;
    };

    /** The nodes with these ids, read with the caller's rights; missing (deleted) ones are absent. */
    const loadNodes = async (request: FastifyRequest, database: string, ids: readonly bigint[]): Promise<Map<bigint, Node>> => {
      const found = new Map<bigint, Node>();
      if (ids.length === 0) return found;
      const session = services.engine.session({ database, security: request.security });
      try {
        const result = await session.run('MATCH (n) WHERE id(n) IN $ids RETURN n', new Map<string, CypherValue>([['ids', [...ids]]]));
        const { records } = await result.pull(-1);
        for (const record of records) {
          const node = record[0];
          if (node instanceof Node) found.set(node.id, node);
        }
      } finally {
        await session.close();
      }
      return found;
    };

    /** 400 when the global embedder's dimensions differ from the database's resolved dimensions. */
    const checkDimensions = (database: string): void => {
      const embedder = graphdb.searchServices?.manager.embedder ?? null;
      if (embedder === null) return;
      const resolved = services.config.effectiveConfig(database).embeddings.dimensions;
      const produced = embedder.dimensions ?? services.config.global.embeddings.dimensions;
      if (resolved > 0 && produced > 0 && resolved !== produced) {
        throw new ArgumentError(
          `embedding dimension mismatch: the configured embedder produces ${produced}-dimensional vectors but database ${database} is configured for ${resolved} dimensions`,
        );
      }
    };

    app.post(
      '/graphdb/search',
      {
        schema: {
          summary: 'Hybrid search (BM25 + vectors fused by RRF); method text or vector for one list',
          tags: ['search'],
          body: bodySchema,
        },
      },
      async (request, reply) => {
        const body = bodyOf(request);
        const query = optionalString(body, 'query');
        if (query === undefined) throw new ArgumentError("'query' is required");
        const method = optionalString(body, 'method')?.toLowerCase() ?? 'hybrid';
        if (!METHODS.includes(method as SearchMethod)) throw new ArgumentError(`'method' must be one of ${METHODS.join(', ')}`);
        const database = databaseFor(request, body);
        const queryVector = optionalVector(body, 'queryVector');
        if (method !== 'text' && queryVector === undefined) checkDimensions(database);
        const minSimilarity = optionalNumber(body, 'minSimilarity') ?? optionalNumber(body, 'min_similarity');
        const mmr = optionalBoolean(body, 'mmr');
        const mmrLambda = optionalNumber(body, 'mmrLambda');
        const rerank = optionalBoolean(body, 'rerank');
        const labels = optionalLabels(body);
        const diagnose = services.config.global.search.diag_timings;
        const searchStarted = performance.now();
        const page = await graphdb.search(database).search({
          query,
          limit: optionalInteger(body, 'limit', 1, MAX_LIMIT) ?? 10,
          method: method as SearchMethod,
          ...(labels !== undefined ? { labels } : {}),
          ...(minSimilarity !== undefined ? { minSimilarity } : {}),
          ...(mmr !== undefined ? { mmr } : {}),
          ...(mmrLambda !== undefined ? { mmrLambda } : {}),
          ...(rerank !== undefined ? { rerank } : {}),
          ...(queryVector !== undefined ? { queryVector } : {}),
        });
        const loadStarted = performance.now();
        const nodes = await loadNodes(
          request,
          database,
          page.results.map((r) => r.nodeId),
        );
        const serializeStarted = performance.now();
        const items: string[] = [];
        for (const result of page.results) {
          const node = nodes.get(result.nodeId);
          if (node === undefined) continue;
          const scores = JSON.stringify({
            score: result.score,
            rrfScore: result.rrfScore,
            textScore: result.textScore,
            textRank: result.textRank,
            similarity: result.similarity,
            vectorRank: result.vectorRank,
            rerankScore: result.rerankScore,
          });
          items.push(`{"node":${nodeJson(node)},${scores.slice(1)}`);
        }
        const tail = JSON.stringify({
          totalCount: items.length,
          executionTimeMs: page.executionTimeMs,
          method: page.method,
          cached: page.cached,
        });
        if (diagnose) {
          const done = performance.now();
          request.log.info(
            {
              database,
              method: page.method,
              results: items.length,
              cached: page.cached,
              searchMs: loadStarted - searchStarted,
              loadNodesMs: serializeStarted - loadStarted,
              serializeMs: done - serializeStarted,
              totalMs: done - searchStarted,
            },
            'search handler timings',
          );
        }
        return reply.type('application/json; charset=utf-8').send(`{"results":[${items.join(',')}],${tail.slice(1)}`);
      },
    );

    app.post(
      '/graphdb/similar',
      {
        schema: {
          summary: "Nodes most similar to a node's embedding (nodeId) or to a vector",
          tags: ['search'],
          body: bodySchema,
        },
      },
      async (request, reply) => {
        const body = bodyOf(request);
        const database = databaseFor(request, body);
        const nodeId = optionalNodeId(body);
        const vector = optionalVector(body, 'vector');
        if ((nodeId === undefined) === (vector === undefined)) throw new ArgumentError("give exactly one of 'nodeId' and 'vector'");
        const minSimilarity = optionalNumber(body, 'minSimilarity') ?? optionalNumber(body, 'threshold');
        const labels = optionalLabels(body);
        const hits = graphdb.search(database).similar({
          ...(nodeId !== undefined ? { nodeId } : {}),
          ...(vector !== undefined ? { vector } : {}),
          limit: optionalInteger(body, 'limit', 1, MAX_LIMIT) ?? 10,
          ...(labels !== undefined ? { labels } : {}),
          ...(minSimilarity !== undefined ? { minSimilarity } : {}),
        });
        const nodes = await loadNodes(
          request,
          database,
          hits.map((hit) => hit.nodeId),
        );
        const items: string[] = [];
        for (const hit of hits) {
          const node = nodes.get(hit.nodeId);
          if (node !== undefined)
            items.push(`{"node":${nodeJson(node)},"similarity":${JSON.stringify(hit.score)},"raw":${JSON.stringify(hit.raw)}}`);
        }
        return reply.type('application/json; charset=utf-8').send(`{"results":[${items.join(',')}],"totalCount":${items.length}}`);
      },
    );
  };
}
