/**
 * A map split into shards, for the full-text index's large maps (terms, nodes, stems): a V8 `Map`
 * copies all its entries when it grows, which at 131,072 entries held the event loop for 50–100 ms
 * in one insertion (docs/perf.md); a shard grows at 1/64 of that size.
 */
const SHARD_BITS = 6;
const SHARD_MASK = (1 << SHARD_BITS) - 1;

/** The shard of a string key: its length and last four characters, which vary most among terms. */
export function stringShard(key: string): number {
  let hash = key.length;
  for (let i = Math.max(0, key.length - 4); i < key.length; i++) hash = (hash * 31 + key.charCodeAt(i)) | 0;
  return (hash ^ (hash >>> SHARD_BITS)) & SHARD_MASK;
}

/** The shard of a node id: its low bits (node ids are allocated in sequence). */
export function bigintShard(key: bigint): number {
  return Number(BigInt.asUintN(SHARD_BITS, key));
}

/** A `Map` of 64 shards; iteration visits shard by shard and, like a `Map`'s, survives deletions. */
export class ShardedMap<K, V> {
  private readonly shards: Map<K, V>[] = Array.from({ length: SHARD_MASK + 1 }, () => new Map<K, V>());
  private count = 0;

  constructor(private readonly shardOf: (key: K) => number) {}

  get size(): number {
    return this.count;
  }

  get(key: K): V | undefined {
    return this.shards[this.shardOf(key)]!.get(key);
  }

  has(key: K): boolean {
    return this.shards[this.shardOf(key)]!.has(key);
  }

  set(key: K, value: V): void {
    const shard = this.shards[this.shardOf(key)]!;
    const before = shard.size;
    shard.set(key, value);
    this.count += shard.size - before;
  }

  delete(key: K): boolean {
    const deleted = this.shards[this.shardOf(key)]!.delete(key);
    if (deleted) this.count--;
    return deleted;
  }

  clear(): void {
    for (const shard of this.shards) shard.clear();
    this.count = 0;
  }

  *keys(): IterableIterator<K> {
    for (const shard of this.shards) yield* shard.keys();
  }

  *entries(): IterableIterator<[K, V]> {
    for (const shard of this.shards) yield* shard.entries();
  }
}
