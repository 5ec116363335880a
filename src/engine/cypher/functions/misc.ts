/**
 * Functions outside the main families: `randomUUID()`, `nullIf()`,
 * `vector.similarity.cosine()` and `vector.similarity.euclidean()` (Neo4j's normalized
 * similarities in [0, 1]).
 */
import { randomUUID } from 'node:crypto';
import { equals } from '../../values/equality.js';
import { CypherVector, type CypherValue } from '../../values/types.js';
import { asList, asNumber, badArgument, scalar } from './define.js';
import type { ScalarFunction } from './registry.js';

function vectors(fn: string, a: CypherValue, b: CypherValue): [number[], number[]] | null {
  const xs = a instanceof CypherVector ? a.toList() : asList(fn, a);
  const ys = b instanceof CypherVector ? b.toList() : asList(fn, b);
  if (xs.some((x) => x === null) || ys.some((y) => y === null)) return null;
  if (xs.length !== ys.length || xs.length === 0) {
    throw badArgument(
      `Invalid input for function '${fn}()': vectors must be non-empty and of equal dimension (${xs.length} and ${ys.length})`,
    );
  }
  return [xs.map((x) => asNumber(fn, x)), ys.map((y) => asNumber(fn, y))];
}

/** Cosine similarity mapped to [0, 1]: `(1 + cos) / 2`; null for a zero vector. */
export function cosineSimilarity(xs: readonly number[], ys: readonly number[]): number | null {
  let dot = 0;
  let nx = 0;
  let ny = 0;
  for (let i = 0; i < xs.length; i++) {
    dot += xs[i]! * ys[i]!;
    nx += xs[i]! * xs[i]!;
    ny += ys[i]! * ys[i]!;
  }
  if (nx === 0 || ny === 0) return null;
  return (1 + dot / Math.sqrt(nx * ny)) / 2;
}

/** Euclidean similarity: `1 / (1 + squared distance)`. */
export function euclideanSimilarity(xs: readonly number[], ys: readonly number[]): number {
  let sum = 0;
  for (let i = 0; i < xs.length; i++) sum += (xs[i]! - ys[i]!) ** 2;
  return 1 / (1 + sum);
}

/** The miscellaneous functions. */
export const miscFunctions: readonly ScalarFunction[] = [
  scalar('randomUUID', { min: 0, deterministic: false, category: 'Scalar', description: 'A random UUID string.' }, () => randomUUID()),
  scalar(
    'nullIf',
    { min: 2, nullIn: false, category: 'Scalar', description: 'null when both arguments are equal, else the first.' },
    ([a, b]) => (equals(a!, b!) === true ? null : a!),
  ),
  scalar(
    'vector.similarity.cosine',
    {
      min: 2,
      category: 'Vector',
      description: 'Cosine similarity of two vectors (VECTOR or LIST<INTEGER | FLOAT>), in [0, 1].',
      signature: 'vector.similarity.cosine(a :: VECTOR | LIST<INTEGER | FLOAT>, b :: VECTOR | LIST<INTEGER | FLOAT>) :: FLOAT',
    },
    ([a, b]) => {
      const v = vectors('vector.similarity.cosine', a!, b!);
      return v === null ? null : cosineSimilarity(v[0], v[1]);
    },
  ),
  scalar(
    'vector.similarity.euclidean',
    {
      min: 2,
      category: 'Vector',
      description: 'Euclidean similarity of two vectors (VECTOR or LIST<INTEGER | FLOAT>), in (0, 1].',
      signature: 'vector.similarity.euclidean(a :: VECTOR | LIST<INTEGER | FLOAT>, b :: VECTOR | LIST<INTEGER | FLOAT>) :: FLOAT',
    },
    ([a, b]) => {
      const v = vectors('vector.similarity.euclidean', a!, b!);
      return v === null ? null : euclideanSimilarity(v[0], v[1]);
    },
  ),
];
