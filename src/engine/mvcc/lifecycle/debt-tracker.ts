/**
 * Compaction debt of one database without full scans on the request path (docs/mvcc-lifecycle.md: debt
 * sampling). Each lifecycle cycle samples about 5 % of the key space (a random window of node
 * ids and one of relationship ids, read page by page in slices) and extrapolates; every 20th
 * cycle scans everything, which makes the figures exact. Status and `/metrics` read the last
 * rollup only. The hot figures (debt, pinned bytes) roll up every cycle; the chain-length
 * histogram every 60 s. The keys with the most debt seen (at most `TOP_KEYS`) are kept with the
 * time they were first seen, for the prune cycle's reserved slice.
 */
import type { KeyPlan } from './key-plan.js';
import type { KeyRef } from './prune-queue.js';

/** Default share of the key space sampled per cycle. */
export const SAMPLE_FRACTION = 0.05;
/** Every this many cycles the sample is a full scan. */
export const FULL_SCAN_EVERY = 20;
/** How often the chain-length histogram rolls up (ms). */
export const HISTOGRAM_ROLLUP_MS = 60_000;
/** Keys with the most debt remembered for prioritised pruning. */
export const TOP_KEYS = 1000;
/** Upper bounds of the chain-length histogram buckets. */
export const CHAIN_BUCKETS = [1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 5000, Infinity] as const;

/** Debt figures of one database (extrapolated from a sample unless `exact`). */
export interface DebtFigures {
  readonly bytes: number;
  readonly keys: number;
  readonly versions: number;
  /** Bytes only open readers keep (prunable without them). */
  readonly pinnedBytes: number;
  /** Longest chain of closed versions of a deleted key seen. */
  readonly tombstoneChainMaxDepth: number;
  /** Longest chain of closed versions seen. */
  readonly maxChainLength: number;
  /** Share of the key space the figures come from. */
  readonly coverage: number;
  readonly exact: boolean;
  /** When the pass ended (ms). */
  readonly at: number;
  /** History rows read by the pass. */
  readonly rowsScanned: number;
  /** Closed versions held (extrapolated like the debt). */
  readonly closedVersions: { readonly nodes: number; readonly relationships: number };
  /** Bytes all closed versions hold. */
  readonly historyBytes: number;
}

/** A key with debt, remembered between passes. */
export interface DebtKey extends KeyRef {
  readonly bytes: number;
  readonly versions: number;
  readonly firstSeen: number;
}

/** Accumulates one pass over (part of) the key space. */
export class DebtPass {
  bytes = 0;
  keys = 0;
  versions = 0;
  pinnedBytes = 0;
  tombstoneDepth = 0;
  maxChain = 0;
  rows = 0;
  nodeRows = 0;
  relRows = 0;
  historyBytes = 0;
  readonly histogram = new Array<number>(CHAIN_BUCKETS.length).fill(0);
  /**
   * Keys with debt: at most the 2 × TOP_KEYS with the most bytes (cut back to TOP_KEYS whenever it
   * reaches that), so a pass over a million keys never holds or sorts them all at once; only the
   * TOP_KEYS with the most bytes are ever remembered.
   */
  readonly found: KeyPlan[] = [];

  /** Adds one planned key. */
  add(plan: KeyPlan): void {
    this.rows += plan.chainLength;
    if (plan.kind === 'node') this.nodeRows += plan.chainLength;
    else this.relRows += plan.chainLength;
    this.historyBytes += plan.historyBytes;
    this.pinnedBytes += plan.pinnedBytes;
    if (plan.chainLength > this.maxChain) this.maxChain = plan.chainLength;
    if (!plan.hasHead && plan.chainLength > this.tombstoneDepth) this.tombstoneDepth = plan.chainLength;
    this.histogram[CHAIN_BUCKETS.findIndex((b) => plan.chainLength <= b)]!++;
    if (plan.versions === 0) return;
    this.keys++;
    this.versions += plan.versions;
    this.bytes += plan.bytes;
    this.found.push(plan);
    if (this.found.length >= 2 * TOP_KEYS) {
      this.found.sort((a, b) => b.bytes - a.bytes);
      this.found.length = TOP_KEYS;
    }
  }
}

/** Debt rollups and remembered debt keys of one database. */
export class DebtTracker {
  private cycles = 0;
  private figures: DebtFigures | null = null;
  private histogramFigures: { readonly buckets: readonly number[]; readonly at: number } | null = null;
  private readonly top = new Map<string, DebtKey>();

  /** True when the next pass must be a full scan (every `FULL_SCAN_EVERY` cycles, and the first). */
  nextIsFull(): boolean {
    return this.cycles % FULL_SCAN_EVERY === 0;
  }

  /** The last rollup (null before the first pass). */
  get latest(): DebtFigures | null {
    return this.figures;
  }

  /** The chain-length histogram of the last 60 s rollup. */
  get histogram(): { readonly buckets: readonly number[]; readonly at: number } | null {
    return this.histogramFigures;
  }

  /** Ends a pass that covered `coverage` (0..1] of the key space at `now`. */
  finish(pass: DebtPass, coverage: number, now: number): DebtFigures {
    this.cycles++;
    const exact = coverage >= 1;
    const scale = exact ? 1 : 1 / Math.max(coverage, 1e-6);
    const previous = this.figures;
    this.figures = {
      bytes: Math.round(pass.bytes * scale),
      keys: Math.round(pass.keys * scale),
      versions: Math.round(pass.versions * scale),
      pinnedBytes: Math.round(pass.pinnedBytes * scale),
      // Maxima cannot be extrapolated: a sample keeps the larger of what it saw and the last exact figure.
      tombstoneChainMaxDepth: exact ? pass.tombstoneDepth : Math.max(pass.tombstoneDepth, previous?.tombstoneChainMaxDepth ?? 0),
      maxChainLength: exact ? pass.maxChain : Math.max(pass.maxChain, previous?.maxChainLength ?? 0),
      coverage: Math.min(1, coverage),
      exact,
      at: now,
      rowsScanned: pass.rows,
      closedVersions: { nodes: Math.round(pass.nodeRows * scale), relationships: Math.round(pass.relRows * scale) },
      historyBytes: Math.round(pass.historyBytes * scale),
    };
    if (this.histogramFigures === null || now - this.histogramFigures.at >= HISTOGRAM_ROLLUP_MS || exact) {
      this.histogramFigures = { buckets: pass.histogram.map((n) => Math.round(n * scale)), at: now };
    }
    this.remember(pass.found, now, exact);
    return this.figures;
  }

  /** Lowers the figures by what a prune removed (until the next pass measures again). */
  pruned(versions: number, bytes: number, keys: number): void {
    const f = this.figures;
    if (f === null) return;
    this.figures = {
      ...f,
      bytes: Math.max(0, f.bytes - bytes),
      versions: Math.max(0, f.versions - versions),
      keys: Math.max(0, f.keys - keys),
      historyBytes: Math.max(0, f.historyBytes - bytes),
    };
  }

  /** Forgets a key once it was pruned. */
  served(key: KeyRef): void {
    this.top.delete(keyName(key));
  }

  /** The remembered debt keys, oldest first seen first (emergency: most bytes first). */
  prioritised(emergency: boolean): DebtKey[] {
    const keys = [...this.top.values()];
    return emergency ? keys.sort((a, b) => b.bytes - a.bytes) : keys.sort((a, b) => a.firstSeen - b.firstSeen);
  }

  private remember(found: readonly KeyPlan[], now: number, exact: boolean): void {
    if (exact) {
      const present = new Set(found.map(keyName));
      for (const k of this.top.keys()) if (!present.has(k)) this.top.delete(k);
    }
    for (const plan of found) {
      const k = keyName(plan);
      const known = this.top.get(k);
      this.top.set(k, { kind: plan.kind, id: plan.id, bytes: plan.bytes, versions: plan.versions, firstSeen: known?.firstSeen ?? now });
    }
    if (this.top.size > TOP_KEYS) {
      const keep = [...this.top.entries()].sort((a, b) => b[1].bytes - a[1].bytes).slice(0, TOP_KEYS);
      this.top.clear();
      for (const [k, v] of keep) this.top.set(k, v);
    }
  }
}

function keyName(key: KeyRef): string {
  return `${key.kind === 'node' ? 'n' : 'r'}${key.id}`;
}
