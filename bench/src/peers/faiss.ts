/**
 * Raw faiss-node (a main dependency, built against Debian's libfaiss): the vector limits. Inputs are
 * plain number[] (faiss-node's API); every call is validated first because a faiss exception
 * aborts the process.
 */
import { createRequire } from 'node:module';
import type { VectorSet } from '../gen/vectors.js';

interface FaissIndex {
  add(x: number[]): void;
  search(x: number[], k: number): { distances: number[]; labels: number[] };
  ntotal(): number;
  train?(x: number[]): void;
}
interface FaissModule {
  IndexFlatIP: new (d: number) => FaissIndex;
  Index: { fromFactory(d: number, description: string, metric: number): FaissIndex };
  MetricType: { METRIC_INNER_PRODUCT: number };
}

/** Loads faiss-node, or returns why it is unavailable. */
export function loadFaiss(): FaissModule | string {
  try {
    return createRequire(import.meta.url)('faiss-node') as FaissModule;
  } catch (e) {
    return `peer unavailable: faiss-node does not load (${(e as Error).message.split('\n')[0]})`;
  }
}

const ADD_CHUNK = 5000;

/** A faiss index over a vector set, inner-product metric (cosine on unit vectors). */
export class FaissVectors {
  private constructor(
    private readonly index: FaissIndex,
    readonly dim: number,
  ) {}

  /** Builds `description` ("Flat" or a factory string such as "HNSW32") and adds every vector. */
  static build(faiss: FaissModule, description: string, set: VectorSet): FaissVectors {
    const index =
      description === 'Flat'
        ? new faiss.IndexFlatIP(set.dim)
        : faiss.Index.fromFactory(set.dim, description, faiss.MetricType.METRIC_INNER_PRODUCT);
    for (let start = 0; start < set.count; start += ADD_CHUNK) {
      const end = Math.min(set.count, start + ADD_CHUNK);
      index.add(Array.from(set.data.subarray(start * set.dim, end * set.dim)));
    }
    return new FaissVectors(index, set.dim);
  }

  /** Top-k labels (= insertion order ids) of one query. */
  search(query: Float32Array, k: number): number[] {
    if (query.length !== this.dim) throw new RangeError(`query has ${query.length} dims, index ${this.dim}`);
    const kk = Math.min(k, this.index.ntotal());
    return this.index.search(Array.from(query), kk).labels;
  }
}
