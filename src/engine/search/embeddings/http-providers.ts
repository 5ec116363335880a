/**
 * Embedding over HTTP: `local_server` speaks the Ollama API (`POST /api/embed` with a batch, or the
 * older `POST /api/embeddings` one prompt at a time); `hosted_api` speaks the OpenAI API
 * (`POST /v1/embeddings`, bearer key).
 */
import { EmbeddingProviderError, toVectors, type EmbeddingProvider } from './provider.js';

/** Options of the HTTP providers. */
export interface HttpEmbeddingOptions {
  readonly url: string;
  readonly model: string;
  readonly apiKey?: string;
  readonly dimensions?: number;
  readonly timeoutMs?: number;
}

async function postJson(
  url: string,
  body: unknown,
  apiKey: string | undefined,
  timeoutMs: number,
): Promise<{ status: number; json: unknown }> {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (apiKey) headers.authorization = `Bearer ${apiKey}`;
  const response = await fetch(url, { method: 'POST', headers, body: JSON.stringify(body), signal: AbortSignal.timeout(timeoutMs) });
  const text = await response.text();
  let json: unknown = null;
  try {
    json = text.length > 0 ? JSON.parse(text) : null;
  } catch {
    if (response.ok) throw new EmbeddingProviderError(`${url}: response is not JSON`);
  }
  return { status: response.status, json };
}

function joinUrl(base: string, path: string): string {
  return base.replace(/\/+$/, '') + path;
}

abstract class HttpProvider implements EmbeddingProvider {
  abstract readonly kind: string;
  protected learned: number | null;
  constructor(protected readonly options: HttpEmbeddingOptions) {
    this.learned = options.dimensions && options.dimensions > 0 ? options.dimensions : null;
  }
  get model(): string {
    return this.options.model;
  }
  get dimensions(): number | null {
    return this.learned;
  }
  protected remember(vectors: Float32Array[]): Float32Array[] {
    if (vectors.length > 0) this.learned = vectors[0]!.length;
    return vectors;
  }
  protected get timeoutMs(): number {
    return this.options.timeoutMs ?? 30_000;
  }
  abstract embed(texts: readonly string[]): Promise<Float32Array[]>;
  async close(): Promise<void> {}
}

/** Ollama-style local server. */
export class LocalServerEmbeddingProvider extends HttpProvider {
  readonly kind = 'local_server';
  private legacyOnly = false;

  async embed(texts: readonly string[]): Promise<Float32Array[]> {
    if (texts.length === 0) return [];
    if (!this.legacyOnly) {
      const { status, json } = await postJson(
        joinUrl(this.options.url, '/api/embed'),
        { model: this.model, input: texts },
        this.options.apiKey,
        this.timeoutMs,
      );
      if (status === 200)
        return this.remember(toVectors((json as { embeddings?: unknown })?.embeddings, texts.length, 'local_server /api/embed'));
      if (status !== 404) throw new EmbeddingProviderError(`local_server /api/embed answered HTTP ${status}`);
      this.legacyOnly = true;
    }
    const vectors: unknown[] = [];
    for (const text of texts) {
      const { status, json } = await postJson(
        joinUrl(this.options.url, '/api/embeddings'),
        { model: this.model, prompt: text },
        this.options.apiKey,
        this.timeoutMs,
      );
      if (status !== 200) throw new EmbeddingProviderError(`local_server /api/embeddings answered HTTP ${status}`);
      vectors.push((json as { embedding?: unknown })?.embedding);
    }
    return this.remember(toVectors(vectors, texts.length, 'local_server /api/embeddings'));
  }
}

/** OpenAI-style hosted API. `url` may be the API root, `.../v1` or the full `.../embeddings` URL. */
export class HostedApiEmbeddingProvider extends HttpProvider {
  readonly kind = 'hosted_api';

  private get endpoint(): string {
    const base = this.options.url.replace(/\/+$/, '');
    if (base.endsWith('/embeddings')) return base;
    return base.endsWith('/v1') ? `${base}/embeddings` : `${base}/v1/embeddings`;
  }

  async embed(texts: readonly string[]): Promise<Float32Array[]> {
    if (texts.length === 0) return [];
    const body: Record<string, unknown> = { model: this.model, input: texts };
    if (this.options.dimensions && this.options.dimensions > 0) body.dimensions = this.options.dimensions;
    const { status, json } = await postJson(this.endpoint, body, this.options.apiKey, this.timeoutMs);
    if (status !== 200) throw new EmbeddingProviderError(`hosted_api answered HTTP ${status}`);
    const data = (json as { data?: unknown })?.data;
    if (!Array.isArray(data)) throw new EmbeddingProviderError('hosted_api: response has no data list');
    const ordered = [...(data as { index?: number; embedding?: unknown }[])].sort((a, b) => (a.index ?? 0) - (b.index ?? 0));
    return this.remember(
      toVectors(
        ordered.map((item) => item.embedding),
        texts.length,
        'hosted_api',
      ),
    );
  }
}
