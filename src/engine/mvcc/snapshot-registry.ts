/**
 * Tracks the versions that open readers (snapshot and historical) pin, so history pruning never
 * removes a version an open reader still needs.
 *
 * Pins form a list in the order they were taken (so the oldest reader is the first one); taking
 * and releasing a pin is constant time, because a statement takes one per read transaction.
 */

/** One open reader's pin; `release()` is idempotent. */
export class Pin {
  /** @internal */ previous: Pin | null = null;
  /** @internal */ next: Pin | null = null;
  /** @internal */ released = false;

  constructor(
    private readonly registry: SnapshotRegistry,
    readonly version: bigint,
    readonly startedAt: number,
  ) {}

  /** Unpins the version (a second call does nothing). */
  release(): void {
    if (this.released) return;
    this.released = true;
    this.registry.remove(this);
  }
}

/** A multiset of pinned versions. */
export class SnapshotRegistry {
  private first: Pin | null = null;
  private last: Pin | null = null;
  private count = 0;

  /** Pins `version` until the returned pin is released. */
  pin(version: bigint): Pin {
    const pin = new Pin(this, version, Date.now());
    pin.previous = this.last;
    if (this.last === null) this.first = pin;
    else this.last.next = pin;
    this.last = pin;
    this.count++;
    return pin;
  }

  /** @internal Unlinks a released pin. */
  remove(pin: Pin): void {
    if (pin.previous === null) this.first = pin.next;
    else pin.previous.next = pin.next;
    if (pin.next === null) this.last = pin.previous;
    else pin.next.previous = pin.previous;
    pin.previous = null;
    pin.next = null;
    this.count--;
  }

  /** Number of open readers. */
  get activeReaders(): number {
    return this.count;
  }

  /** The oldest pinned version, or null. */
  get oldestVersion(): bigint | null {
    let oldest: bigint | null = null;
    for (let pin = this.first; pin !== null; pin = pin.next) if (oldest === null || pin.version < oldest) oldest = pin.version;
    return oldest;
  }

  /** When the oldest open reader started (ms since epoch), or null. */
  get oldestReaderStartedAt(): number | null {
    return this.first?.startedAt ?? null;
  }
}
