/**
 * Whether a named VECTOR index can answer the exact-kNN plan for one reader, and the candidate
 * scan when it can. The plan's rules (docs/PERFORMANCE.md "Exact kNN through Cypher"): the index
 * covers the label and property with the same similarity; it holds exactly the reader's
 * committed state (populated from a snapshot no newer than the reader, no commit missed, every
 * commit it applied visible to the reader); every node with the label and the property set is in
 * it with a vector the candidate bounds hold for; the query is such a vector too. Anything else is
 * answered with the reason, and the plan runs row by row.
 */
import type { GraphReader } from '../storage/graph-store.js';
import type { NamedIndexes, VectorIndex } from './named-indexes.js';
import { exactlyServable, type ExactCandidateScan } from './vector/exact-candidates.js';
import type { SimilarityFunction } from './vector/similarity.js';

/** What the exact-kNN plan asks for. */
export interface ExactVectorRequest {
  readonly label: string;
  readonly property: string;
  readonly similarity: SimilarityFunction;
  readonly query: readonly number[];
  /** Rows wanted (at least 1). */
  readonly k: number;
}

/** A scan the plan runs, with what it needs to check and complete the answer. */
export interface ExactVectorServe {
  readonly scan: ExactCandidateScan;
  /** Whether a node has a vector in the index (nodes with the label and without one have a null score). */
  has(nodeId: bigint): boolean;
  /** Nodes with the label and without the property (null scores). */
  readonly missing: number;
  /** False once the index changed after the scan began (the answer would mix two states). */
  unchanged(): boolean;
}

/** What the database's search services know about the commits applied to their indexes. */
export interface AppliedCommits {
  /** The newest commit version whose change events reached the indexes. */
  readonly published: bigint;
  /** False when some applied events carried no known version, or applying them failed. */
  readonly reliable: boolean;
}

function servingIndex(named: NamedIndexes, request: ExactVectorRequest): VectorIndex | null {
  for (const [name, index] of named.vector) {
    if (named.relationshipIndexes.has(name)) continue;
    const { label, property, similarity } = index.definition;
    if (label === request.label && property === request.property && similarity === request.similarity) return index;
  }
  return null;
}

/**
 * True when `index` holds exactly the committed state `reader` sees: populated from a snapshot no
 * newer than the reader, no commit missed, every commit it applied visible to the reader.
 */
export function indexMatchesSnapshot(index: VectorIndex, applied: AppliedCommits, reader: GraphReader): boolean {
  if (index.populatedAt === null || index.missedCommits || !applied.reliable) return false;
  const basis = index.populatedAt > applied.published ? index.populatedAt : applied.published;
  return reader.version >= basis;
}

/** The candidate scan for `request` as `reader` sees the graph, or why the index cannot serve it. */
export function exactVectorServe(
  named: NamedIndexes,
  applied: AppliedCommits,
  reader: GraphReader,
  request: ExactVectorRequest,
): ExactVectorServe | string {
  const index = servingIndex(named, request);
  if (index === null) return `no ${request.similarity} vector index on :${request.label}(${request.property})`;
  if (!indexMatchesSnapshot(index, applied, reader)) return 'the vector index is not at the transaction snapshot';
  if (index.unservableCount > 0) return `${index.unservableCount} nodes hold a value the vector index cannot score exactly`;
  const { collection } = index;
  if (request.query.length !== collection.dimensions || !exactlyServable(request.query, request.similarity)) {
    return 'the query vector cannot be scored exactly from the vector index';
  }
  const missing = reader.countNodes(request.label) - collection.size;
  if (missing < 0) return 'the vector index does not match the label count';
  const version = collection.contentVersion;
  return {
    scan: collection.beginExactScan(request.query, request.k),
    has: (nodeId) => collection.has(nodeId),
    missing,
    unchanged: () => collection.contentVersion === version,
  };
}
