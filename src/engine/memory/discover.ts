/**
 * `discover`: hybrid search over memories (BM25 + vectors fused by RRF through the database's
 * search services; a Cypher text match when none is reachable), ranked with the decay score,
 * then expanded 1-3 hops through the graph. Archived memories are not in the search indexes and
 * are skipped by the expansion. `findSimilar` gives `store` its suggestions the same way.
 */
import type { CypherValue } from '../values/types.js';
import { ARCHIVED_LABEL } from './decay-model.js';
import { cypherToJson, type JsonValue } from './json-values.js';
import { MEMORY_LABEL, type MemoryToolHost } from './tool-host.js';
import {
  boundedInteger,
  memoryJson,
  memoryProjection,
  optionalNumber,
  type MemoryJson,
  optionalString,
  optionalStrings,
  quoted,
  requiredString,
  type Args,
} from './tool-args.js';

/** Search hits before ranking. */
interface Hits {
  readonly method: string;
  readonly scores: ReadonlyMap<bigint, number>;
  /** Cosine similarity of vector hits. */
  readonly similarity?: ReadonlyMap<bigint, number>;
}

const MAX_QUERY_CHARS = 1000;

async function searchHits(host: MemoryToolHost, query: string, candidates: number, labels: readonly string[]): Promise<Hits> {
  const search = host.search();
  const text = query.slice(0, MAX_QUERY_CHARS);
  if (search !== null) {
    const page = await search.search({ query: text, limit: candidates, labels: labels.length > 0 ? labels : [MEMORY_LABEL] });
    const vector = page.results.some((hit) => hit.similarity !== null);
    const lexical = page.results.some((hit) => hit.textRank !== null);
    const method =
      vector && lexical ? 'hybrid (bm25 + vector, rrf)' : vector ? 'vector' : 'bm25 (no vector hits: embeddings disabled or pending)';
    return {
      method,
      scores: new Map(page.results.map((hit) => [hit.nodeId, hit.score])),
      similarity: new Map(page.results.flatMap((hit) => (hit.similarity === null ? [] : [[hit.nodeId, hit.similarity] as const]))),
    };
  }
  const words = [
    ...new Set(
      text
        .toLowerCase()
        .split(/[^\p{L}\p{N}]+/u)
        .filter((word) => word.length > 1),
    ),
  ].slice(0, 32);
  const label = quoted(labels[0] ?? MEMORY_LABEL);
  const { rows } = await host.cypher.run(
    `MATCH (m:${label}) WHERE NOT m:${ARCHIVED_LABEL} WITH m, toLower(coalesce(m.title, '') + ' ' + coalesce(m.content, '')) AS body ` +
      'WITH m, size([w IN $words WHERE body CONTAINS w]) AS matched WHERE matched > 0 ' +
      'RETURN id(m), toFloat(matched) / size($words) ORDER BY matched DESC, id(m) DESC LIMIT $limit',
    new Map<string, CypherValue>([
      ['words', words],
      ['limit', BigInt(candidates)],
    ]),
    { mode: 'READ' },
  );
  return { method: 'text-match (no search services reachable)', scores: new Map(rows.map((row) => [row[0] as bigint, Number(row[1])])) };
}

/** Memories most similar to `content`, other than `selfId` (store's suggestions). */
export async function findSimilar(host: MemoryToolHost, content: string, selfId: number): Promise<JsonValue[]> {
  const hits = await searchHits(host, content, 4, [MEMORY_LABEL]);
  const ids = [...hits.scores.keys()].filter((id) => Number(id) !== selfId);
  if (ids.length === 0) return [];
  const { rows } = await host.cypher.run(
    `MATCH (m:${MEMORY_LABEL}) WHERE id(m) IN $ids AND NOT m:${ARCHIVED_LABEL} RETURN id(m), m.title`,
    new Map<string, CypherValue>([['ids', ids]]),
    { mode: 'READ' },
  );
  return rows
    .map((row) => ({
      id: cypherToJson(row[0] ?? null),
      title: cypherToJson(row[1] ?? null),
      score: round(hits.scores.get(row[0] as bigint) ?? 0),
    }))
    .sort((a, b) => b.score - a.score)
    .slice(0, 3);
}

function round(value: number): number {
  return Math.round(value * 1000) / 1000;
}

/** Runs `discover`. */
export async function discover(host: MemoryToolHost, args: Args): Promise<JsonValue> {
  const query = requiredString(args, 'query');
  const depth = boundedInteger(args, 'depth', 1, 1, 3);
  const limit = boundedInteger(args, 'limit', 5, 1, 20);
  const type = optionalString(args, 'type')?.toLowerCase() ?? null;
  const weight = optionalNumber(args, 'decay_weight', 0, 1) ?? host.decayWeight;
  const hits = await searchHits(host, query, limit * 3, optionalStrings(args, 'labels'));
  const ids = [...hits.scores.keys()];
  const { rows } = await host.cypher.run(
    `MATCH (m:${MEMORY_LABEL}) WHERE id(m) IN $ids AND NOT m:${ARCHIVED_LABEL} AND ($type IS NULL OR m.type = $type) RETURN ${memoryProjection('m')}`,
    new Map<string, CypherValue>([
      ['ids', ids],
      ['type', type],
    ]),
    { mode: 'READ' },
  );
  const best = Math.max(0, ...hits.scores.values());
  const ranked = rows
    .map((row): MemoryJson & { score: number } => {
      const memory = memoryJson(row[0]);
      const relevance = best > 0 ? (hits.scores.get(BigInt(memory.id as number)) ?? 0) / best : 0;
      const decay = typeof memory.decay === 'number' ? memory.decay : 1;
      const similarity = hits.similarity?.get(BigInt(memory.id as number));
      return {
        ...memory,
        relevance: round(relevance),
        ...(similarity === undefined ? {} : { similarity: round(similarity) }),
        score: round((1 - weight) * relevance + weight * decay),
      };
    })
    .sort((a, b) => b.score - a.score)
    .slice(0, limit);
  const seeds = ranked.map((memory) => BigInt(memory.id as number));
  const related = seeds.length === 0 ? [] : await expand(host, seeds, depth);
  return {
    method: hits.method,
    ranking: weight > 0 ? `search relevance x ${round(1 - weight)} + decay score x ${round(weight)}` : 'search relevance',
    depth,
    count: ranked.length,
    results: ranked,
    related,
  };
}

/** Memories within `depth` hops of the seeds (not the seeds, not archived), nearest first. */
async function expand(host: MemoryToolHost, seeds: readonly bigint[], depth: number): Promise<JsonValue[]> {
  const { rows } = await host.cypher.run(
    `MATCH (s:${MEMORY_LABEL}) WHERE id(s) IN $ids MATCH p = (s)-[*1..${depth}]-(o:${MEMORY_LABEL}) ` +
      `WHERE NOT o:${ARCHIVED_LABEL} AND NOT id(o) IN $ids ` +
      'WITH o, min(length(p)) AS distance, collect(DISTINCT id(s))[..3] AS reached_from ' +
      'RETURN {id: id(o), title: o.title, type: o.type, status: o.status}, distance, reached_from ORDER BY distance, id(o) LIMIT 50',
    new Map<string, CypherValue>([['ids', [...seeds]]]),
    { mode: 'READ' },
  );
  return rows.map((row) => ({ ...memoryJson(row[0]), distance: cypherToJson(row[1] ?? null), reached_from: cypherToJson(row[2] ?? []) }));
}
