import { DEFAULT_CONFIG } from '../../../src/engine/config/defaults.js';
import { searchSettingsFrom, type SearchServiceSettings } from '../../../src/engine/search/settings.js';
import { DEFAULT_VECTOR_TUNING, type VectorTuning } from '../../../src/engine/search/vector/tuning.js';
import type { EmbeddingProvider } from '../../../src/engine/search/embeddings/provider.js';
import { analyze } from '../../../src/engine/search/text/analyzer.js';

/** Default search settings with overrides per section. */
export function testSettings(
  overrides: Partial<{ [K in keyof SearchServiceSettings]: Partial<SearchServiceSettings[K]> }> = {},
): SearchServiceSettings {
  const base = searchSettingsFrom(structuredClone(DEFAULT_CONFIG));
  const merged: Record<string, unknown> = { ...base };
  for (const [key, value] of Object.entries(overrides)) {
    const current = (base as unknown as Record<string, unknown>)[key];
    merged[key] = typeof current === 'object' && current !== null ? { ...current, ...(value as object) } : value;
  }
  return merged as unknown as SearchServiceSettings;
}

/** Tuning without timers or debounce, for deterministic tests. */
export const testTuning: VectorTuning = { ...DEFAULT_VECTOR_TUNING, buildDebounceMs: 0, maintenanceIntervalMs: 0, minRebuildIntervalMs: 0 };

/** A deterministic bag-of-stems embedder: each stem hashes to one of `dimensions` buckets. */
export class HashEmbedder implements EmbeddingProvider {
  readonly kind = 'test';
  readonly model = 'hash';
  calls = 0;
  constructor(readonly dimensions: number) {}
  async embed(texts: readonly string[]): Promise<Float32Array[]> {
    this.calls++;
    return texts.map((text) => {
      const v = new Float32Array(this.dimensions);
      for (const term of analyze(text)) {
        let h = 2166136261;
        for (let i = 0; i < term.length; i++) h = Math.imul(h ^ term.charCodeAt(i), 16777619);
        v[(h >>> 0) % this.dimensions] += 1;
      }
      return v;
    });
  }
  async close(): Promise<void> {}
}
