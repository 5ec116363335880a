/**
 * Shared, lazily created node-llama-cpp runtime: CPU only, never builds or downloads binaries.
 * node-llama-cpp is imported dynamically so processes that never embed locally do not load it.
 */
import { existsSync } from 'node:fs';
import { isAbsolute, join, resolve } from 'node:path';

type LlamaModule = typeof import('node-llama-cpp');
type Llama = Awaited<ReturnType<LlamaModule['getLlama']>>;

let llamaPromise: Promise<{ module: LlamaModule; llama: Llama }> | null = null;

/** The process-wide llama runtime (one per process, as node-llama-cpp recommends). */
export function sharedLlama(): Promise<{ module: LlamaModule; llama: Llama }> {
  llamaPromise ??= (async () => {
    const module = await import('node-llama-cpp');
    const llama = await module.getLlama({
      gpu: false,
      build: 'never',
      skipDownload: true,
      usePrebuiltBinaries: true,
      logLevel: module.LlamaLogLevel.error,
    });
    return { module, llama };
  })();
  return llamaPromise;
}

/** Resolves a model setting (file name or path, `.gguf` optional) under the models directory. */
export function resolveModelPath(model: string, modelsDir: string): string {
  const candidates = [model, `${model}.gguf`].map((name) => (isAbsolute(name) ? name : resolve(join(modelsDir, name))));
  const found = candidates.find((path) => existsSync(path));
  if (found === undefined) throw new Error(`model file ${model} not found in ${resolve(modelsDir)}`);
  return found;
}
