/**
 * Estimates of the heap bytes a value or a row holds, for memory accounting. They are upper-side
 * approximations of V8's layout (a small integer or float in a list slot is 8 bytes, a bigint
 * about 24, a string 16 plus its characters, an object 64 plus 32 per key); nested lists and maps
 * are walked with an explicit stack, never by recursion.
 */
import type { CypherValue } from '../../values/types.js';

/** Bytes of one list slot or object field holding a value. */
export const SLOT_BYTES = 8;

/** Elements of a list that are looked at; the rest are estimated from them. */
const WALKED_ELEMENTS = 64;

function shallow(value: CypherValue): number {
  switch (typeof value) {
    case 'string':
      return 16 + value.length * 2;
    case 'bigint':
      return 24;
    case 'number':
    case 'boolean':
      return 0;
    default:
      if (value === null) return 0;
      if (Array.isArray(value)) return 32 + value.length * SLOT_BYTES;
      if (value instanceof Map) return 64 + value.size * 48;
      return 64;
  }
}

/** Estimated bytes of `value` (elements of lists and maps included). */
export function estimateValueBytes(value: CypherValue): number {
  let total = SLOT_BYTES;
  const stack: CypherValue[] = [value];
  while (stack.length > 0) {
    const next = stack.pop()!;
    total += shallow(next);
    if (Array.isArray(next)) {
      const items = next as readonly CypherValue[];
      // Long lists: walk a prefix and count the rest at the prefix's average element size.
      const walked = Math.min(items.length, WALKED_ELEMENTS);
      const before = total;
      for (let i = 0; i < walked; i++) total += shallow(items[i]!);
      if (items.length > walked) total += ((total - before) / Math.max(1, walked)) * (items.length - walked);
    } else if (next instanceof Map) {
      for (const item of (next as ReadonlyMap<string, CypherValue>).values()) stack.push(item);
    }
  }
  return total;
}

/** Estimated bytes of a row (an object of bound variables). */
export function estimateRowBytes(row: Readonly<Record<string, CypherValue>>): number {
  let total = 64;
  for (const key in row) total += 24 + estimateValueBytes(row[key]!);
  return total;
}
