/**
 * Approximate nearest-neighbour indexes over a SlotStore, backed by faiss: HNSW (global graph),
 * IVF-PQ (`compressed`) and IVF over an HNSW coarse quantizer (the cluster-based strategy).
 * faiss labels are insertion order, so each index keeps its own label -> slot table.
 */
import {
  addVectors,
  createFromFactory,
  createHnsw,
  loadFaiss,
  searchOne,
  vectorBackend,
  withNprobe,
  type FaissIndex,
  type FaissMetric,
} from './faiss.js';
import type { SlotStore } from './slot-store.js';
import { clusterCount, hnswParameters, type VectorTuning } from './tuning.js';

/** Index strategies a collection can run (exact scan needs no ANN index). */
export type AnnKind = 'hnsw' | 'ivf_pq' | 'ivf_hnsw';

/** An ANN index whose entries are slots of one SlotStore. */
export class AnnIndex {
  private labelToSlot = new Int32Array(1024);
  private count = 0;

  constructor(
    readonly kind: AnnKind,
    private readonly faiss: FaissIndex,
    /** How many candidates a query asks faiss for, before exact re-scoring. */
    readonly candidateCount: number,
    /** Live vectors the index was trained on (0 for HNSW, which needs no training). */
    readonly trainedOn: number,
  ) {}

  /** Entries in the index, including ones whose slots died since. */
  get size(): number {
    return this.count;
  }

  /** Adds slots in order. */
  add(slots: readonly number[], store: SlotStore): void {
    if (slots.length === 0) return;
    const d = store.dimensions;
    const flat = new Array<number>(slots.length * d);
    slots.forEach((slot, i) => {
      const vector = store.vector(slot);
      for (let j = 0; j < d; j++) flat[i * d + j] = vector[j]!;
    });
    addVectors(this.faiss, flat);
    while (this.count + slots.length > this.labelToSlot.length) {
      const grown = new Int32Array(this.labelToSlot.length * 2);
      grown.set(this.labelToSlot);
      this.labelToSlot = grown;
    }
    for (const slot of slots) this.labelToSlot[this.count++] = slot;
  }

  /** Candidate slots for a (prepared) query vector, nearest first; may include dead slots. */
  candidates(query: Float32Array, count: number): number[] {
    const { labels } = searchOne(this.faiss, Array.from(query), Math.min(count, this.count));
    return labels.filter((label) => label < this.count).map((label) => this.labelToSlot[label]!);
  }

  /** Serialized form: the faiss index and the label table. */
  serialize(): { faiss: Buffer; labelToSlot: Int32Array } {
    return { faiss: Buffer.from(this.faiss.toBuffer()), labelToSlot: this.labelToSlot.slice(0, this.count) };
  }

  /** Rebuilds an index from `serialize()` output; null when faiss is unavailable or the data is inconsistent. */
  static deserialize(
    kind: AnnKind,
    faissBuffer: Buffer,
    labelToSlot: Int32Array,
    candidateCount: number,
    trainedOn: number,
    dimensions: number,
  ): AnnIndex | null {
    const faiss = loadFaiss();
    if (faiss === null) return null;
    const index = faiss.Index.fromBuffer(faissBuffer);
    if (index.getDimension() !== dimensions || index.ntotal() !== labelToSlot.length) return null;
    const ann = new AnnIndex(kind, index, candidateCount, trainedOn);
    ann.labelToSlot = new Int32Array(Math.max(1024, labelToSlot.length));
    ann.labelToSlot.set(labelToSlot);
    ann.count = labelToSlot.length;
    return ann;
  }
}

/** Result of choosing and creating an ANN index: the index, or why none was made. */
export type AnnCreation =
  { readonly ok: true; readonly index: AnnIndex; readonly note?: string } | { readonly ok: false; readonly reason: string };

/** faiss-node takes plain number arrays (8 bytes per float): cap training input at 16M floats. */
const TRAINING_FLOATS_MAX = 16 * 1024 * 1024;

/** Evenly spaced sample of live slots, at most `max`. */
function sampleSlots(store: SlotStore, max: number): number[] {
  const live: number[] = [];
  for (let slot = 0; slot < store.slotCount; slot++) if (store.isAlive(slot)) live.push(slot);
  if (live.length <= max) return live;
  const step = live.length / max;
  return Array.from({ length: max }, (_, i) => live[Math.floor(i * step)]!);
}

function flatten(store: SlotStore, slots: readonly number[]): number[] {
  const d = store.dimensions;
  const flat = new Array<number>(slots.length * d);
  slots.forEach((slot, i) => {
    const vector = store.vector(slot);
    for (let j = 0; j < d; j++) flat[i * d + j] = vector[j]!;
  });
  return flat;
}

function createHnswIndex(metric: FaissMetric, store: SlotStore, tuning: VectorTuning, note?: string): AnnCreation {
  const faiss = loadFaiss();
  if (faiss === null) return { ok: false, reason: vectorBackend().reason ?? 'faiss-node is not available' };
  const params = hnswParameters(tuning);
  const index = createHnsw(faiss, store.dimensions, metric, params);
  return { ok: true, index: new AnnIndex('hnsw', index, params.efSearch, 0), note };
}

/** IVF-PQ prerequisites: dimensions divisible by the segments, enough vectors to train every codebook. */
function createIvfPq(metric: FaissMetric, store: SlotStore, tuning: VectorTuning): AnnCreation {
  const faiss = loadFaiss();
  if (faiss === null) return { ok: false, reason: vectorBackend().reason ?? 'faiss-node is not available' };
  const d = store.dimensions;
  const segments = tuning.pqSegments;
  const bits = Math.min(8, Math.max(4, Math.floor(tuning.pqBits)));
  if (segments <= 0 || d % segments !== 0) {
    return { ok: false, reason: `dimensions ${d} are not divisible by PQ segments ${segments}` };
  }
  const n = store.liveCount;
  const minimum = 39 * (1 << bits);
  if (n < minimum) return { ok: false, reason: `${n} vectors are too few to train ${bits}-bit PQ codebooks (need ${minimum})` };
  // sqrt(n) / 2 lists keeps the default nprobe (16) probing about a tenth of them at 100k vectors.
  const nlist = Math.max(1, Math.min(Math.max(16, Math.round(Math.sqrt(n) / 2)), Math.floor(n / 39), 65536));
  const cap = Math.floor(TRAINING_FLOATS_MAX / d);
  const sample = sampleSlots(store, Math.min(cap, Math.max(minimum, Math.min(n, tuning.ivfpqTrainingSampleMax))));
  const untrained = createFromFactory(faiss, d, `IVF${nlist},PQ${segments}x${bits}np`, metric);
  untrained.train(flatten(store, sample));
  const index = withNprobe(faiss, untrained, tuning.ivfpqNprobe);
  return { ok: true, index: new AnnIndex('ivf_pq', index, Math.max(1, tuning.ivfpqRerankTopK), n) };
}

function createIvfHnsw(metric: FaissMetric, store: SlotStore, tuning: VectorTuning): AnnCreation {
  const faiss = loadFaiss();
  if (faiss === null) return { ok: false, reason: vectorBackend().reason ?? 'faiss-node is not available' };
  const n = store.liveCount;
  const nlist = clusterCount(tuning, n);
  if (n < nlist * 2) return { ok: false, reason: `${n} vectors are too few for ${nlist} clusters` };
  const sample = sampleSlots(store, Math.min(n, Math.max(nlist * 64, 10_000)));
  const untrained = createFromFactory(faiss, store.dimensions, `IVF${nlist}_HNSW32,Flat`, metric);
  untrained.train(flatten(store, sample));
  const index = withNprobe(faiss, untrained, tuning.ivfpqNprobe);
  return { ok: true, index: new AnnIndex('ivf_hnsw', index, Math.max(64, hnswParameters(tuning).efSearch), n) };
}

/**
 * Creates the ANN index the tuning asks for (trained on `store` when needed, still empty).
 * Compressed mode falls back to HNSW when its prerequisites fail; the returned `note` says why.
 */
export function createAnnIndex(metric: FaissMetric, store: SlotStore, tuning: VectorTuning): AnnCreation {
  if (tuning.clusteringEnabled) {
    const clustered = createIvfHnsw(metric, store, tuning);
    if (clustered.ok) return clustered;
    return createHnswIndex(metric, store, tuning, `cluster-based index unavailable (${clustered.reason}); using HNSW`);
  }
  if (tuning.quality === 'compressed') {
    const compressed = createIvfPq(metric, store, tuning);
    if (compressed.ok) return compressed;
    return createHnswIndex(metric, store, tuning, `compressed (IVF-PQ) prerequisites unmet: ${compressed.reason}; using HNSW`);
  }
  return createHnswIndex(metric, store, tuning);
}
