/**
 * `local_server` and `hosted_api` providers: a client of any OpenAI-compatible chat-completions
 * server (llama.cpp server, vLLM, Ollama's `/v1`, hosted APIs) over `fetch`. Non-streaming
 * calls read one JSON body; streaming calls read `data:` events, accumulating text deltas and
 * tool-call fragments by index until `[DONE]`.
 */
import type { ModelProvider } from '../config/types.js';
import { modelNotFound, providerFailed, providerTimedOut, providerUnavailable, AssistantError } from './errors.js';
import { readSseData } from './sse.js';
import type { ChatMessage, ChatProvider, CompletionRequest, CompletionResult, FinishReason, ModelInfo, ToolCall } from './types.js';

/** Options of a remote provider. */
export interface RemoteProviderOptions {
  readonly kind: Exclude<ModelProvider, 'local'>;
  /** Base URL, with or without the trailing `/v1`. */
  readonly apiUrl: string;
  /** Bearer token; required for `hosted_api`. */
  readonly apiKey: string;
  /** Default model name sent upstream. */
  readonly model: string;
  /** Milliseconds per call; 0 = none. */
  readonly timeoutMs: number;
}

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type JsonObject = { [key: string]: Json };

function isObject(value: unknown): value is JsonObject {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function wireMessage(message: ChatMessage): JsonObject {
  if (message.role === 'tool') return { role: 'tool', tool_call_id: message.toolCallId ?? '', content: message.content ?? '' };
  const wire: JsonObject = { role: message.role, content: message.content };
  if (message.toolCalls !== undefined && message.toolCalls.length > 0) {
    wire.tool_calls = message.toolCalls.map((call) => ({
      id: call.id,
      type: 'function',
      function: { name: call.name, arguments: call.arguments },
    }));
  }
  return wire;
}

function finishReason(value: Json | undefined, toolCalls: number): FinishReason {
  if (toolCalls > 0 || value === 'tool_calls' || value === 'function_call') return toolCalls > 0 ? 'tool_calls' : 'stop';
  return value === 'length' ? 'length' : 'stop';
}

function usageOf(value: Json | undefined): { promptTokens: number; completionTokens: number } {
  if (!isObject(value)) return { promptTokens: 0, completionTokens: 0 };
  const count = (key: string) => (typeof value[key] === 'number' ? value[key] : 0);
  return { promptTokens: count('prompt_tokens'), completionTokens: count('completion_tokens') };
}

/** Tool-call fragments of a stream, merged by their `index`. */
class ToolCallAccumulator {
  private readonly calls = new Map<number, { id: string; name: string; arguments: string }>();

  add(fragments: Json | undefined): void {
    if (!Array.isArray(fragments)) return;
    for (const fragment of fragments) {
      if (!isObject(fragment)) continue;
      const index = typeof fragment.index === 'number' ? fragment.index : this.calls.size;
      const call = this.calls.get(index) ?? { id: '', name: '', arguments: '' };
      if (typeof fragment.id === 'string' && fragment.id !== '') call.id = fragment.id;
      const fn = fragment.function;
      if (isObject(fn)) {
        if (typeof fn.name === 'string') call.name += fn.name;
        if (typeof fn.arguments === 'string') call.arguments += fn.arguments;
      }
      this.calls.set(index, call);
    }
  }

  result(): ToolCall[] {
    return [...this.calls.entries()]
      .sort(([a], [b]) => a - b)
      .map(([index, call]) => ({ id: call.id || `call_${index}`, name: call.name, arguments: call.arguments || '{}' }));
  }
}

function toolCallsOf(value: Json | undefined): ToolCall[] {
  const accumulator = new ToolCallAccumulator();
  accumulator.add(Array.isArray(value) ? value.map((call, index) => (isObject(call) ? { index, ...call } : call)) : value);
  return accumulator.result();
}

/** Error text of an upstream error body (`{error: {message}}`, `{error: "..."}`, `{message}`) or its raw text. */
function upstreamMessage(text: string): string {
  try {
    const body = JSON.parse(text) as Json;
    if (isObject(body)) {
      const error = body.error;
      if (isObject(error) && typeof error.message === 'string') return error.message;
      if (typeof error === 'string') return error;
      if (typeof body.message === 'string') return body.message;
    }
  } catch {
    // not JSON: the raw text below
  }
  return text.slice(0, 500);
}

/** An OpenAI-compatible HTTP chat provider. */
export class OpenAiCompatibleProvider implements ChatProvider {
  readonly kind: Exclude<ModelProvider, 'local'>;
  private reached = false;

  constructor(private readonly options: RemoteProviderOptions) {
    this.kind = options.kind;
  }

  get model(): string {
    return this.options.model;
  }

  get ready(): boolean {
    return this.reached;
  }

  /** `{base}/v1/{path}`, not doubling a `/v1` the base already ends with. */
  endpoint(path: string): string {
    const base = this.options.apiUrl.replace(/\/+$/, '');
    return /\/v1$/.test(base) ? `${base}/${path}` : `${base}/v1/${path}`;
  }

  resolveModel(requested: string | undefined): string {
    const model = requested === undefined || requested === '' ? this.options.model : requested;
    if (model === '') throw modelNotFound('(none)', []);
    return model;
  }

  async listModels(signal?: AbortSignal): Promise<readonly ModelInfo[]> {
    const response = await this.send(this.endpoint('models'), { method: 'GET' }, signal);
    const body = await this.readJson(response);
    const data = isObject(body) && Array.isArray(body.data) ? body.data : [];
    const models = data.flatMap((entry) =>
      isObject(entry) && typeof entry.id === 'string'
        ? [{ id: entry.id, ownedBy: typeof entry.owned_by === 'string' ? entry.owned_by : this.kind }]
        : [],
    );
    if (this.options.model !== '' && !models.some((m) => m.id === this.options.model))
      models.unshift({ id: this.options.model, ownedBy: this.kind });
    return models;
  }

  async complete(request: CompletionRequest): Promise<CompletionResult> {
    const stream = request.onText !== undefined;
    const body: JsonObject = {
      model: request.model,
      messages: request.messages.map(wireMessage),
      max_tokens: request.maxTokens,
      stream,
    };
    if (request.temperature !== undefined) body.temperature = request.temperature;
    if (request.tools.length > 0) {
      body.tools = request.tools.map((tool) => ({
        type: 'function',
        function: { name: tool.name, description: tool.description, parameters: tool.parameters as unknown as Json },
      }));
      body.tool_choice = 'auto';
    }
    const response = await this.send(
      this.endpoint('chat/completions'),
      { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) },
      request.signal,
    );
    const type = response.headers.get('content-type') ?? '';
    if (stream && type.includes('text/event-stream') && response.body !== null) return this.readStream(response.body, request.onText);
    const result = this.readCompletion(await this.readJson(response));
    if (stream && result.content !== '') request.onText(result.content);
    return result;
  }

  async close(): Promise<void> {
    this.reached = false;
  }

  private async send(url: string, init: RequestInit, signal: AbortSignal | undefined): Promise<Response> {
    const timeout = this.options.timeoutMs > 0 ? AbortSignal.timeout(this.options.timeoutMs) : null;
    const signals = [signal, timeout].filter((s): s is AbortSignal => s !== undefined && s !== null);
    const headers = new Headers(init.headers);
    headers.set('accept', 'application/json, text/event-stream');
    if (this.options.apiKey !== '') headers.set('authorization', `Bearer ${this.options.apiKey}`);
    let response: Response;
    try {
      response = await fetch(url, { ...init, headers, signal: signals.length === 0 ? undefined : AbortSignal.any(signals) });
    } catch (error) {
      if (timeout?.aborted) throw providerTimedOut(this.options.timeoutMs);
      if (signal?.aborted) throw error;
      const reason = error instanceof Error ? ((error.cause as Error | undefined)?.message ?? error.message) : String(error);
      throw providerUnavailable(`The assistant provider at ${this.options.apiUrl} is unreachable: ${reason}`, error);
    }
    this.reached = true;
    if (response.ok) return response;
    const message = upstreamMessage(await response.text().catch(() => ''));
    if (response.status === 404)
      throw new AssistantError(404, 'not_found_error', 'model_not_found', `The provider answered 404: ${message}`);
    if (response.status === 400 || response.status === 422)
      throw new AssistantError(400, 'invalid_request_error', 'provider_rejected_request', `The provider rejected the request: ${message}`);
    if (response.status === 429)
      throw new AssistantError(429, 'upstream_error', 'provider_rate_limited', `The provider is rate limiting: ${message}`);
    if (response.status === 401 || response.status === 403)
      throw providerFailed(`The provider refused the credentials (${response.status}); check GRAPHDB_ASSISTANT_API_KEY: ${message}`);
    throw providerFailed(`The provider failed with HTTP ${response.status}: ${message}`);
  }

  private async readJson(response: Response): Promise<Json> {
    const text = await response.text();
    try {
      return JSON.parse(text) as Json;
    } catch (error) {
      throw providerFailed(`The provider answered with invalid JSON: ${text.slice(0, 200)}`, error);
    }
  }

  private readCompletion(body: Json): CompletionResult {
    const choice = isObject(body) && Array.isArray(body.choices) ? body.choices[0] : undefined;
    if (!isObject(choice) || !isObject(choice.message)) throw providerFailed('The provider answered without choices[0].message.');
    const message = choice.message;
    const toolCalls = toolCallsOf(message.tool_calls);
    return {
      content: typeof message.content === 'string' ? message.content : '',
      toolCalls,
      finishReason: finishReason(choice.finish_reason, toolCalls.length),
      usage: usageOf(isObject(body) ? body.usage : undefined),
    };
  }

  private async readStream(body: AsyncIterable<Uint8Array>, onText: (delta: string) => void): Promise<CompletionResult> {
    let content = '';
    let reason: Json | undefined;
    let usage: Json | undefined;
    const calls = new ToolCallAccumulator();
    for await (const data of readSseData(body)) {
      if (data.trim() === '[DONE]') break;
      let chunk: Json;
      try {
        chunk = JSON.parse(data) as Json;
      } catch (error) {
        throw providerFailed(`The provider streamed an unreadable event: ${data.slice(0, 200)}`, error);
      }
      if (!isObject(chunk)) continue;
      if (isObject(chunk.error))
        throw providerFailed(
          `The provider failed while streaming: ${typeof chunk.error.message === 'string' ? chunk.error.message : 'unknown error'}`,
        );
      if (chunk.usage !== undefined && chunk.usage !== null) usage = chunk.usage;
      const choice = Array.isArray(chunk.choices) ? chunk.choices[0] : undefined;
      if (!isObject(choice)) continue;
      if (choice.finish_reason !== undefined && choice.finish_reason !== null) reason = choice.finish_reason;
      const delta = choice.delta;
      if (!isObject(delta)) continue;
      if (typeof delta.content === 'string' && delta.content !== '') {
        content += delta.content;
        onText(delta.content);
      }
      calls.add(delta.tool_calls);
    }
    const toolCalls = calls.result();
    return { content, toolCalls, finishReason: finishReason(reason, toolCalls.length), usage: usageOf(usage) };
  }
}
