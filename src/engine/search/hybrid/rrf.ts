/**
 * Reciprocal rank fusion: each ranked list contributes 1 / (k + rank) for every item it holds
 * (rank 1-based). Items missing from a list get nothing from it. k = 60 (Cormack et al.).
 */

/** The RRF constant (k = 60, docs/search.md). */
export const RRF_K = 60;

/** One fused item with its RRF score and its 1-based rank in each input list (null when absent). */
export interface FusedItem<T> {
  readonly id: T;
  readonly rrfScore: number;
  readonly ranks: readonly (number | null)[];
}

/** Fuses ranked id lists (best first). Ties are broken by best single rank, then first-seen order. */
export function reciprocalRankFusion<T>(lists: readonly (readonly T[])[], k = RRF_K): FusedItem<T>[] {
  const fused = new Map<T, { rrfScore: number; ranks: (number | null)[]; order: number }>();
  lists.forEach((list, listIndex) => {
    list.forEach((id, position) => {
      let entry = fused.get(id);
      if (entry === undefined) {
        entry = { rrfScore: 0, ranks: lists.map(() => null), order: fused.size };
        fused.set(id, entry);
      }
      if (entry.ranks[listIndex] !== null) return;
      entry.ranks[listIndex] = position + 1;
      entry.rrfScore += 1 / (k + position + 1);
    });
  });
  const bestRank = (ranks: (number | null)[]): number => Math.min(...ranks.map((r) => r ?? Infinity));
  return [...fused.entries()]
    .sort(([, a], [, b]) => b.rrfScore - a.rrfScore || bestRank(a.ranks) - bestRank(b.ranks) || a.order - b.order)
    .map(([id, { rrfScore, ranks }]) => ({ id, rrfScore, ranks }));
}
