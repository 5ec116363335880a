/** The embedding provider contract shared by the in-process, local-server and hosted-API providers. */

/** Turns texts into vectors. */
export interface EmbeddingProvider {
  /** `local`, `local_server` or `hosted_api`. */
  readonly kind: string;
  readonly model: string;
  /** Output dimensions once known (configured, or learned from the first answer). */
  readonly dimensions: number | null;
  /** One vector per text, in order. */
  embed(texts: readonly string[]): Promise<Float32Array[]>;
  /** Releases models, contexts and sockets. */
  close(): Promise<void>;
}

/** Raised when a provider answers with something that is not a list of equal-length numeric vectors. */
export class EmbeddingProviderError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'EmbeddingProviderError';
  }
}

/** Validates and converts a provider's vectors (all finite numbers, all the same length). */
export function toVectors(raw: unknown, expectedCount: number, source: string): Float32Array[] {
  if (!Array.isArray(raw) || raw.length !== expectedCount) {
    throw new EmbeddingProviderError(`${source}: expected ${expectedCount} embeddings`);
  }
  const vectors = raw.map((item) => {
    if (!Array.isArray(item) || item.length === 0 || !item.every((x) => typeof x === 'number' && Number.isFinite(x))) {
      throw new EmbeddingProviderError(`${source}: an embedding is not a list of finite numbers`);
    }
    return Float32Array.from(item as number[]);
  });
  if (vectors.some((v) => v.length !== vectors[0]!.length)) {
    throw new EmbeddingProviderError(`${source}: embeddings have different lengths`);
  }
  return vectors;
}
