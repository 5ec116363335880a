/**
 * External node ids of an import (per id space) -> internal node ids. Small canonical decimal
 * ids ("0", "17", "123456") live in a growable Float64Array indexed by the id (8 bytes each, no
 * string hashing); any other id text goes to a Map.
 */

/** Largest id kept in the dense array (larger or sparse ids use the map). */
const DENSE_LIMIT = 1 << 26;

/** The dense index of a canonical decimal id below DENSE_LIMIT, or -1. */
function denseIndex(text: string): number {
  const length = text.length;
  if (length === 0 || length > 8) return -1;
  let value = 0;
  for (let i = 0; i < length; i++) {
    const digit = text.charCodeAt(i) - 48;
    if (digit < 0 || digit > 9 || (digit === 0 && i === 0 && length > 1)) return -1;
    value = value * 10 + digit;
  }
  return value < DENSE_LIMIT ? value : -1;
}

/** One id space. */
class IdSpace {
  /** Internal id + 1 by dense external id (0: absent). */
  private dense = new Float64Array(1024);
  private readonly other = new Map<string, number>();

  get(text: string): number | undefined {
    const index = denseIndex(text);
    if (index < 0) return this.other.get(text);
    const stored = index < this.dense.length ? this.dense[index]! : 0;
    return stored === 0 ? undefined : stored - 1;
  }

  set(text: string, id: number): void {
    const index = denseIndex(text);
    if (index < 0) {
      this.other.set(text, id);
      return;
    }
    if (index >= this.dense.length) {
      let size = this.dense.length;
      while (size <= index) size *= 2;
      const grown = new Float64Array(size);
      grown.set(this.dense);
      this.dense = grown;
    }
    this.dense[index] = id + 1;
  }
}

/** External id -> internal id, per id space. */
export class ExternalIds {
  private readonly spaces = new Map<string, IdSpace>();

  /** The internal id of `id` in `space`, or undefined. */
  get(space: string, id: string): number | undefined {
    return this.spaces.get(space)?.get(id);
  }

  /** Records the internal id of `id` in `space`. */
  set(space: string, id: string, internal: number): void {
    let ids = this.spaces.get(space);
    if (ids === undefined) this.spaces.set(space, (ids = new IdSpace()));
    ids.set(id, internal);
  }
}
