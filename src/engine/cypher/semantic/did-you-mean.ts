/**
 * " Did you mean `a`?" / " Did you mean one of `a`, `b`?" for up to five suggestions, or ''
 * (graphql-js `didYouMean`).
 */
export function didYouMean(suggestions: readonly string[]): string {
  const shown = suggestions.slice(0, 5).map((s) => `\`${s}\``);
  if (shown.length === 0) return '';
  if (shown.length === 1) return ` Did you mean ${shown[0]}?`;
  return ` Did you mean one of ${shown.join(', ')}?`;
}

/** Options close to `input` by edit distance, best first (graphql-js `suggestionList`). */
export function suggestionList(input: string, options: readonly string[]): string[] {
  const lower = input.toLowerCase();
  const threshold = Math.floor(input.length * 0.4) + 1;
  const scored: [string, number][] = [];
  for (const option of options) {
    const distance = option.toLowerCase() === lower ? 0 : editDistance(lower, option.toLowerCase());
    if (distance <= threshold) scored.push([option, distance]);
  }
  return scored.sort((a, b) => a[1] - b[1] || a[0].localeCompare(b[0])).map(([option]) => option);
}

/** Levenshtein distance. */
function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      current[j] = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + cost);
    }
    previous = current;
  }
  return previous[b.length]!;
}
