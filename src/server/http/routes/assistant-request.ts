/**
 * Reading and writing the OpenAI-compatible bodies of the assistant routes: the chat-completion
 * request (messages with text or text parts, assistant tool calls, tool results, model, stream,
 * max_tokens / max_completion_tokens, temperature, and graphdb's `database`), the completion
 * and chunk objects, and the `{error: {message, type, code}}` error body.
 */
import { randomUUID } from 'node:crypto';
import {
  type AgentResult,
  type ChatMessage,
  type ChatRole,
  type ToolCall,
  AssistantError,
  invalidRequest,
} from '../../../engine/assistant/index.js';
import { GraphError } from '../../../engine/index.js';
import { mapError } from '../http-errors.js';
import type { JsonValue } from '../json/parse-json.js';

/** A validated chat-completion request. */
export interface ChatBody {
  readonly messages: readonly ChatMessage[];
  readonly model?: string;
  readonly stream: boolean;
  readonly maxTokens?: number;
  readonly temperature?: number;
  readonly database?: string;
}

type JsonObject = { readonly [key: string]: JsonValue };

const ROLES: readonly ChatRole[] = ['system', 'user', 'assistant', 'tool'];
const MAX_TOKENS_LIMIT = 1_000_000;

function isObject(value: JsonValue | undefined): value is JsonObject {
  return value !== null && value !== undefined && typeof value === 'object' && !Array.isArray(value);
}

function numberOf(value: JsonValue | undefined): number | undefined {
  if (typeof value === 'bigint') return Number(value);
  return typeof value === 'number' ? value : undefined;
}

function textContent(value: JsonValue | undefined, where: string): string | null {
  if (value === undefined || value === null) return null;
  if (typeof value === 'string') return value;
  if (Array.isArray(value)) {
    return value
      .map((part, index) => {
        if (isObject(part) && part.type === 'text' && typeof part.text === 'string') return part.text;
        throw invalidRequest(`${where}.content[${index}]: only {"type": "text", "text": ...} parts are supported`);
      })
      .join('');
  }
  throw invalidRequest(`${where}.content must be a string, null or a list of text parts`);
}

function toolCallsOf(value: JsonValue | undefined, where: string): ToolCall[] | undefined {
  if (value === undefined || value === null) return undefined;
  if (!Array.isArray(value)) throw invalidRequest(`${where}.tool_calls must be a list`);
  return value.map((call, index) => {
    const fn = isObject(call) ? call.function : undefined;
    if (!isObject(call) || typeof call.id !== 'string' || !isObject(fn) || typeof fn.name !== 'string') {
      throw invalidRequest(`${where}.tool_calls[${index}] must be {"id", "type": "function", "function": {"name", "arguments"}}`);
    }
    const args = fn.arguments;
    return { id: call.id, name: fn.name, arguments: typeof args === 'string' ? args : JSON.stringify(args ?? {}) };
  });
}

function messageOf(value: JsonValue, index: number): ChatMessage {
  const where = `messages[${index}]`;
  if (!isObject(value)) throw invalidRequest(`${where} must be an object`);
  const role = value.role;
  if (typeof role !== 'string' || !ROLES.includes(role as ChatRole))
    throw invalidRequest(`${where}.role must be one of ${ROLES.join(', ')}`);
  const content = textContent(value.content, where);
  if (role === 'tool') {
    if (typeof value.tool_call_id !== 'string') throw invalidRequest(`${where}.tool_call_id is required for a tool message`);
    return {
      role: 'tool',
      content: content ?? '',
      toolCallId: value.tool_call_id,
      ...(typeof value.name === 'string' ? { name: value.name } : {}),
    };
  }
  const toolCalls = role === 'assistant' ? toolCallsOf(value.tool_calls, where) : undefined;
  if (content === null && toolCalls === undefined) throw invalidRequest(`${where}.content is required`);
  return { role: role as ChatRole, content, ...(toolCalls !== undefined ? { toolCalls } : {}) };
}

/** Validates a chat-completion body; throws a 400 AssistantError naming the bad field. */
export function parseChatBody(body: JsonValue | undefined): ChatBody {
  if (!isObject(body)) throw invalidRequest('The request body must be a JSON object with a "messages" list.');
  const messages = body.messages;
  if (!Array.isArray(messages) || messages.length === 0) throw invalidRequest('"messages" must be a non-empty list.');
  const model = body.model;
  if (model !== undefined && model !== null && typeof model !== 'string') throw invalidRequest('"model" must be a string.');
  const stream = body.stream ?? false;
  if (typeof stream !== 'boolean') throw invalidRequest('"stream" must be a boolean.');
  const rawMax = body.max_completion_tokens ?? body.max_tokens;
  const maxTokens = numberOf(rawMax ?? undefined);
  if (
    rawMax !== undefined &&
    rawMax !== null &&
    (maxTokens === undefined || !Number.isInteger(maxTokens) || maxTokens < 1 || maxTokens > MAX_TOKENS_LIMIT)
  ) {
    throw invalidRequest(`"max_tokens" must be an integer between 1 and ${MAX_TOKENS_LIMIT}.`);
  }
  const rawTemperature = body.temperature;
  const temperature = numberOf(rawTemperature ?? undefined);
  if (rawTemperature !== undefined && rawTemperature !== null && (temperature === undefined || !(temperature >= 0 && temperature <= 2))) {
    throw invalidRequest('"temperature" must be a number between 0 and 2.');
  }
  const database = body.database;
  if (database !== undefined && database !== null && (typeof database !== 'string' || database === ''))
    throw invalidRequest('"database" must be a database name.');
  return {
    messages: messages.map(messageOf),
    stream,
    ...(typeof model === 'string' && model !== '' ? { model } : {}),
    ...(maxTokens !== undefined && rawMax !== null ? { maxTokens } : {}),
    ...(temperature !== undefined && rawTemperature !== null ? { temperature } : {}),
    ...(typeof database === 'string' ? { database: database.toLowerCase() } : {}),
  };
}

/** Identity and timing of one completion, shared by its chunks. */
export interface CompletionIdentity {
  readonly id: string;
  readonly created: number;
  readonly model: string;
}

/** A new completion identity. */
export function completionIdentity(model: string): CompletionIdentity {
  return { id: `chatcmpl-${randomUUID()}`, created: Math.floor(Date.now() / 1000), model };
}

function usageJson(result: AgentResult) {
  const { promptTokens, completionTokens } = result.usage;
  return { prompt_tokens: promptTokens, completion_tokens: completionTokens, total_tokens: promptTokens + completionTokens };
}

/** graphdb's extension of a completion: the database and the tool calls the loop made. */
function extensionJson(result: AgentResult, database: string) {
  return {
    database,
    rounds: result.rounds,
    rounds_exhausted: result.roundsExhausted,
    tool_calls: result.toolCalls.map((call) => ({
      id: call.id,
      name: call.name,
      arguments: call.arguments,
      ok: call.ok,
      truncated_chars: call.truncatedChars,
      round: call.round,
    })),
  };
}

/** The `chat.completion` object of a non-streaming answer. */
export function completionJson(identity: CompletionIdentity, result: AgentResult, database: string) {
  return {
    id: identity.id,
    object: 'chat.completion',
    created: identity.created,
    model: identity.model,
    choices: [{ index: 0, message: { role: 'assistant', content: result.content }, finish_reason: result.finishReason, logprobs: null }],
    usage: usageJson(result),
    graphdb: extensionJson(result, database),
  };
}

/** One `chat.completion.chunk` carrying a delta (role or text). */
export function deltaChunkJson(identity: CompletionIdentity, delta: { role?: 'assistant'; content?: string }) {
  return {
    id: identity.id,
    object: 'chat.completion.chunk',
    created: identity.created,
    model: identity.model,
    choices: [{ index: 0, delta, finish_reason: null }],
  };
}

/** The last chunk: empty delta, finish reason, usage and graphdb's extension. */
export function finalChunkJson(identity: CompletionIdentity, result: AgentResult, database: string) {
  return {
    id: identity.id,
    object: 'chat.completion.chunk',
    created: identity.created,
    model: identity.model,
    choices: [{ index: 0, delta: {}, finish_reason: result.finishReason }],
    usage: usageJson(result),
    graphdb: extensionJson(result, database),
  };
}

const TYPE_BY_STATUS: ReadonlyMap<number, string> = new Map([
  [400, 'invalid_request_error'],
  [401, 'authentication_error'],
  [403, 'permission_error'],
  [404, 'not_found_error'],
  [413, 'invalid_request_error'],
  [429, 'rate_limit_error'],
]);

/** Status and `{error: {message, type, code}}` body of any error on the assistant routes. */
export function assistantErrorBody(error: unknown): { status: number; body: { error: { message: string; type: string; code: string } } } {
  if (error instanceof AssistantError) {
    return { status: error.status, body: { error: { message: error.message, type: error.type, code: error.code } } };
  }
  const { status, entry } = mapError(error);
  const type = TYPE_BY_STATUS.get(status) ?? (status >= 500 ? 'server_error' : 'invalid_request_error');
  const code = error instanceof GraphError ? error.code : entry.code;
  return { status, body: { error: { message: entry.message, type, code } } };
}
