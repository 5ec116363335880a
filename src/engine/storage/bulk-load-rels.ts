/**
 * The bulk loader's relationship buffer: endpoints, types and encoded properties in growable
 * typed arrays outside the JS heap (32 bytes per relationship plus its encoded properties, which
 * share one byte arena), ordered at the end by (start, type, end)
 * with three stable counting-sort passes. Relationship ids are then assigned in that order, so
 * the `rels` table is written in `rels_out` key order and SQLite builds that index (and the
 * per-type one) from already sorted input.
 */

/** Index entries of one buffered relationship, computed when it was added: [index id, key]. */
export type PendingEntries = readonly (readonly [number, Buffer])[];

/** Buffered relationships (ids are assigned when they are written). */
export class RelationshipBuffer {
  src = new Float64Array(1024);
  dst = new Float64Array(1024);
  type = new Uint32Array(1024);
  /** Encoded property records: offset into `arena` and length (0: no properties). */
  private propsAt = new Float64Array(1024);
  private propsLength = new Uint32Array(1024);
  private arena = new Uint8Array(0);
  private arenaUsed = 0;
  /** Index entries by buffer position, for relationships of indexed types. */
  readonly entries = new Map<number, PendingEntries>();
  /** Relationships per type id. */
  private readonly perType: number[] = [];
  length = 0;
  private maxNode = 0;
  private maxType = 0;

  /** Appends one relationship; returns its buffer position. */
  add(src: number, typeId: number, dst: number, props: Buffer | null): number {
    if (this.length === this.src.length) this.grow();
    const at = this.length++;
    this.src[at] = src;
    this.dst[at] = dst;
    this.type[at] = typeId;
    if (props !== null && props.length > 0) {
      if (this.arenaUsed + props.length > this.arena.length) this.growArena(props.length);
      this.arena.set(props, this.arenaUsed);
      this.propsAt[at] = this.arenaUsed;
      this.propsLength[at] = props.length;
      this.arenaUsed += props.length;
    } else {
      this.propsLength[at] = 0;
    }
    if (src > this.maxNode) this.maxNode = src;
    if (dst > this.maxNode) this.maxNode = dst;
    if (typeId > this.maxType) this.maxType = typeId;
    this.perType[typeId] = (this.perType[typeId] ?? 0) + 1;
    return at;
  }

  /** (type id, relationships) pairs. */
  typeCounts(): [number, number][] {
    const counts: [number, number][] = [];
    this.perType.forEach((count, typeId) => counts.push([typeId, count]));
    return counts;
  }

  /** The encoded properties of the relationship at `at` (a view into the arena), or null. */
  props(at: number): Buffer | null {
    const length = this.propsLength[at]!;
    return length === 0 ? null : Buffer.from(this.arena.buffer, this.arena.byteOffset + this.propsAt[at]!, length);
  }

  private grow(): void {
    const size = this.src.length * 2;
    this.src = grown(this.src, new Float64Array(size));
    this.dst = grown(this.dst, new Float64Array(size));
    this.type = grown(this.type, new Uint32Array(size));
    this.propsAt = grown(this.propsAt, new Float64Array(size));
    this.propsLength = grown(this.propsLength, new Uint32Array(size));
  }

  private growArena(needed: number): void {
    let size = Math.max(this.arena.length * 2, 1 << 16);
    while (size < this.arenaUsed + needed) size *= 2;
    this.arena = grown(this.arena.subarray(0, this.arenaUsed), new Uint8Array(size));
  }

  /** Buffer positions ordered by (src, type, dst), ties in insertion order. */
  order(): Uint32Array {
    const steps = this.orderSteps();
    for (;;) {
      const step = steps.next();
      if (step.done === true) return step.value;
    }
  }

  /** `order()` in steps: pauses (yields) between its counting passes, so a caller can give the event loop back. */
  *orderSteps(): Generator<void, Uint32Array> {
    const n = this.length;
    let perm = new Uint32Array(n);
    for (let i = 0; i < n; i++) perm[i] = i;
    if (n < 2) return perm;
    // Counting sort needs one counter per distinct key value: fall back to a comparison sort
    // when node ids are sparse compared to the number of relationships.
    if (this.maxNode > 4 * n + 1_000_000 || this.maxNode >= 2 ** 31) {
      const { src, dst, type } = this;
      return perm.sort((a, b) => src[a]! - src[b]! || type[a]! - type[b]! || dst[a]! - dst[b]! || a - b);
    }
    let scratch = new Uint32Array(n);
    for (const [keys, max] of [
      [this.dst, this.maxNode],
      [this.type, this.maxType],
      [this.src, this.maxNode],
    ] as const) {
      yield;
      countingPass(perm, scratch, keys, max);
      [perm, scratch] = [scratch, perm];
    }
    return perm;
  }
}

function grown<T extends Float64Array | Uint32Array | Uint8Array>(from: T, to: T): T {
  to.set(from);
  return to;
}

/**
 * One stable counting-sort pass of `from` by `keys[position]` (0..max, max < 2^31) into `to`.
 * Keys are truncated to int32 before indexing: a double used as a typed-array index takes V8's
 * slow generic path.
 */
function countingPass(from: Uint32Array, to: Uint32Array, keys: Float64Array | Uint32Array, max: number): void {
  const counts = new Uint32Array(max + 2);
  const n = from.length;
  for (let i = 0; i < n; i++) {
    const key = (keys[from[i]!]! | 0) + 1;
    counts[key] = counts[key]! + 1;
  }
  for (let k = 1; k < counts.length; k++) counts[k] = counts[k]! + counts[k - 1]!;
  for (let i = 0; i < n; i++) {
    const position = from[i]!;
    const key = keys[position]! | 0;
    const slot = counts[key]!;
    to[slot] = position;
    counts[key] = slot + 1;
  }
}
