/**
 * Vector index tuning: the strategy thresholds of docs/search.md, HNSW presets and IVF-PQ settings, plus the
 * mapping from the `vector` configuration section.
 */
import type { VectorSettings } from '../../config/types.js';

/** Below this many live vectors a collection always answers by exact (brute-force) scan. */
export const EXACT_SEARCH_MAX_VECTORS = 5000;

/** ANN quality preset (`GRAPHDB_VECTOR_ANN_QUALITY`). */
export type AnnQuality = 'fast' | 'balanced' | 'accurate' | 'compressed';

/** HNSW parameters per preset (`compressed` uses IVF-PQ; its HNSW fallback uses `fast`). */
export const HNSW_PRESETS: Readonly<Record<AnnQuality, { m: number; efConstruction: number; efSearch: number }>> = {
  fast: { m: 16, efConstruction: 100, efSearch: 50 },
  balanced: { m: 16, efConstruction: 200, efSearch: 100 },
  accurate: { m: 32, efConstruction: 400, efSearch: 200 },
  compressed: { m: 16, efConstruction: 100, efSearch: 50 },
};

/** Everything a vector collection needs to choose and build its index. */
export interface VectorTuning {
  readonly quality: AnnQuality;
  /** HNSW overrides; 0 = from the preset. */
  readonly hnswM: number;
  readonly hnswEfConstruction: number;
  readonly hnswEfSearch: number;
  readonly pqSegments: number;
  /** Clamped to 4..8. */
  readonly pqBits: number;
  readonly ivfpqNprobe: number;
  /** Candidates taken from IVF-PQ before exact re-scoring. */
  readonly ivfpqRerankTopK: number;
  readonly ivfpqTrainingSampleMax: number;
  /** Cluster-based strategy (IVF over an HNSW coarse quantizer). */
  readonly clusteringEnabled: boolean;
  readonly clusterMinSize: number;
  readonly clusterMax: number;
  /** 0 = automatic: sqrt(n / 2) clamped to 10..8192. */
  readonly kmeansClusters: number;
  readonly rebuildEnabled: boolean;
  /** Rebuild when dead entries / entries in the ANN index reach this ratio. */
  readonly tombstoneRebuildRatio: number;
  /** Rebuild when ANN entries exceed live vectors by this factor. */
  readonly maxTombstoneOverheadFactor: number;
  readonly minRebuildIntervalMs: number;
  readonly maintenanceIntervalMs: number;
  /** Delay between the mutation that makes a build necessary and the build's start. */
  readonly buildDebounceMs: number;
}

/** Defaults (the table in docs/search.md). */
export const DEFAULT_VECTOR_TUNING: VectorTuning = {
  quality: 'fast',
  hnswM: 0,
  hnswEfConstruction: 0,
  hnswEfSearch: 0,
  pqSegments: 16,
  pqBits: 8,
  ivfpqNprobe: 16,
  ivfpqRerankTopK: 200,
  ivfpqTrainingSampleMax: 200_000,
  clusteringEnabled: false,
  clusterMinSize: 200,
  clusterMax: 1024,
  kmeansClusters: 0,
  rebuildEnabled: true,
  tombstoneRebuildRatio: 0.5,
  maxTombstoneOverheadFactor: 2.0,
  minRebuildIntervalMs: 60_000,
  maintenanceIntervalMs: 30_000,
  buildDebounceMs: 250,
};

/** Maps the `vector` configuration section onto tuning. */
export function tuningFromSettings(settings: VectorSettings): VectorTuning {
  return {
    ...DEFAULT_VECTOR_TUNING,
    quality: settings.ann_quality,
    hnswM: settings.hnsw_m,
    hnswEfConstruction: settings.hnsw_ef_construction,
    hnswEfSearch: settings.hnsw_ef_search,
    pqSegments: settings.pq_segments,
    pqBits: settings.pq_bits,
    ivfpqNprobe: settings.ivfpq_nprobe,
    ivfpqRerankTopK: settings.ivfpq_rerank_topk,
    ivfpqTrainingSampleMax: settings.ivfpq_training_sample_max,
    clusteringEnabled: settings.ivf_hnsw_enabled,
    clusterMinSize: settings.ivf_hnsw_min_cluster_size,
    clusterMax: settings.ivf_hnsw_max_clusters,
    kmeansClusters: settings.kmeans_num_clusters,
    rebuildEnabled: settings.hnsw_rebuild_enabled,
    tombstoneRebuildRatio: settings.hnsw_tombstone_rebuild_ratio,
    maxTombstoneOverheadFactor: settings.hnsw_max_tombstone_overhead_factor,
    minRebuildIntervalMs: settings.hnsw_min_rebuild_interval_sec * 1000,
    maintenanceIntervalMs: settings.hnsw_maint_interval_ms,
  };
}

/** Effective HNSW parameters: preset, then non-zero overrides. */
export function hnswParameters(tuning: VectorTuning): { m: number; efConstruction: number; efSearch: number } {
  const preset = HNSW_PRESETS[tuning.quality];
  return {
    m: tuning.hnswM > 0 ? tuning.hnswM : preset.m,
    efConstruction: tuning.hnswEfConstruction > 0 ? tuning.hnswEfConstruction : preset.efConstruction,
    efSearch: tuning.hnswEfSearch > 0 ? tuning.hnswEfSearch : preset.efSearch,
  };
}

/** Cluster count for the cluster-based strategy over `n` vectors. */
export function clusterCount(tuning: VectorTuning, n: number): number {
  const automatic = Math.min(8192, Math.max(10, Math.round(Math.sqrt(n / 2))));
  const wanted = tuning.kmeansClusters > 0 ? tuning.kmeansClusters : automatic;
  const bySize = Math.floor(n / Math.max(1, tuning.clusterMinSize));
  return Math.max(1, Math.min(wanted, tuning.clusterMax, bySize));
}
