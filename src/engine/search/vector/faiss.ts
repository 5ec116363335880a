/**
 * Guarded access to faiss-node. faiss reports errors by throwing C++ exceptions, and any exception
 * thrown inside faiss-node's native code aborts the whole process, so every call here is validated
 * before it is made (dimensions, counts, training-set sizes). faiss-node is loaded lazily and may be
 * missing (libfaiss-dev not installed): callers then stay on exact search.
 *
 * faiss-node exposes no setters for HNSW `efConstruction`/`efSearch` or IVF `nprobe`. They are
 * fields of faiss's serialized form, so `withHnswParameters` / `withNprobe` serialize an *empty*
 * (or trained, empty) index, patch the fields at offsets computed from faiss 1.7's `write_index`
 * layout, and deserialize it again. The layout is checked (magic, dimension) before patching.
 */
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

/** The subset of faiss-node's `Index` we use. */
export interface FaissIndex {
  ntotal(): number;
  getDimension(): number;
  isTrained(): boolean;
  add(x: number[]): void;
  train(x: number[]): void;
  search(x: number[], k: number): { distances: number[]; labels: number[] };
  toBuffer(): Buffer;
}

interface FaissModule {
  Index: {
    fromFactory(dims: number, descriptor: string, metric?: number): FaissIndex;
    fromBuffer(buffer: Buffer): FaissIndex;
  };
  MetricType: { METRIC_INNER_PRODUCT: number; METRIC_L2: number };
}

let loaded: FaissModule | null | undefined;
let loadFailure: string | undefined;

/** faiss-node, or null when its native build is unavailable (`vectorBackend()` says why). */
export function loadFaiss(): FaissModule | null {
  if (loaded !== undefined) return loaded;
  // libgomp reads these when faiss loads. Spinning OpenMP workers made single queries 15x slower on
  // 2 cores, and one thread also built HNSW faster than two here (see docs/search.md).
  process.env.OMP_NUM_THREADS ??= '1';
  process.env.OMP_WAIT_POLICY ??= 'PASSIVE';
  try {
    loaded = createRequire(import.meta.url)('faiss-node') as FaissModule;
  } catch (error) {
    loaded = null;
    loadFailure = error instanceof Error ? error.message.split('\n')[0] : String(error);
  }
  return loaded;
}

/** Which vector search backend is active: faiss-node's ANN indexes, or exact search only, with the reason. */
export interface VectorBackend {
  readonly name: 'faiss' | 'exact';
  /** Why faiss-node cannot be used (its native build is missing or failed to load); absent when it can. */
  readonly reason?: string;
}

/** Path of faiss-node's compiled addon, or null when the package itself is missing. */
function nativeAddonPath(): string | null {
  try {
    return join(dirname(createRequire(import.meta.url).resolve('faiss-node/package.json')), 'build/Release/faiss-node.node');
  } catch {
    return null;
  }
}

/**
 * Tells which vector backend is (or will be) active without loading faiss-node when it was not
 * needed yet (loading takes a few hundred milliseconds): a missing native build means exact search.
 */
export function vectorBackend(): VectorBackend {
  if (loaded === null) return { name: 'exact', reason: `faiss-node failed to load: ${loadFailure ?? 'unknown error'}` };
  if (loaded !== undefined) return { name: 'faiss' };
  const addon = nativeAddonPath();
  if (addon === null) return { name: 'exact', reason: 'faiss-node is not installed' };
  if (!existsSync(addon)) {
    return {
      name: 'exact',
      reason: `faiss-node's native build is missing (${addon}): install libfaiss-dev and libopenblas-dev, then run npm ci`,
    };
  }
  return { name: 'faiss' };
}

/**
 * Loads faiss-node when its native build is present and tells which backend is then active: a
 * build that exists but cannot be loaded (wrong ABI, a missing shared library) shows here, where
 * `vectorBackend()` would still expect faiss. The server calls it once at startup (tens of ms).
 */
export function loadVectorBackend(): VectorBackend {
  if (vectorBackend().name === 'faiss') loadFaiss();
  return vectorBackend();
}

/** Metric of a faiss index: inner product (on normalized vectors, i.e. cosine) or squared L2. */
export type FaissMetric = 'ip' | 'l2';

function metricCode(faiss: FaissModule, metric: FaissMetric): number {
  return metric === 'ip' ? faiss.MetricType.METRIC_INNER_PRODUCT : faiss.MetricType.METRIC_L2;
}

/** Byte length of faiss's `write_index_header` (after the 4-byte magic). */
function headerEnd(buffer: Buffer): number {
  const metric = buffer.readInt32LE(4 + 4 + 8 + 8 + 8 + 1);
  return 4 + 4 + 8 + 8 + 8 + 1 + 4 + (metric > 1 ? 4 : 0);
}

function checkLayout(buffer: Buffer, magic: string, dimensions: number): void {
  const actualMagic = buffer.subarray(0, 4).toString('latin1');
  if (actualMagic !== magic || buffer.readInt32LE(4) !== dimensions) {
    throw new Error(`unexpected faiss serialization (${actualMagic}, d=${buffer.readInt32LE(4)})`);
  }
}

/** Skips one `WRITEVECTOR` (uint64 count, then elements of `elementSize` bytes). */
function skipVector(buffer: Buffer, offset: number, elementSize: number): number {
  const count = Number(buffer.readBigUInt64LE(offset));
  return offset + 8 + count * elementSize;
}

/** Parameters of a faiss HNSW graph over flat storage. */
export interface HnswParameters {
  readonly m: number;
  readonly efConstruction: number;
  readonly efSearch: number;
}

/** An empty `IndexHNSWFlat` with the given M, efConstruction and efSearch. */
export function createHnsw(faiss: FaissModule, dimensions: number, metric: FaissMetric, params: HnswParameters): FaissIndex {
  assertPositiveInt(dimensions, 'dimensions');
  assertPositiveInt(params.m, 'M');
  const index = faiss.Index.fromFactory(dimensions, `HNSW${params.m}`, metricCode(faiss, metric));
  const buffer = Buffer.from(index.toBuffer());
  checkLayout(buffer, 'IHNf', dimensions);
  let offset = headerEnd(buffer);
  offset = skipVector(buffer, offset, 8); // assign_probas (double)
  offset = skipVector(buffer, offset, 4); // cum_nneighbor_per_level (int)
  offset = skipVector(buffer, offset, 4); // levels (int)
  offset = skipVector(buffer, offset, 8); // offsets (size_t)
  offset = skipVector(buffer, offset, 4); // neighbors (storage_idx_t)
  offset += 4 + 4; // entry_point, max_level
  buffer.writeInt32LE(Math.max(1, Math.floor(params.efConstruction)), offset);
  buffer.writeInt32LE(Math.max(1, Math.floor(params.efSearch)), offset + 4);
  return faiss.Index.fromBuffer(buffer);
}

/** Sets `nprobe` on a trained, still empty IVF index (magic `IwPQ`, `IwFl`, ...). */
export function withNprobe(faiss: FaissModule, index: FaissIndex, nprobe: number): FaissIndex {
  const buffer = Buffer.from(index.toBuffer());
  const magic = buffer.subarray(0, 4).toString('latin1');
  if (!magic.startsWith('Iw')) throw new Error(`not an IVF index (${magic})`);
  checkLayout(buffer, magic, index.getDimension());
  const offset = headerEnd(buffer);
  const nlist = Number(buffer.readBigUInt64LE(offset));
  buffer.writeBigUInt64LE(BigInt(Math.max(1, Math.min(nlist, Math.floor(nprobe)))), offset + 8);
  return faiss.Index.fromBuffer(buffer);
}

/** Creates an index from a factory string after validating the arguments faiss would reject. */
export function createFromFactory(faiss: FaissModule, dimensions: number, descriptor: string, metric: FaissMetric): FaissIndex {
  assertPositiveInt(dimensions, 'dimensions');
  return faiss.Index.fromFactory(dimensions, descriptor, metricCode(faiss, metric));
}

/** Adds row-major vectors (length must be a multiple of the index dimension). */
export function addVectors(index: FaissIndex, flat: number[]): void {
  const d = index.getDimension();
  if (flat.length === 0) return;
  if (flat.length % d !== 0 || !index.isTrained()) throw new Error('faiss add: bad input length or untrained index');
  if (!flat.every(Number.isFinite)) throw new Error('faiss add: non-finite component');
  index.add(flat);
}

/** Searches one query vector; returns labels (insertion order) and distances, -1 labels dropped. */
export function searchOne(index: FaissIndex, query: number[], k: number): { labels: number[]; distances: number[] } {
  const total = index.ntotal();
  if (total === 0 || k <= 0) return { labels: [], distances: [] };
  if (query.length !== index.getDimension() || !query.every(Number.isFinite)) {
    throw new Error('faiss search: query dimension mismatch or non-finite component');
  }
  const result = index.search(query, Math.min(k, total));
  const labels: number[] = [];
  const distances: number[] = [];
  result.labels.forEach((label, i) => {
    if (label >= 0) {
      labels.push(label);
      distances.push(result.distances[i]!);
    }
  });
  return { labels, distances };
}

function assertPositiveInt(value: number, what: string): void {
  if (!Number.isInteger(value) || value <= 0) throw new Error(`faiss: ${what} must be a positive integer, got ${value}`);
}
