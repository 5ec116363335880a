/**
 * The hybrid search pipeline: BM25 and vector candidate lists -> RRF (k = 60) -> optional MMR ->
 * optional stage-2 rerank -> limit. Pure with respect to its inputs (the indexes and callbacks).
 */
import type { RerankStage } from '../rerank/reranker.js';
import type { TextIndex } from '../text/text-index.js';
import type { TextQuery } from '../text/query-parser.js';
import { analyze } from '../text/analyzer.js';
import type { VectorCollection } from '../vector/vector-collection.js';
import { maximalMarginalRelevance } from './mmr.js';
import { reciprocalRankFusion } from './rrf.js';

/** How to search. */
export type SearchMethod = 'hybrid' | 'text' | 'vector';

/** One search result. `score` is the rerank score when reranked, else `rrfScore`. */
export interface SearchResultItem {
  readonly nodeId: bigint;
  readonly score: number;
  readonly rrfScore: number;
  /** BM25 score and 1-based rank in the text list, when the node was there. */
  readonly textScore: number | null;
  readonly textRank: number | null;
  /** Raw similarity (cosine, or squared distance for euclidean) and rank in the vector list. */
  readonly similarity: number | null;
  readonly vectorRank: number | null;
  readonly rerankScore: number | null;
}

/** Inputs of one pipeline run. */
export interface HybridInputs {
  readonly query: string;
  readonly limit: number;
  readonly method: SearchMethod;
  readonly text: TextIndex;
  readonly vectors: VectorCollection | null;
  /** Query embedding, when a vector list is wanted and an embedder exists. */
  readonly queryVector: Float32Array | null;
  readonly minSimilarity: number;
  readonly filter?: (nodeId: bigint) => boolean;
  readonly mmr: boolean;
  readonly mmrLambda?: number;
  readonly rerank: RerankStage | null;
  readonly documentText: (nodeId: bigint) => string;
}

/** Candidates taken from each list before fusion. */
export function candidateDepth(limit: number): number {
  return Math.max(50, limit * 4);
}

/** A natural-language query as a BM25 OR-query over its analyzed terms (no operator syntax). */
export function plainTextQuery(query: string): TextQuery {
  const terms = [...new Set(analyze(query))];
  return { kind: 'bool', should: terms.map((term) => ({ kind: 'term', term })), must: [], mustNot: [] };
}

/** Runs the pipeline. */
export async function hybridSearch(inputs: HybridInputs): Promise<SearchResultItem[]> {
  const depth = candidateDepth(inputs.limit);
  const textHits = inputs.method === 'vector' ? [] : inputs.text.search(plainTextQuery(inputs.query), depth, inputs.filter);
  const vectorHits =
    inputs.method === 'text' || inputs.vectors === null || inputs.queryVector === null || inputs.vectors.size === 0
      ? []
      : inputs.vectors
          .search(inputs.queryVector, depth, inputs.filter)
          .filter((hit) => inputs.vectors!.similarity !== 'cosine' || hit.raw >= inputs.minSimilarity);
  const textScore = new Map(textHits.map((hit) => [hit.nodeId, hit.score]));
  const similarity = new Map(vectorHits.map((hit) => [hit.nodeId, hit.raw]));
  let fused = reciprocalRankFusion([textHits.map((h) => h.nodeId), vectorHits.map((h) => h.nodeId)]);
  if (inputs.mmr && inputs.vectors !== null) {
    const byId = new Map(fused.map((item) => [item.id, item]));
    const order = maximalMarginalRelevance(
      fused.map((item) => ({ id: item.id, relevance: item.rrfScore, vector: inputs.vectors!.vectorOf(item.id) })),
      Math.min(fused.length, depth),
      inputs.mmrLambda,
    );
    fused = order.map((id) => byId.get(id)!);
  }
  const page = fused.slice(0, Math.max(inputs.limit, inputs.rerank !== null ? Math.min(fused.length, depth) : 0));
  const reranked =
    inputs.rerank === null
      ? page.map((item) => ({ item, score: null }))
      : await inputs.rerank.apply(inputs.query, page, (item) => inputs.documentText(item.id));
  return reranked.slice(0, inputs.limit).map(({ item, score }) => ({
    nodeId: item.id,
    score: score ?? item.rrfScore,
    rrfScore: item.rrfScore,
    textScore: textScore.get(item.id) ?? null,
    textRank: item.ranks[0] ?? null,
    similarity: similarity.get(item.id) ?? null,
    vectorRank: item.ranks[1] ?? null,
    rerankScore: score,
  }));
}
