/**
 * `AssistantService`: the assistant of one graphdb process, built from the `assistant` settings.
 * It creates the provider on first use (a misconfiguration is reported then, never at startup),
 * decides which memory tools are offered (`mcp_enable`, `mcp_tools` allowlist) and runs the
 * agentic loop for a request with the caller's tool host.
 */
import type { AssistantSettings } from '../config/types.js';
import { runAgent, type AgentResult } from './agent-loop.js';
import { assistantDisabled, providerUnavailable } from './errors.js';
import { LocalChatProvider } from './llama-provider.js';
import { allowedTools, MemoryTools, MEMORY_TOOL_NAMES, type MemoryToolHost } from '../memory/index.js';
import { OpenAiCompatibleProvider } from './openai-provider.js';
import type { ChatMessage, ChatProvider, ModelInfo, ToolDefinition } from './types.js';

/** Inputs of the service. */
export interface AssistantServiceOptions {
  readonly settings: AssistantSettings;
  /** `resources.models_dir`, where the local provider finds its GGUF file. */
  readonly modelsDir: string;
  /** Replaces the provider built from the settings (embedding graphdb with a custom backend). */
  readonly provider?: ChatProvider;
}

/** One chat request as the service takes it (after the edge validated the body). */
export interface AssistantChatRequest {
  /** Model name from the request; the configured model when absent. */
  readonly model?: string;
  readonly messages: readonly ChatMessage[];
  readonly maxTokens?: number;
  readonly temperature?: number;
  readonly signal?: AbortSignal;
  readonly onText?: (delta: string) => void;
  /** Runs the memory tools with the caller's rights on the chosen database. */
  readonly host: MemoryToolHost;
}

/** `GET /assistant/status`. */
export interface AssistantStatus {
  readonly enabled: boolean;
  readonly provider: string;
  readonly model: string;
  readonly api_url: string;
  readonly ready: boolean;
  readonly tools_enabled: boolean;
  readonly tools: readonly string[];
  /** Allowlist entries that name no tool. */
  readonly unknown_tools: readonly string[];
  readonly max_rounds: number;
  readonly max_tool_result_chars: number;
  readonly max_tokens: number;
}

/** A URL without any `user:password@` part (status output never shows secrets). */
function withoutCredentials(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.username === '' && parsed.password === '') return url;
    parsed.username = '';
    parsed.password = '';
    return parsed.toString();
  } catch {
    return url.replace(/\/\/[^/@]*@/, '//');
  }
}

/** The process's assistant. */
export class AssistantService {
  private current: ChatProvider | null;

  constructor(private readonly options: AssistantServiceOptions) {
    this.current = options.provider ?? null;
  }

  get enabled(): boolean {
    return this.options.settings.enabled;
  }

  /** The provider (created on first use); throws AssistantError when disabled or misconfigured. */
  provider(): ChatProvider {
    if (!this.enabled) throw assistantDisabled();
    this.current ??= this.createProvider();
    return this.current;
  }

  /** Tools offered to the model: none unless `mcp_enable`, filtered by `mcp_tools`. */
  toolDefinitions(): readonly ToolDefinition[] {
    const { mcp_enable: enabled, mcp_tools: allowlist } = this.options.settings;
    return enabled ? allowedTools(allowlist) : [];
  }

  status(): AssistantStatus {
    const { settings } = this.options;
    const allowlist = settings.mcp_tools.map((name) => name.trim().toLowerCase()).filter((name) => name !== '');
    return {
      enabled: settings.enabled,
      provider: this.current?.kind ?? settings.provider,
      model: this.current?.model ?? settings.model,
      api_url: settings.provider === 'local' ? '' : withoutCredentials(settings.api_url),
      ready: this.current?.ready ?? false,
      tools_enabled: settings.mcp_enable,
      tools: this.toolDefinitions().map((tool) => tool.name),
      unknown_tools: allowlist.filter((name) => !MEMORY_TOOL_NAMES.includes(name)),
      max_rounds: settings.max_rounds,
      max_tool_result_chars: settings.max_tool_result_chars,
      max_tokens: settings.max_tokens,
    };
  }

  async models(signal?: AbortSignal): Promise<readonly ModelInfo[]> {
    return this.provider().listModels(signal);
  }

  /** Runs one turn of the agentic loop. */
  async chat(request: AssistantChatRequest): Promise<AgentResult & { readonly model: string }> {
    const provider = this.provider();
    const model = provider.resolveModel(request.model);
    const definitions = this.toolDefinitions();
    const result = await runAgent(
      {
        model,
        messages: request.messages,
        maxTokens: request.maxTokens ?? this.options.settings.max_tokens,
        ...(request.temperature !== undefined ? { temperature: request.temperature } : {}),
        ...(request.signal !== undefined ? { signal: request.signal } : {}),
        ...(request.onText !== undefined ? { onText: request.onText } : {}),
      },
      {
        provider,
        tools: definitions.length === 0 ? null : new MemoryTools(request.host, definitions),
        maxRounds: this.options.settings.max_rounds,
        maxToolResultChars: this.options.settings.max_tool_result_chars,
      },
    );
    return { ...result, model };
  }

  async close(): Promise<void> {
    const provider = this.current;
    this.current = null;
    await provider?.close();
  }

  private createProvider(): ChatProvider {
    const { settings, modelsDir } = this.options;
    if (settings.provider === 'local') {
      if (settings.model === '')
        throw providerUnavailable('No local model configured: set GRAPHDB_ASSISTANT_MODEL to a GGUF file under GRAPHDB_MODELS_DIR.');
      return new LocalChatProvider({
        model: settings.model,
        modelsDir,
        contextSize: settings.context_size,
        threads: settings.threads,
        timeoutMs: settings.timeout,
      });
    }
    if (settings.api_url === '')
      throw providerUnavailable(`The ${settings.provider} provider needs GRAPHDB_ASSISTANT_API_URL (assistant.api_url).`);
    if (settings.provider === 'hosted_api' && settings.api_key === '') {
      throw providerUnavailable('The hosted_api provider needs GRAPHDB_ASSISTANT_API_KEY (assistant.api_key).');
    }
    return new OpenAiCompatibleProvider({
      kind: settings.provider,
      apiUrl: settings.api_url,
      apiKey: settings.api_key,
      model: settings.model,
      timeoutMs: settings.timeout,
    });
  }
}
