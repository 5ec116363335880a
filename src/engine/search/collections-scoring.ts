/**
 * Scores of vector-database collections with Qdrant's semantics: Cosine vectors are normalized when
 * stored and scored by dot product (-1..1), Dot by raw dot product, Euclid and Manhattan by
 * distance (smaller is better, and `score_threshold` is then an upper bound).
 */
import { ArgumentError } from '../errors/index.js';
import type { Distance } from './collections-codec.js';
import { dot, normalized, squaredDistance } from './vector/similarity.js';

/** The vector as stored: unit length for Cosine, unchanged otherwise. Rejects wrong sizes and non-finite numbers. */
export function storedVector(distance: Distance, size: number, vector: readonly number[], what: string): number[] {
  if (vector.length !== size) {
    throw new ArgumentError(`Wrong input: Vector dimension error: expected dim: ${size}, got ${vector.length} (${what})`);
  }
  if (!vector.every(Number.isFinite)) throw new ArgumentError(`Wrong input: vector contains a non-finite number (${what})`);
  return distance === 'Cosine' ? Array.from(normalized(vector)) : [...vector];
}

/** The score of a stored vector for a query prepared with `storedVector`. */
export function score(distance: Distance, query: readonly number[], stored: readonly number[]): number {
  switch (distance) {
    case 'Cosine':
    case 'Dot':
      return dot(query, stored);
    case 'Euclid':
      return Math.sqrt(squaredDistance(query, stored));
    case 'Manhattan': {
      let sum = 0;
      for (let i = 0; i < query.length; i++) sum += Math.abs(query[i]! - stored[i]!);
      return sum;
    }
  }
}

/** True when smaller scores are better (distances). */
export function ascending(distance: Distance): boolean {
  return distance === 'Euclid' || distance === 'Manhattan';
}

/** Orders two scores best first. */
export function compareScores(distance: Distance, a: number, b: number): number {
  return ascending(distance) ? a - b : b - a;
}

/** True when `value` passes `threshold` (a lower bound for similarities, an upper bound for distances). */
export function passesThreshold(distance: Distance, value: number, threshold: number | undefined): boolean {
  if (threshold === undefined) return true;
  return ascending(distance) ? value <= threshold : value >= threshold;
}
