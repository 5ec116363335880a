/** In-process embedding with a GGUF model via node-llama-cpp (`embeddings.provider: local`). */
import { sharedLlama, resolveModelPath } from './llama.js';
import { toVectors, type EmbeddingProvider } from './provider.js';

/** Options of the local provider. */
export interface LocalEmbeddingOptions {
  /** File name under `modelsDir`, or a path. */
  readonly model: string;
  readonly modelsDir: string;
  /** Inference threads; keep 1 on small machines (more threads oversubscribe 2 cores badly). */
  readonly threads?: number;
}

type EmbeddingContext = { getEmbeddingFor(text: string): Promise<{ vector: readonly number[] }>; dispose(): Promise<void> };
type Model = { embeddingVectorSize: number; trainContextSize: number; dispose(): Promise<void>; tokenize(text: string): unknown[] };

/** GGUF embedding model loaded once, queried sequentially. */
export class LocalEmbeddingProvider implements EmbeddingProvider {
  readonly kind = 'local';
  private loading: Promise<{ model: Model; context: EmbeddingContext }> | null = null;
  private size: number | null = null;
  private queue: Promise<unknown> = Promise.resolve();

  constructor(private readonly options: LocalEmbeddingOptions) {}

  get model(): string {
    return this.options.model;
  }

  get dimensions(): number | null {
    return this.size;
  }

  /** Loads the model (also called lazily by `embed`). */
  load(): Promise<{ model: Model; context: EmbeddingContext }> {
    this.loading ??= (async () => {
      const { llama } = await sharedLlama();
      const modelPath = resolveModelPath(this.options.model, this.options.modelsDir);
      const model = (await llama.loadModel({ modelPath })) as unknown as Model;
      const context = await (model as unknown as { createEmbeddingContext(o: object): Promise<EmbeddingContext> }).createEmbeddingContext({
        threads: this.options.threads ?? 1,
      });
      this.size = model.embeddingVectorSize;
      return { model, context };
    })();
    return this.loading;
  }

  /** Longest text, in tokens, one embedding call accepts. */
  async contextTokens(): Promise<number> {
    return (await this.load()).model.trainContextSize;
  }

  async embed(texts: readonly string[]): Promise<Float32Array[]> {
    const { context } = await this.load();
    const run = this.queue.then(async () => {
      const out: number[][] = [];
      for (const text of texts) out.push([...(await context.getEmbeddingFor(text)).vector]);
      return out;
    });
    this.queue = run.catch(() => undefined);
    return toVectors(await run, texts.length, 'local');
  }

  async close(): Promise<void> {
    if (this.loading === null) return;
    const { model, context } = await this.loading;
    await context.dispose();
    await model.dispose();
    this.loading = null;
  }
}
