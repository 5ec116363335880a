/**
 * Vector similarity functions and the 0..1 scores Neo4j's vector indexes report:
 * cosine -> (1 + cos) / 2, euclidean -> 1 / (1 + squared distance).
 */

/** Similarity function of a vector collection (Neo4j's `vector.similarity_function`). */
export type SimilarityFunction = 'cosine' | 'euclidean';

/** Dot product of two equal-length vectors. */
export function dot(a: ArrayLike<number>, b: ArrayLike<number>, bOffset = 0): number {
  let sum = 0;
  for (let i = 0; i < a.length; i++) sum += a[i]! * b[bOffset + i]!;
  return sum;
}

/** Squared euclidean distance. */
export function squaredDistance(a: ArrayLike<number>, b: ArrayLike<number>, bOffset = 0): number {
  let sum = 0;
  for (let i = 0; i < a.length; i++) {
    const diff = a[i]! - b[bOffset + i]!;
    sum += diff * diff;
  }
  return sum;
}

/** Euclidean norm. */
export function norm(a: ArrayLike<number>): number {
  return Math.sqrt(dot(a, a));
}

/** Cosine similarity in -1..1 (0 when either vector is zero). */
export function cosineSimilarity(a: ArrayLike<number>, b: ArrayLike<number>): number {
  const denominator = norm(a) * norm(b);
  return denominator === 0 ? 0 : dot(a, b) / denominator;
}

/** A copy scaled to unit length (zero vectors stay zero). */
export function normalized(vector: ArrayLike<number>): Float32Array {
  const out = Float32Array.from(vector);
  const length = norm(out);
  if (length > 0) for (let i = 0; i < out.length; i++) out[i]! /= length;
  return out;
}

/**
 * Converts the raw comparison value into Neo4j's 0..1 score: `raw` is the cosine for cosine
 * collections and the squared distance for euclidean ones.
 */
export function scoreOf(similarity: SimilarityFunction, raw: number): number {
  return similarity === 'cosine' ? Math.min(1, Math.max(0, (1 + raw) / 2)) : 1 / (1 + raw);
}

/** Dot product of `query` with `data[offset .. offset + d)`, unrolled by four (the exact-scan hot loop). */
export function dotF32(query: Float32Array, data: Float32Array, offset: number, d: number): number {
  let s0 = 0;
  let s1 = 0;
  let s2 = 0;
  let s3 = 0;
  let i = 0;
  for (; i + 3 < d; i += 4) {
    s0 += query[i]! * data[offset + i]!;
    s1 += query[i + 1]! * data[offset + i + 1]!;
    s2 += query[i + 2]! * data[offset + i + 2]!;
    s3 += query[i + 3]! * data[offset + i + 3]!;
  }
  for (; i < d; i++) s0 += query[i]! * data[offset + i]!;
  return s0 + s1 + s2 + s3;
}
