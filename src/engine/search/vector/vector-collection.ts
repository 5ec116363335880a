/**
 * A set of node vectors with one similarity function and dimension, answering k-nearest-neighbour
 * queries with the strategy table of docs/search.md:
 *
 *   live vectors < 5000             -> exact scan (brute force over Float32Array)
 *   clustering enabled and built    -> IVF over an HNSW coarse quantizer
 *   otherwise                       -> global HNSW (or IVF-PQ in `compressed` mode)
 *
 * Terminology:
 * - *slot*: position of a vector in the SlotStore; replaced/removed vectors leave dead slots
 *   (tombstones) that queries skip.
 * - *build*: creating a new ANN index over a fresh, compacted store. It runs in slices between
 *   event-loop turns (queries keep using the current store and index), records the node ids
 *   written meanwhile, replays them onto the new store and index, then swaps both in one step.
 */
import type { SearchLogger } from '../logger.js';
import { silentLogger } from '../logger.js';
import { AnnIndex, createAnnIndex, type AnnKind } from './ann-index.js';
import { ExactCandidateScan } from './exact-candidates.js';
import { dotF32, normalized, scoreOf, type SimilarityFunction } from './similarity.js';
import { SlotStore } from './slot-store.js';
import { TopK } from './top-k.js';
import { DEFAULT_VECTOR_TUNING, EXACT_SEARCH_MAX_VECTORS, type VectorTuning } from './tuning.js';

/** One nearest-neighbour hit. */
export interface VectorHit {
  readonly nodeId: bigint;
  /** Neo4j's 0..1 score ((1 + cos) / 2, or 1 / (1 + squared distance)). */
  readonly score: number;
  /** Cosine similarity (-1..1) for cosine collections; squared distance for euclidean ones. */
  readonly raw: number;
}

/** Strategy currently answering queries. */
export type VectorStrategy = 'brute_force' | AnnKind;

/** Readiness of a collection (`search.ready`, `build_phase`, `progress_pct`). */
export interface VectorStatus {
  readonly strategy: VectorStrategy;
  readonly ready: boolean;
  /** `idle`, or `building_hnsw` / `building_ivf_pq` / `building_ivf_hnsw` while a build runs. */
  readonly buildPhase: string;
  readonly progressPct: number;
  readonly vectors: number;
  readonly tombstones: number;
}

/** Options of a collection. */
export interface VectorCollectionOptions {
  readonly dimensions: number;
  readonly similarity: SimilarityFunction;
  readonly tuning?: VectorTuning;
  readonly logger?: SearchLogger;
}

/** Candidate multipliers tried for filtered ANN queries before falling back to an exact filtered scan. */
const FILTER_WIDENING = [2, 8, 32];

/** Vectors copied per build slice before yielding to the event loop. */
const BUILD_SLICE = 256;

/** A k-NN searchable set of node vectors. */
export class VectorCollection {
  readonly dimensions: number;
  readonly similarity: SimilarityFunction;
  readonly tuning: VectorTuning;
  private readonly logger: SearchLogger;
  private store: SlotStore;
  private ann: AnnIndex | null = null;
  private building: Promise<void> | null = null;
  private buildTimer: NodeJS.Timeout | null = null;
  private maintenanceTimer: NodeJS.Timeout | null = null;
  private touchedDuringBuild: Set<bigint> | null = null;
  private buildProgress = 0;
  private buildKind: AnnKind | null = null;
  private lastBuildEnd = 0;
  private closed = false;
  /** Set when no ANN index can be made (faiss missing): stop scheduling builds. */
  private annUnavailable = false;
  private contentChanges = 0;

  constructor(options: VectorCollectionOptions) {
    if (!Number.isInteger(options.dimensions) || options.dimensions <= 0) {
      throw new RangeError(`vector dimensions must be a positive integer, got ${options.dimensions}`);
    }
    this.dimensions = options.dimensions;
    this.similarity = options.similarity;
    this.tuning = options.tuning ?? DEFAULT_VECTOR_TUNING;
    this.logger = options.logger ?? silentLogger;
    this.store = new SlotStore(this.dimensions);
    if (this.tuning.maintenanceIntervalMs > 0) {
      this.maintenanceTimer = setInterval(() => this.maintain(), this.tuning.maintenanceIntervalMs);
      this.maintenanceTimer.unref();
    }
  }

  /** Live vectors. */
  get size(): number {
    return this.store.liveCount;
  }

  /**
   * Estimated bytes held: the slot store, plus for each vector in an ANN index its copy and about
   * 256 B of graph links (`dbms.memory.search_index.max_size` counts it for named VECTOR indexes).
   */
  estimatedBytes(): number {
    return this.store.estimatedBytes() + (this.ann === null ? 0 : this.ann.size * (this.dimensions * 4 + 256));
  }

  /**
   * Counts changes of the vectors held (inserts, replacements, removals, restores), not of their
   * representation (builds and compactions keep it): a scan that sees it unchanged saw one state.
   */
  get contentVersion(): number {
    return this.contentChanges;
  }

  get strategy(): VectorStrategy {
    return this.ann?.kind ?? 'brute_force';
  }

  has(nodeId: bigint): boolean {
    return this.store.slotOf(nodeId) !== undefined;
  }

  /** Live node ids (for orphan checks). */
  nodeIds(): bigint[] {
    return [...this.store.nodeIds()];
  }

  /** The stored (normalized, for cosine) vector of a node. */
  vectorOf(nodeId: bigint): Float32Array | null {
    const slot = this.store.slotOf(nodeId);
    return slot === undefined ? null : Float32Array.from(this.store.vector(slot));
  }

  /** Throws a RangeError unless `vector` has this collection's dimension and finite components. */
  validate(vector: ArrayLike<number>): void {
    if (vector.length !== this.dimensions) {
      throw new RangeError(`vector has ${vector.length} dimensions, the index expects ${this.dimensions}`);
    }
    for (let i = 0; i < vector.length; i++) {
      if (!Number.isFinite(vector[i])) throw new RangeError('vector components must be finite numbers');
    }
  }

  /** Inserts or replaces a node's vector; visible to the next query. */
  upsert(nodeId: bigint, vector: ArrayLike<number>): void {
    this.validate(vector);
    const prepared = this.prepare(vector);
    const slot = this.store.put(nodeId, prepared);
    this.contentChanges++;
    if (this.ann !== null) this.ann.add([slot], this.store);
    this.touchedDuringBuild?.add(nodeId);
    this.afterMutation();
  }

  /** Removes a node's vector; returns whether it had one. */
  remove(nodeId: bigint): boolean {
    const removed = this.store.kill(nodeId);
    if (removed) {
      this.contentChanges++;
      this.touchedDuringBuild?.add(nodeId);
      this.afterMutation();
    }
    return removed;
  }

  /** The `k` nearest live vectors to `query`, best first, optionally restricted by `filter`. */
  search(query: ArrayLike<number>, k: number, filter?: (nodeId: bigint) => boolean): VectorHit[] {
    this.validate(query);
    if (k <= 0 || this.store.liveCount === 0) return [];
    const prepared = this.prepare(query);
    if (this.ann === null) return this.exactSearch(prepared, k, filter);
    if (filter === undefined) return this.annSearch(this.ann, prepared, k, undefined, 1);
    // Selective filters leave few candidates: widen the ANN fetch a few times, then scan exactly.
    const wanted = Math.min(k, this.store.liveCount);
    for (const widening of FILTER_WIDENING) {
      const hits = this.annSearch(this.ann, prepared, k, filter, widening);
      if (hits.length >= wanted) return hits;
      if (this.ann.candidateCount * widening >= this.ann.size) break;
    }
    return this.exactSearch(prepared, k, filter);
  }

  /** Exact k-NN regardless of strategy (ground truth for recall checks). */
  exactSearch(prepared: Float32Array, k: number, filter?: (nodeId: bigint) => boolean): VectorHit[] {
    const top = new TopK<number>(k);
    const data = this.store.raw;
    const d = this.dimensions;
    const cosine = this.similarity === 'cosine';
    for (let slot = 0; slot < this.store.slotCount; slot++) {
      if (!this.store.isAlive(slot)) continue;
      const value = cosine ? dotF32(prepared, data, slot * d, d) : -squaredDistanceF32(prepared, data, slot * d, d);
      if (value <= top.threshold) continue;
      if (filter !== undefined && !filter(this.store.ownerOf(slot))) continue;
      top.push(value, slot);
    }
    return top.sorted().map(({ score, item }) => this.hit(item, score));
  }

  /**
   * Starts the exact-kNN plan's candidate scan of `query` (checked with `validate`) over the
   * current store; see vector/exact-candidates.ts for what it guarantees.
   */
  beginExactScan(query: ArrayLike<number>, k: number): ExactCandidateScan {
    this.validate(query);
    return new ExactCandidateScan(this.store, this.similarity, this.prepare(query), k);
  }

  /** Prepares a query or stored vector: unit length for cosine, as-is for euclidean. */
  prepare(vector: ArrayLike<number>): Float32Array {
    return this.similarity === 'cosine' ? normalized(vector) : Float32Array.from(vector);
  }

  status(): VectorStatus {
    const building = this.buildKind !== null;
    return {
      strategy: this.strategy,
      ready: !building,
      buildPhase: building ? `building_${this.buildKind}` : 'idle',
      progressPct: building ? Math.round(this.buildProgress * 1000) / 10 : 100,
      vectors: this.store.liveCount,
      tombstones: this.store.deadCount,
    };
  }

  /** Resolves when no build is scheduled or running (tests, shutdown, persistence). */
  async whenIdle(): Promise<void> {
    while (this.building !== null || this.buildTimer !== null) {
      if (this.building !== null) await this.building;
      else await new Promise((resolve) => setTimeout(resolve, 5));
    }
  }

  /** Starts a build now if one is due (skipping the debounce). */
  buildNow(force = false): Promise<void> {
    if (this.buildTimer !== null) {
      clearTimeout(this.buildTimer);
      this.buildTimer = null;
    }
    if (this.building === null && (force || this.buildDue())) this.startBuild();
    return this.whenIdle();
  }

  /** Stops timers; a running build is abandoned at its next slice. */
  close(): void {
    this.closed = true;
    if (this.buildTimer !== null) clearTimeout(this.buildTimer);
    if (this.maintenanceTimer !== null) clearInterval(this.maintenanceTimer);
    this.buildTimer = null;
    this.maintenanceTimer = null;
  }

  /** Periodic check: rebuild on tombstones, fall back to exact scan when small. */
  maintain(): void {
    if (this.closed) return;
    if (this.ann !== null && this.store.liveCount < EXACT_SEARCH_MAX_VECTORS && this.building === null) {
      this.ann = null;
      this.store = compact(this.store);
      this.logger.info(`vector collection fell below ${EXACT_SEARCH_MAX_VECTORS} vectors; using exact search`);
      return;
    }
    if (this.buildDue()) this.scheduleBuild();
  }

  /** Internal state for persistence. */
  snapshot(): { store: SlotStore; ann: AnnIndex | null } {
    return { store: this.store, ann: this.ann };
  }

  /** Replaces the state (persistence restore). */
  restore(store: SlotStore, ann: AnnIndex | null): void {
    this.store = store;
    this.ann = ann;
    this.contentChanges++;
    this.afterMutation();
  }

  private afterMutation(): void {
    if (this.building === null && this.buildTimer === null && this.buildDue()) this.scheduleBuild();
  }

  /** Whether the strategy table or the tombstone thresholds call for a new ANN index. */
  private buildDue(): boolean {
    const live = this.store.liveCount;
    if (live < EXACT_SEARCH_MAX_VECTORS || this.annUnavailable) return false;
    if (this.ann === null) return true;
    if (!this.tuning.rebuildEnabled) return false;
    if (Date.now() - this.lastBuildEnd < this.tuning.minRebuildIntervalMs) return false;
    const entries = this.ann.size;
    const dead = entries - live;
    if (entries > 0 && dead / entries >= this.tuning.tombstoneRebuildRatio) return true;
    if (entries > live * this.tuning.maxTombstoneOverheadFactor) return true;
    return this.ann.trainedOn > 0 && live > this.ann.trainedOn * 4;
  }

  private scheduleBuild(): void {
    if (this.closed || this.buildTimer !== null) return;
    this.buildTimer = setTimeout(() => {
      this.buildTimer = null;
      if (this.building === null && this.buildDue()) this.startBuild();
    }, this.tuning.buildDebounceMs);
    this.buildTimer.unref();
  }

  private startBuild(): void {
    this.building = this.build()
      .catch((error: unknown) => {
        this.annUnavailable = true;
        this.logger.warn(`vector index build failed; staying on the current index: ${String(error)}`);
      })
      .finally(() => {
        this.building = null;
        this.buildKind = null;
        this.touchedDuringBuild = null;
        this.lastBuildEnd = Date.now();
      });
  }

  private async build(): Promise<void> {
    const source = this.store;
    this.touchedDuringBuild = new Set();
    const fresh = compact(source);
    const creation = createAnnIndex(this.similarity === 'cosine' ? 'ip' : 'l2', fresh, this.tuning);
    if (!creation.ok) {
      this.logger.warn(`vector index stays on exact search: ${creation.reason}`);
      this.annUnavailable = true;
      return;
    }
    if (creation.note !== undefined) this.logger.warn(creation.note);
    const ann = creation.index;
    this.buildKind = ann.kind;
    const total = fresh.slotCount;
    for (let start = 0; start < total; start += BUILD_SLICE) {
      const slice: number[] = [];
      for (let slot = start; slot < Math.min(total, start + BUILD_SLICE); slot++) slice.push(slot);
      ann.add(slice, fresh);
      this.buildProgress = Math.min(total, start + BUILD_SLICE) / total;
      await new Promise((resolve) => setImmediate(resolve));
      if (this.closed) return;
    }
    this.replay(source, fresh, ann);
    this.store = fresh;
    this.ann = ann;
    this.logger.info(`vector index switched to ${ann.kind} over ${fresh.liveCount} vectors`);
  }

  /** Applies writes made during the build to the new store and index (synchronously, before the swap). */
  private replay(source: SlotStore, target: SlotStore, ann: AnnIndex): void {
    for (const nodeId of this.touchedDuringBuild ?? []) {
      const slot = source.slotOf(nodeId);
      if (slot === undefined) {
        target.kill(nodeId);
      } else {
        ann.add([target.put(nodeId, source.vector(slot))], target);
      }
    }
  }

  private annSearch(
    ann: AnnIndex,
    prepared: Float32Array,
    k: number,
    filter: ((nodeId: bigint) => boolean) | undefined,
    widening: number,
  ): VectorHit[] {
    const live = Math.max(1, this.store.liveCount);
    const inflation = Math.max(1, ann.size / live);
    const wanted = Math.ceil(Math.max(k, ann.candidateCount) * inflation * widening);
    const top = new TopK<number>(k);
    const d = this.dimensions;
    const data = this.store.raw;
    const cosine = this.similarity === 'cosine';
    for (const slot of ann.candidates(prepared, wanted)) {
      if (!this.store.isAlive(slot)) continue;
      if (filter !== undefined && !filter(this.store.ownerOf(slot))) continue;
      top.push(cosine ? dotF32(prepared, data, slot * d, d) : -squaredDistanceF32(prepared, data, slot * d, d), slot);
    }
    return top.sorted().map(({ score, item }) => this.hit(item, score));
  }

  private hit(slot: number, value: number): VectorHit {
    const raw = this.similarity === 'cosine' ? value : -value;
    return { nodeId: this.store.ownerOf(slot), raw, score: scoreOf(this.similarity, raw) };
  }
}

/** Squared euclidean distance of `query` to `data[offset .. offset + d)`. */
function squaredDistanceF32(query: Float32Array, data: Float32Array, offset: number, d: number): number {
  let sum = 0;
  for (let i = 0; i < d; i++) {
    const diff = query[i]! - data[offset + i]!;
    sum += diff * diff;
  }
  return sum;
}

/** A new store holding only the live vectors of `store`, in slot order. */
function compact(store: SlotStore): SlotStore {
  let capacity = 1024;
  while (capacity < store.liveCount) capacity *= 2;
  const fresh = new SlotStore(store.dimensions, capacity);
  for (let slot = 0; slot < store.slotCount; slot++) {
    if (store.isAlive(slot)) fresh.put(store.ownerOf(slot), store.vector(slot));
  }
  return fresh;
}
