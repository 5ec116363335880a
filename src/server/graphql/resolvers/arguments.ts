/** Validation of resolver arguments, reported as `Neo.ClientError.Statement.ArgumentError`. */
import { ArgumentError } from '../../../engine/index.js';

/** Largest `limit` any list field accepts. */
export const MAX_LIMIT = 10_000;

/** A positive integer limit, at most MAX_LIMIT. */
export function clampLimit(limit: number, name: string): number {
  if (!Number.isInteger(limit) || limit < 0) throw new ArgumentError(`${name} must be a non-negative integer, got ${limit}`);
  if (limit > MAX_LIMIT) throw new ArgumentError(`${name} must be at most ${MAX_LIMIT}, got ${limit}`);
  return limit;
}

/** Non-empty names (labels, relationship types, property keys). */
export function checkNames(names: readonly string[], what: string): readonly string[] {
  for (const name of names) if (name.length === 0) throw new ArgumentError(`${what} must not be empty`);
  return names;
}
