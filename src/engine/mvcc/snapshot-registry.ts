/**
 * Tracks the versions that open readers (snapshot and historical) pin, so history pruning never
 * removes a version an open reader still needs.
 */

/** A multiset of pinned versions. */
export class SnapshotRegistry {
  private readonly pins = new Map<bigint, number>();
  private readonly openedAt = new Map<bigint, number[]>();

  /** Pins `version`; returns the function that unpins it. */
  pin(version: bigint): () => void {
    this.pins.set(version, (this.pins.get(version) ?? 0) + 1);
    const times = this.openedAt.get(version) ?? [];
    const now = Date.now();
    times.push(now);
    this.openedAt.set(version, times);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const count = (this.pins.get(version) ?? 1) - 1;
      if (count <= 0) {
        this.pins.delete(version);
        this.openedAt.delete(version);
      } else {
        this.pins.set(version, count);
        const list = this.openedAt.get(version)!;
        list.splice(list.indexOf(now), 1);
      }
    };
  }

  /** Number of open readers. */
  get activeReaders(): number {
    let total = 0;
    for (const count of this.pins.values()) total += count;
    return total;
  }

  /** The oldest pinned version, or null. */
  get oldestVersion(): bigint | null {
    let oldest: bigint | null = null;
    for (const version of this.pins.keys()) if (oldest === null || version < oldest) oldest = version;
    return oldest;
  }

  /** When the oldest open reader started (ms since epoch), or null. */
  get oldestReaderStartedAt(): number | null {
    let oldest: number | null = null;
    for (const times of this.openedAt.values()) for (const t of times) if (oldest === null || t < oldest) oldest = t;
    return oldest;
  }
}
