/**
 * `local` provider: a GGUF chat model run in-process by node-llama-cpp (CPU, never built or
 * downloaded, see search/embeddings/llama.ts). The model loads on first use; calls run one at a
 * time on one context sequence through `LlamaChat`, whose chat wrapper (picked from the model's
 * metadata) renders the conversation and, where the wrapper supports it, function calling.
 */
import { resolveModelPath, sharedLlama } from '../search/embeddings/llama.js';
import { AssistantError, modelNotFound, providerUnavailable, providerTimedOut } from './errors.js';
import type { ChatMessage, ChatProvider, CompletionRequest, CompletionResult, ModelInfo, ToolCall, ToolDefinition } from './types.js';

type LlamaModule = typeof import('node-llama-cpp');
type LlamaModel = Awaited<ReturnType<Awaited<ReturnType<LlamaModule['getLlama']>>['loadModel']>>;
type LlamaContext = Awaited<ReturnType<LlamaModel['createContext']>>;
type LlamaChat = InstanceType<LlamaModule['LlamaChat']>;
type ChatHistoryItem = Parameters<LlamaChat['generateResponse']>[0][number];
type ModelResponseItem = Extract<ChatHistoryItem, { type: 'model' }>['response'][number];
type ChatFunctions = Record<string, { description?: string; params?: unknown }>;

/** Options of the local provider. */
export interface LocalChatOptions {
  /** File name under `modelsDir` (`.gguf` optional) or a path. */
  readonly model: string;
  readonly modelsDir: string;
  /** Context window in tokens, capped by the model's training context. */
  readonly contextSize: number;
  /** Inference threads; 0 = node-llama-cpp's default. */
  readonly threads: number;
  /** Milliseconds per call; 0 = none. */
  readonly timeoutMs: number;
}

interface Loaded {
  readonly model: LlamaModel;
  readonly context: LlamaContext;
  readonly chat: LlamaChat;
}

function parseArguments(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return {};
  }
}

/** How node-llama-cpp says a conversation cannot fit the context window. */
const CONTEXT_OVERFLOW = /context shift strategy|fit (?:in(?:to)? )?the context|context size is too small|compress chat history/i;

function contextTooLong(contextSize: number, withTools: boolean, cause: unknown): AssistantError {
  const tools = withTools ? ' (including the memory tool definitions)' : '';
  return new AssistantError(
    400,
    'invalid_request_error',
    'context_length_exceeded',
    `The conversation${tools} does not fit the local model's context of ${contextSize} tokens: shorten the messages, ` +
      "raise GRAPHDB_ASSISTANT_CONTEXT_SIZE (up to the model's training context) or offer fewer tools (GRAPHDB_ASSISTANT_MCP_TOOLS).",
    { cause },
  );
}

/** OpenAI-shaped messages as node-llama-cpp chat history; tool results fill their calls' `result`. */
export function toChatHistory(messages: readonly ChatMessage[]): ChatHistoryItem[] {
  const history: ChatHistoryItem[] = [];
  const pendingCalls = new Map<string, { result: unknown }>();
  for (const message of messages) {
    const text = message.content ?? '';
    if (message.role === 'system') history.push({ type: 'system', text });
    else if (message.role === 'user') history.push({ type: 'user', text });
    else if (message.role === 'assistant') {
      const response: ModelResponseItem[] = text === '' ? [] : [text];
      for (const call of message.toolCalls ?? []) {
        const item = { type: 'functionCall' as const, name: call.name, params: parseArguments(call.arguments), result: null as unknown };
        pendingCalls.set(call.id, item);
        response.push(item);
      }
      history.push({ type: 'model', response });
    } else {
      const call = message.toolCallId === undefined ? undefined : pendingCalls.get(message.toolCallId);
      if (call !== undefined) call.result = text;
      else history.push({ type: 'user', text: `Result of tool ${message.name ?? ''}: ${text}` });
    }
  }
  return history;
}

function chatFunctions(tools: readonly ToolDefinition[]): ChatFunctions {
  return Object.fromEntries(tools.map((tool) => [tool.name, { description: tool.description, params: tool.parameters }]));
}

/** The in-process llama.cpp chat provider. */
export class LocalChatProvider implements ChatProvider {
  readonly kind = 'local' as const;
  private loading: Promise<Loaded> | null = null;
  private loaded = false;
  private queue: Promise<unknown> = Promise.resolve();
  private callCounter = 0;

  constructor(private readonly options: LocalChatOptions) {}

  get model(): string {
    return this.options.model;
  }

  get ready(): boolean {
    return this.loaded;
  }

  resolveModel(requested: string | undefined): string {
    const configured = this.options.model;
    if (requested === undefined || requested === '') return configured;
    const bare = (name: string) => name.replace(/\.gguf$/i, '');
    if (bare(requested) === bare(configured)) return configured;
    throw modelNotFound(requested, [configured]);
  }

  async listModels(): Promise<readonly ModelInfo[]> {
    return [{ id: this.options.model, ownedBy: 'graphdb-local' }];
  }

  /** Loads the model and its context (also done lazily by the first call). */
  load(): Promise<Loaded> {
    this.loading ??= (async () => {
      try {
        const { module, llama } = await sharedLlama();
        const modelPath = resolveModelPath(this.options.model, this.options.modelsDir);
        const model = await llama.loadModel({ modelPath });
        const context = await model.createContext({
          contextSize: Math.min(this.options.contextSize, model.trainContextSize),
          ...(this.options.threads > 0 ? { threads: this.options.threads } : {}),
        });
        const chat = new module.LlamaChat({ contextSequence: context.getSequence() });
        this.loaded = true;
        return { model, context, chat };
      } catch (error) {
        this.loading = null;
        throw providerUnavailable(
          `The local assistant model could not be loaded: ${error instanceof Error ? error.message : String(error)}`,
          error,
        );
      }
    })();
    return this.loading;
  }

  async complete(request: CompletionRequest): Promise<CompletionResult> {
    const loaded = await this.load();
    const run = this.queue.then(() => this.generate(loaded, request));
    this.queue = run.catch(() => undefined);
    return run;
  }

  async close(): Promise<void> {
    const loading = this.loading;
    this.loading = null;
    this.loaded = false;
    if (loading === null) return;
    const loaded = await loading.catch(() => null);
    if (loaded === null) return;
    await this.queue;
    loaded.chat.dispose();
    await loaded.context.dispose();
    await loaded.model.dispose();
  }

  private async generate({ chat }: Loaded, request: CompletionRequest): Promise<CompletionResult> {
    const timeout = this.options.timeoutMs > 0 ? AbortSignal.timeout(this.options.timeoutMs) : null;
    const signals = [request.signal, timeout].filter((s): s is AbortSignal => s !== undefined && s !== null);
    const functions = request.tools.length > 0 ? chatFunctions(request.tools) : undefined;
    const history = toChatHistory(request.messages);
    let completionTokens = 0;
    let response;
    try {
      response = await chat.generateResponse(history, {
        maxTokens: request.maxTokens,
        ...(request.temperature !== undefined ? { temperature: request.temperature } : {}),
        ...(signals.length > 0 ? { signal: AbortSignal.any(signals) } : {}),
        onToken: (tokens) => {
          completionTokens += tokens.length;
        },
        ...(request.onText !== undefined ? { onTextChunk: request.onText } : {}),
        ...(functions !== undefined ? { functions: functions as never } : {}),
      });
    } catch (error) {
      if (timeout?.aborted) throw providerTimedOut(this.options.timeoutMs);
      if (error instanceof Error && CONTEXT_OVERFLOW.test(error.message)) {
        throw contextTooLong(chat.context.contextSize, request.tools.length > 0, error);
      }
      throw error;
    }
    const toolCalls: ToolCall[] = (response.functionCalls ?? []).map((call: { functionName: string; params: unknown }) => ({
      id: `call_${++this.callCounter}`,
      name: call.functionName,
      arguments: JSON.stringify(call.params ?? {}),
    }));
    const stop = response.metadata.stopReason;
    return {
      content: response.response,
      toolCalls,
      finishReason: toolCalls.length > 0 ? 'tool_calls' : stop === 'maxTokens' ? 'length' : 'stop',
      usage: { promptTokens: Math.max(0, chat.sequence.nextTokenIndex - completionTokens), completionTokens },
    };
  }
}
