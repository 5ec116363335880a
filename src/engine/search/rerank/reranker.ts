/**
 * Stage-2 reranking. A reranker scores (query, document) pairs; the stage loads its model
 * asynchronously and fails open: while loading, after a load failure (logged once as a warning),
 * or when a call fails or answers malformed scores, results keep their RRF order.
 */
import type { RerankSettings } from '../../config/types.js';
import type { SearchLogger } from '../logger.js';
import { silentLogger } from '../logger.js';
import { resolveModelPath, sharedLlama } from '../embeddings/llama.js';

/** Scores documents against a query (higher is more relevant). */
export interface Reranker {
  readonly name: string;
  load(): Promise<void>;
  score(query: string, documents: readonly string[]): Promise<number[]>;
  close(): Promise<void>;
}

type RankingContext = { rankAll(query: string, documents: string[]): Promise<number[]>; dispose(): Promise<void> };

/** GGUF reranker (BERT-style, rank pooling) through node-llama-cpp's ranking context. */
export class LocalReranker implements Reranker {
  private context: RankingContext | null = null;
  private model: { dispose(): Promise<void> } | null = null;

  constructor(
    private readonly model_: string,
    private readonly modelsDir: string,
    private readonly threads = 1,
  ) {}

  get name(): string {
    return `local:${this.model_}`;
  }

  async load(): Promise<void> {
    const { llama } = await sharedLlama();
    const model = await llama.loadModel({ modelPath: resolveModelPath(this.model_, this.modelsDir) });
    this.model = model;
    this.context = await model.createRankingContext({ threads: this.threads });
  }

  async score(query: string, documents: readonly string[]): Promise<number[]> {
    if (this.context === null) throw new Error('reranker not loaded');
    return this.context.rankAll(query, [...documents]);
  }

  async close(): Promise<void> {
    await this.context?.dispose();
    await this.model?.dispose();
    this.context = null;
    this.model = null;
  }
}

/**
 * HTTP reranker speaking the common `/rerank` shape (Cohere, Jina, llama.cpp server, TEI):
 * request `{model, query, documents}`, response `results: [{index, relevance_score | score}]`.
 */
export class HttpReranker implements Reranker {
  constructor(
    private readonly url: string,
    private readonly model: string,
    private readonly apiKey = '',
    private readonly timeoutMs = 10_000,
  ) {}

  get name(): string {
    return `http:${this.model}`;
  }

  async load(): Promise<void> {}

  async score(query: string, documents: readonly string[]): Promise<number[]> {
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    if (this.apiKey) headers.authorization = `Bearer ${this.apiKey}`;
    const response = await fetch(this.url, {
      method: 'POST',
      headers,
      body: JSON.stringify({ model: this.model, query, documents }),
      signal: AbortSignal.timeout(this.timeoutMs),
    });
    if (!response.ok) throw new Error(`reranker answered HTTP ${response.status}`);
    const body = (await response.json()) as { results?: { index?: unknown; relevance_score?: unknown; score?: unknown }[] };
    if (!Array.isArray(body.results)) throw new Error('reranker response has no results list');
    const scores = new Array<number>(documents.length).fill(Number.NaN);
    for (const item of body.results) {
      const score = typeof item.relevance_score === 'number' ? item.relevance_score : item.score;
      if (typeof item.index !== 'number' || typeof score !== 'number') throw new Error('malformed reranker result');
      scores[item.index] = score;
    }
    return scores;
  }

  async close(): Promise<void> {}
}

/** Creates the reranker the settings name (not yet loaded). */
export function createReranker(settings: RerankSettings, modelsDir: string): Reranker {
  if (settings.provider === 'local') return new LocalReranker(settings.model, modelsDir);
  return new HttpReranker(settings.api_url, settings.model, settings.api_key);
}

/** State of the rerank stage. */
export type RerankState = 'disabled' | 'loading' | 'ready' | 'failed';

/** The stage-2 wrapper: async load, fail-open reordering. */
export class RerankStage {
  private state_: RerankState;
  private warned = false;
  readonly loaded: Promise<void>;

  constructor(
    private readonly reranker: Reranker | null,
    private readonly logger: SearchLogger = silentLogger,
  ) {
    this.state_ = reranker === null ? 'disabled' : 'loading';
    this.loaded =
      reranker === null
        ? Promise.resolve()
        : reranker.load().then(
            () => {
              this.state_ = 'ready';
            },
            (error: unknown) => {
              this.state_ = 'failed';
              this.logger.warn(`reranker ${reranker.name} failed to load; using RRF order: ${String(error)}`);
            },
          );
  }

  get state(): RerankState {
    return this.state_;
  }

  /** Settings part of the search cache key. */
  get cacheKey(): string {
    return this.state_ === 'ready' ? this.reranker!.name : 'none';
  }

  /**
   * Reorders `items` by reranker score (stable for ties); returns them unchanged with null scores
   * when the stage is not ready or the call fails.
   */
  async apply<T>(query: string, items: readonly T[], textOf: (item: T) => string): Promise<{ item: T; score: number | null }[]> {
    const unchanged = items.map((item) => ({ item, score: null }));
    if (this.state_ !== 'ready' || items.length === 0) return unchanged;
    try {
      const scores = await this.reranker!.score(query, items.map(textOf));
      if (scores.length !== items.length || !scores.every(Number.isFinite)) throw new Error('malformed scores');
      return items
        .map((item, i) => ({ item, score: scores[i]!, i }))
        .sort((a, b) => b.score - a.score || a.i - b.i)
        .map(({ item, score }) => ({ item, score }));
    } catch (error) {
      if (!this.warned) this.logger.warn(`reranking failed; using RRF order: ${String(error)}`);
      this.warned = true;
      return unchanged;
    }
  }

  close(): Promise<void> {
    return this.reranker?.close() ?? Promise.resolve();
  }
}
