/**
 * The shapes shared by the assistant's providers, agentic loop and edges. Messages follow the
 * OpenAI chat-completions model (system / user / assistant with tool calls / tool results), so
 * the HTTP edge maps them one to one and remote providers receive them almost unchanged.
 */
import type { ModelProvider } from '../config/types.js';

/** Who wrote a message. */
export type ChatRole = 'system' | 'user' | 'assistant' | 'tool';

/** A function call requested by the model; `arguments` is the JSON text the model produced. */
export interface ToolCall {
  readonly id: string;
  readonly name: string;
  readonly arguments: string;
}

/** One message of a conversation. */
export interface ChatMessage {
  readonly role: ChatRole;
  /** Text; null for an assistant message that only calls tools. */
  readonly content: string | null;
  /** Assistant messages: the tools it called. */
  readonly toolCalls?: readonly ToolCall[];
  /** Tool messages: the call this result answers. */
  readonly toolCallId?: string;
  /** Tool messages: the tool's name. */
  readonly name?: string;
}

/** A JSON Schema subset every provider understands (also valid for node-llama-cpp's GBNF grammar). */
export type JsonSchema =
  | { readonly type: 'string' | 'integer' | 'number' | 'boolean'; readonly description?: string }
  | { readonly type: 'array'; readonly items: JsonSchema; readonly description?: string }
  | {
      readonly type: 'object';
      readonly properties?: Readonly<Record<string, JsonSchema>>;
      readonly required?: readonly string[];
      readonly additionalProperties?: boolean;
      readonly description?: string;
    }
  | { readonly oneOf: readonly JsonSchema[]; readonly description?: string };

/** A tool offered to the model. */
export interface ToolDefinition {
  readonly name: string;
  readonly description: string;
  readonly parameters: JsonSchema & { readonly type: 'object' };
}

/** Why a model call stopped (OpenAI `finish_reason`). */
export type FinishReason = 'stop' | 'length' | 'tool_calls';

/** Token counts of a call (approximate for the local provider). */
export interface TokenUsage {
  readonly promptTokens: number;
  readonly completionTokens: number;
}

/** One model call. */
export interface CompletionRequest {
  /** The model name to use (already validated against the provider). */
  readonly model: string;
  readonly messages: readonly ChatMessage[];
  /** Tools the model may call; empty = none offered. */
  readonly tools: readonly ToolDefinition[];
  readonly maxTokens: number;
  readonly temperature?: number;
  readonly signal?: AbortSignal;
  /** Receives text as it is generated (streaming). */
  readonly onText?: (delta: string) => void;
}

/** What one model call produced. */
export interface CompletionResult {
  readonly content: string;
  readonly toolCalls: readonly ToolCall[];
  readonly finishReason: FinishReason;
  readonly usage: TokenUsage;
}

/** A model listed by `GET /assistant/v1/models`. */
export interface ModelInfo {
  readonly id: string;
  readonly ownedBy: string;
}

/** A chat model backend: in-process llama.cpp, a local OpenAI-compatible server or a hosted API. */
export interface ChatProvider {
  readonly kind: ModelProvider;
  /** The configured model name (file name for `local`). */
  readonly model: string;
  /** Models a request may name. */
  listModels(signal?: AbortSignal): Promise<readonly ModelInfo[]>;
  /** The canonical name of `requested`, or throws AssistantError `model_not_found`. */
  resolveModel(requested: string | undefined): string;
  complete(request: CompletionRequest): Promise<CompletionResult>;
  /** Whether the backend was loaded / reached successfully (status endpoint). */
  readonly ready: boolean;
  close(): Promise<void>;
}
