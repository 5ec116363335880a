/**
 * Tracks the versions that open readers (snapshot and historical) pin, so history pruning never
 * removes a version an open reader still needs.
 *
 * Pins form a list in the order they were taken (so the oldest reader is the first one); taking
 * and releasing a pin is constant time, because a statement takes one per read transaction.
 *
 * Readers are `short` (one auto-commit statement) or `long` (an explicit transaction's snapshot,
 * a temporal read). The MVCC lifecycle installs an admission check for long readers (pressure
 * bands) and cancels pins (maximum snapshot lifetime, hard expiry): a cancelled pin stops
 * protecting its version at once and tells its owner, which fails its next operation with the
 * cancellation error.
 */
import type { GraphError } from '../errors/index.js';

/** How long a reader is expected to live. */
export type ReaderKind = 'short' | 'long';

/** One open reader's pin; `release()` is idempotent. */
export class Pin {
  /** @internal */ previous: Pin | null = null;
  /** @internal */ next: Pin | null = null;
  /** @internal */ released = false;
  private cancelError: GraphError | null = null;
  private listener: ((error: GraphError) => void) | null = null;

  constructor(
    private readonly registry: SnapshotRegistry,
    readonly version: bigint,
    readonly startedAt: number,
    readonly kind: ReaderKind,
  ) {}

  /** Unpins the version (a second call does nothing). */
  release(): void {
    if (this.released) return;
    this.released = true;
    this.registry.remove(this);
  }

  /** The error the reader was cancelled with, or null. */
  get cancelled(): GraphError | null {
    return this.cancelError;
  }

  /** True while the pin protects its version. */
  get active(): boolean {
    return !this.released;
  }

  /** Calls `listener` when the pin is cancelled (one listener: the reader's owner). */
  onCancel(listener: (error: GraphError) => void): void {
    this.listener = listener;
  }

  /** Cancels the reader: its version is no longer protected and its owner is told. */
  cancel(error: GraphError): void {
    if (this.released || this.cancelError !== null) return;
    this.cancelError = error;
    this.release();
    this.listener?.(error);
  }
}

/** A multiset of pinned versions. */
export class SnapshotRegistry {
  private first: Pin | null = null;
  private last: Pin | null = null;
  private count = 0;
  private longCount = 0;
  /** Admission of new long readers (installed by the MVCC lifecycle); throws to refuse. */
  admission: ((kind: ReaderKind) => void) | null = null;

  /** The clock reader start times are taken from (the MVCC lifecycle installs its own). */
  clock: () => number = Date.now;

  /** Runs the admission check for a new reader of `kind` (throws when refused). */
  admit(kind: ReaderKind): void {
    this.admission?.(kind);
  }

  /** Pins `version` until the returned pin is released. */
  pin(version: bigint, kind: ReaderKind = 'short'): Pin {
    const pin = new Pin(this, version, this.clock(), kind);
    pin.previous = this.last;
    if (this.last === null) this.first = pin;
    else this.last.next = pin;
    this.last = pin;
    this.count++;
    if (kind === 'long') this.longCount++;
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
    if (pin.kind === 'long') this.longCount--;
  }

  /** Number of open readers. */
  get activeReaders(): number {
    return this.count;
  }

  /** Number of open long readers. */
  get longReaders(): number {
    return this.longCount;
  }

  /** The open pins, oldest first. */
  *pins(): IterableIterator<Pin> {
    for (let pin = this.first; pin !== null;) {
      const next = pin.next;
      yield pin;
      pin = next;
    }
  }

  /** The oldest pinned version, or null. */
  get oldestVersion(): bigint | null {
    let oldest: bigint | null = null;
    for (let pin = this.first; pin !== null; pin = pin.next) if (oldest === null || pin.version < oldest) oldest = pin.version;
    return oldest;
  }

  /** The pin of the oldest version (the reader that pins the most history), or null. */
  get oldestPin(): Pin | null {
    let oldest: Pin | null = null;
    for (let pin = this.first; pin !== null; pin = pin.next) if (oldest === null || pin.version < oldest.version) oldest = pin;
    return oldest;
  }

  /** When the oldest open reader started (ms since epoch), or null. */
  get oldestReaderStartedAt(): number | null {
    return this.first?.startedAt ?? null;
  }
}
