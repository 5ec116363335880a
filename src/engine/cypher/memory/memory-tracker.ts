/**
 * Memory accounting of running statements, as Neo4j's `db.memory.transaction.max` (one
 * transaction) and `dbms.memory.transaction.total.max` (every transaction of the server).
 *
 * Operators that buffer (collect and the other aggregations, DISTINCT, ORDER BY, eager
 * materialisation, `range()`, result building) charge an estimate of what they hold to the
 * statement's tracker; the tracker charges the server-wide pool. A charge that would pass either
 * limit throws `Neo.TransientError.General.MemoryPoolOutOfMemoryError` before the memory is
 * allocated: that statement (and its transaction) fails, the process lives on. Everything a
 * statement charged is given back when it ends. Estimates are deliberately on the high side of
 * what V8 holds (see `estimateValueBytes`).
 */
import { getHeapStatistics } from 'node:v8';
import { StatusCodes, GraphError, graphError } from '../../errors/index.js';

const MIB = 1024 * 1024;

function formatBytes(bytes: number): string {
  if (bytes >= 1024 * MIB) return `${(bytes / (1024 * MIB)).toFixed(1)} GiB`;
  if (bytes >= MIB) return `${(bytes / MIB).toFixed(1)} MiB`;
  return `${(bytes / 1024).toFixed(1)} KiB`;
}

/** The error of an allocation over a limit (Neo4j's text, naming the setting). */
export function memoryLimitError(extra: number, limit: number, used: number, setting: string): GraphError {
  return graphError(
    StatusCodes.ResourcePressure,
    `The allocation of an extra ${formatBytes(extra)} would use more than the limit ${formatBytes(limit)}. Currently using ${formatBytes(used)}. ${setting} threshold reached`,
  );
}

/** The server-wide pool (`memory.transaction_total_max`). */
export class MemoryPool {
  private usedBytes = 0;

  /** @param maxBytes Infinity for no limit. */
  constructor(readonly maxBytes: number) {}

  /** Bytes held by every running statement. */
  get used(): number {
    return this.usedBytes;
  }

  /** Reserves `bytes` or throws the memory error. */
  reserve(bytes: number): void {
    if (this.usedBytes + bytes > this.maxBytes)
      throw memoryLimitError(bytes, this.maxBytes, this.usedBytes, 'dbms.memory.transaction.total.max');
    this.usedBytes += bytes;
  }

  /** Gives `bytes` back. */
  release(bytes: number): void {
    this.usedBytes = Math.max(0, this.usedBytes - bytes);
  }

  /** A tracker for one statement, limited to `maxBytes` (Infinity for none). */
  tracker(maxBytes: number): MemoryTracker {
    return new MemoryTracker(this, maxBytes);
  }
}

/** Charges are reserved from the pool in chunks of this size, so most charges are a comparison. */
const CHUNK = 256 * 1024;

/** What one statement holds. */
export class MemoryTracker {
  private usedBytes = 0;
  private reservedBytes = 0;
  private highWater = 0;

  constructor(
    private readonly pool: MemoryPool | null,
    readonly maxBytes: number,
  ) {}

  /** Bytes charged and not released. */
  get used(): number {
    return this.usedBytes;
  }

  /** The most ever held at once. */
  get peak(): number {
    return this.highWater;
  }

  /** Charges `bytes`; throws the memory error (charging nothing) when a limit would be passed. */
  charge(bytes: number): void {
    const next = this.usedBytes + bytes;
    if (next > this.maxBytes) throw memoryLimitError(bytes, this.maxBytes, this.usedBytes, 'db.memory.transaction.max');
    if (next > this.reservedBytes && this.pool !== null) {
      const want = Math.max(CHUNK, next - this.reservedBytes);
      this.pool.reserve(want);
      this.reservedBytes += want;
    }
    this.usedBytes = next;
    if (next > this.highWater) this.highWater = next;
  }

  /** Gives back `bytes` charged earlier. */
  release(bytes: number): void {
    this.usedBytes = Math.max(0, this.usedBytes - bytes);
    const spare = this.reservedBytes - this.usedBytes;
    if (spare > 4 * CHUNK && this.pool !== null) {
      const back = spare - CHUNK;
      this.pool.release(back);
      this.reservedBytes -= back;
    }
  }

  /** Releases everything (the statement ended). */
  close(): void {
    this.usedBytes = 0;
    if (this.pool !== null) this.pool.release(this.reservedBytes);
    this.reservedBytes = 0;
  }
}

/** A tracker without limits (embedded use without a configured pool). */
export function unlimitedTracker(): MemoryTracker {
  return new MemoryTracker(null, Infinity);
}

/** Configured limits in bytes; 0 (or absent) means the automatic default. */
export interface MemoryLimitSettings {
  /** `memory.transaction_max`: one transaction (default: a quarter of the V8 heap limit). */
  readonly transactionMaxBytes?: number;
  /** `memory.transaction_total_max`: every transaction together (default: half of the V8 heap limit). */
  readonly totalMaxBytes?: number;
}

/**
 * The limits in force: explicit values as given (a per-transaction limit never above the total),
 * automatic ones derived from the V8 heap limit (`--max-old-space-size`, about 4 GiB by default
 * on a 64-bit machine with 16 GiB or more), so tracked buffers cannot exhaust the heap.
 */
export function resolveMemoryLimits(
  settings: MemoryLimitSettings = {},
  heapLimit = getHeapStatistics().heap_size_limit,
): { transactionMax: number; totalMax: number } {
  const totalMax = settings.totalMaxBytes || Math.floor(heapLimit / 2);
  const transactionMax = Math.min(totalMax, settings.transactionMaxBytes || Math.floor(heapLimit / 4));
  return { transactionMax, totalMax };
}
