/**
 * Append-only storage of vectors in one growable Float32Array. Each stored vector occupies a
 * *slot*; replacing a node's vector appends a new slot and marks the old one dead (a tombstone),
 * so ANN indexes that refer to slots never see a slot change under them.
 */

/** Vectors by slot, with the node id owning each live slot. */
export class SlotStore {
  private data: Float32Array;
  private owners: BigInt64Array;
  private alive: Uint8Array;
  private used = 0;
  private readonly slotOfNode = new Map<bigint, number>();

  constructor(
    readonly dimensions: number,
    initialCapacity = 1024,
  ) {
    this.data = new Float32Array(initialCapacity * dimensions);
    this.owners = new BigInt64Array(initialCapacity);
    this.alive = new Uint8Array(initialCapacity);
  }

  /** Slots handed out so far, live or dead. */
  get slotCount(): number {
    return this.used;
  }

  /** Live vectors. */
  get liveCount(): number {
    return this.slotOfNode.size;
  }

  /** Dead slots (replaced or removed vectors). */
  get deadCount(): number {
    return this.used - this.slotOfNode.size;
  }

  /** Appends `vector` for `nodeId`, killing its previous slot; returns the new slot. */
  put(nodeId: bigint, vector: ArrayLike<number>): number {
    this.kill(nodeId);
    if (this.used === this.owners.length) this.grow();
    const slot = this.used++;
    this.data.set(vector, slot * this.dimensions);
    this.owners[slot] = nodeId;
    this.alive[slot] = 1;
    this.slotOfNode.set(nodeId, slot);
    return slot;
  }

  /** Marks the node's slot dead; returns whether it had one. */
  kill(nodeId: bigint): boolean {
    const slot = this.slotOfNode.get(nodeId);
    if (slot === undefined) return false;
    this.alive[slot] = 0;
    this.slotOfNode.delete(nodeId);
    return true;
  }

  /** Makes `slot` its owner's live slot again (persistence restore). */
  revive(slot: number): void {
    const owner = this.owners[slot]!;
    const current = this.slotOfNode.get(owner);
    if (current !== undefined) this.alive[current] = 0;
    this.alive[slot] = 1;
    this.slotOfNode.set(owner, slot);
  }

  isAlive(slot: number): boolean {
    return slot < this.used && this.alive[slot] === 1;
  }

  ownerOf(slot: number): bigint {
    return this.owners[slot]!;
  }

  slotOf(nodeId: bigint): number | undefined {
    return this.slotOfNode.get(nodeId);
  }

  /** A view of the slot's vector (valid until the next `put`). */
  vector(slot: number): Float32Array {
    return this.data.subarray(slot * this.dimensions, (slot + 1) * this.dimensions);
  }

  /** The backing array (slot s starts at s * dimensions). */
  get raw(): Float32Array {
    return this.data;
  }

  /** Estimated bytes held: the slot arrays at their capacity and about 80 B per node-map entry. */
  estimatedBytes(): number {
    return this.data.byteLength + this.owners.byteLength + this.alive.byteLength + this.slotOfNode.size * 80;
  }

  /** Live node ids. */
  nodeIds(): IterableIterator<bigint> {
    return this.slotOfNode.keys();
  }

  private grow(): void {
    const capacity = this.owners.length * 2;
    const data = new Float32Array(capacity * this.dimensions);
    data.set(this.data);
    const owners = new BigInt64Array(capacity);
    owners.set(this.owners);
    const alive = new Uint8Array(capacity);
    alive.set(this.alive);
    this.data = data;
    this.owners = owners;
    this.alive = alive;
  }
}
