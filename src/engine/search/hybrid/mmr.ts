/**
 * Maximal marginal relevance: re-orders candidates to balance relevance against redundancy.
 * Each step picks argmax( lambda * relevance(c) - (1 - lambda) * max_sim(c, selected) ).
 */
import { cosineSimilarity } from '../vector/similarity.js';

/** A candidate for MMR: its relevance (any monotone score) and vector (null = never redundant). */
export interface MmrCandidate<T> {
  readonly id: T;
  readonly relevance: number;
  readonly vector: ArrayLike<number> | null;
}

/** Selects up to `limit` candidates in MMR order. `lambda` 1 = pure relevance, 0 = pure diversity. */
export function maximalMarginalRelevance<T>(candidates: readonly MmrCandidate<T>[], limit: number, lambda = 0.7): T[] {
  if (candidates.length === 0) return [];
  const maxRelevance = Math.max(...candidates.map((c) => c.relevance)) || 1;
  const remaining = [...candidates];
  const selected: MmrCandidate<T>[] = [];
  while (selected.length < limit && remaining.length > 0) {
    let bestIndex = 0;
    let bestValue = -Infinity;
    remaining.forEach((candidate, index) => {
      let redundancy = 0;
      if (candidate.vector !== null) {
        for (const chosen of selected) {
          if (chosen.vector !== null) redundancy = Math.max(redundancy, cosineSimilarity(candidate.vector, chosen.vector));
        }
      }
      const value = lambda * (candidate.relevance / maxRelevance) - (1 - lambda) * redundancy;
      if (value > bestValue) {
        bestValue = value;
        bestIndex = index;
      }
    });
    selected.push(remaining.splice(bestIndex, 1)[0]!);
  }
  return selected.map((c) => c.id);
}
