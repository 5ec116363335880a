/** Builds the configured embedding provider from the `embeddings` settings. */
import type { EmbeddingSettings } from '../../config/types.js';
import { HostedApiEmbeddingProvider, LocalServerEmbeddingProvider } from './http-providers.js';
import { LocalEmbeddingProvider } from './local-provider.js';
import type { EmbeddingProvider } from './provider.js';

/** Creates the provider `settings.provider` names; `modelsDir` is `GRAPHDB_MODELS_DIR`. */
export function createEmbeddingProvider(settings: EmbeddingSettings, modelsDir: string, threads = 1): EmbeddingProvider {
  switch (settings.provider) {
    case 'local':
      return new LocalEmbeddingProvider({ model: settings.model, modelsDir, threads });
    case 'local_server':
      return new LocalServerEmbeddingProvider({
        url: settings.url || settings.api_url || 'http://localhost:11434',
        model: settings.model,
        apiKey: settings.api_key,
        dimensions: settings.dimensions,
      });
    case 'hosted_api':
      return new HostedApiEmbeddingProvider({
        url: settings.api_url || settings.url || 'https://api.openai.com',
        model: settings.model,
        apiKey: settings.api_key,
        dimensions: settings.dimensions,
      });
  }
}
