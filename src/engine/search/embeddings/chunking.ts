/**
 * Splits long text into overlapping chunks on whitespace, so each fits a model's context.
 * Sizes are in characters (about 4 per token for English); chunks overlap so a sentence cut at a
 * boundary still appears whole in one of them.
 */

/** Chunk size and overlap, in characters. */
export interface ChunkOptions {
  readonly maxChars: number;
  readonly overlapChars: number;
}

/** Defaults sized for 512-token embedding models. */
export const DEFAULT_CHUNKING: ChunkOptions = { maxChars: 1600, overlapChars: 200 };

/** The chunks of `text` (one chunk when it is short enough). */
export function chunkText(text: string, options: ChunkOptions = DEFAULT_CHUNKING): string[] {
  const { maxChars } = options;
  const overlap = Math.min(options.overlapChars, Math.floor(maxChars / 2));
  if (text.length <= maxChars) return [text];
  const chunks: string[] = [];
  let start = 0;
  while (start < text.length) {
    let end = Math.min(text.length, start + maxChars);
    if (end < text.length) {
      const space = text.lastIndexOf(' ', end);
      if (space > start + maxChars / 2) end = space;
    }
    chunks.push(text.slice(start, end).trim());
    if (end >= text.length) break;
    let next = end - overlap;
    const space = text.indexOf(' ', next);
    if (space >= 0 && space < end) next = space + 1;
    start = Math.max(next, start + 1);
  }
  return chunks.filter((chunk) => chunk.length > 0);
}

/** Mean of chunk vectors, scaled to unit length: one vector per node. */
export function poolChunks(vectors: readonly Float32Array[]): Float32Array {
  const out = new Float32Array(vectors[0]!.length);
  for (const vector of vectors) for (let i = 0; i < out.length; i++) out[i]! += vector[i]!;
  let length = 0;
  for (let i = 0; i < out.length; i++) length += out[i]! * out[i]!;
  length = Math.sqrt(length);
  if (length > 0) for (let i = 0; i < out.length; i++) out[i]! /= length;
  return out;
}
