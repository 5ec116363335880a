/**
 * What the exact-kNN operator (operators/node-vector-top-k.ts) asks of the engine's search
 * services: a candidate scan over a VECTOR index's in-memory vectors, or why there is none.
 * Provided by the engine facade (`AdminHooks.exactVectorScan`); absent without search.
 */
import type { GraphReader } from '../../storage/graph-store.js';

/** The top-k query the plan answers. */
export interface VectorTopKRequest {
  readonly label: string;
  readonly property: string;
  readonly similarity: 'cosine' | 'euclidean';
  readonly query: readonly number[];
  /** Rows wanted (at least 1). */
  readonly k: number;
}

/**
 * A candidate scan: after `step` returned true, `candidates()` holds every node with the label
 * whose score may be among the k best (ties with the k-th included); the others are strictly
 * worse. Nodes with the label and no vector (`has` false) have the property unset.
 */
export interface VectorCandidateScan {
  /** Scans up to `slots` more vectors; true when done. */
  step(slots: number): boolean;
  candidates(): bigint[];
  has(nodeId: bigint): boolean;
  /** Nodes with the label and without the property. */
  readonly missing: number;
  /** False once the index changed after the scan began. */
  unchanged(): boolean;
}

/** Opens a scan for `request` as `reader` sees the graph, or answers why it cannot. */
export type VectorTopKSource = (database: string, reader: GraphReader, request: VectorTopKRequest) => VectorCandidateScan | string;
