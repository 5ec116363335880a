/**
 * The agentic loop: model -> tool calls -> tool results -> model, at most `maxRounds` rounds
 * that call tools; then one last call without tools gives the final answer. Each tool result is
 * truncated to `maxToolResultChars` before it enters the conversation, so one large result cannot
 * overflow the model's context.
 */
import type { MemoryTools } from '../memory/index.js';
import type { ChatMessage, ChatProvider, CompletionRequest, CompletionResult, FinishReason, TokenUsage } from './types.js';

/** Inputs of one conversation turn: a model call's inputs but the tools (the loop offers the memory tools). */
export type AgentRequest = Omit<CompletionRequest, 'tools'>;

/** Loop settings. */
export interface AgentOptions {
  readonly provider: ChatProvider;
  /** Null or no definitions: plain chat without tools. */
  readonly tools: MemoryTools | null;
  readonly maxRounds: number;
  readonly maxToolResultChars: number;
}

/** One executed tool call, reported to the client. */
export interface ToolCallReport {
  readonly id: string;
  readonly name: string;
  readonly arguments: string;
  readonly ok: boolean;
  /** Characters cut from the result before it reached the model. */
  readonly truncatedChars: number;
  readonly round: number;
}

/** The final answer and what it took. */
export interface AgentResult {
  readonly content: string;
  readonly finishReason: FinishReason;
  /** Model calls that requested tools. */
  readonly rounds: number;
  /** True when the model still wanted tools after `maxRounds` rounds. */
  readonly roundsExhausted: boolean;
  readonly toolCalls: readonly ToolCallReport[];
  readonly usage: TokenUsage;
}

/** The system prompt added when tools are offered and the conversation has none. */
export const TOOLS_SYSTEM_PROMPT =
  'You are the graphdb assistant. You can keep long-term memories in the graph database with the tools ' +
  'provided: store facts worth remembering, discover what you remember before answering, link related ' +
  'memories, track tasks, and read the graph with Cypher. Answer concisely.';

/** Cuts `text` to `limit` characters, saying how much was cut; returns the text and the cut count. */
export function truncateToolResult(text: string, limit: number): { text: string; cut: number } {
  if (text.length <= limit) return { text, cut: 0 };
  const cut = text.length - limit;
  return { text: `${text.slice(0, limit)}… [truncated ${cut} characters]`, cut };
}

/** Runs one turn of the conversation. */
export async function runAgent(request: AgentRequest, options: AgentOptions): Promise<AgentResult> {
  const definitions = options.tools?.definitions ?? [];
  const messages: ChatMessage[] = [...request.messages];
  if (definitions.length > 0 && !messages.some((message) => message.role === 'system')) {
    messages.unshift({ role: 'system', content: TOOLS_SYSTEM_PROMPT });
  }
  const reports: ToolCallReport[] = [];
  let promptTokens = 0;
  let completionTokens = 0;
  for (let round = 0; ; round++) {
    const offerTools = definitions.length > 0 && round < options.maxRounds;
    const result: CompletionResult = await options.provider.complete({
      model: request.model,
      messages,
      tools: offerTools ? definitions : [],
      maxTokens: request.maxTokens,
      ...(request.temperature !== undefined ? { temperature: request.temperature } : {}),
      ...(request.signal !== undefined ? { signal: request.signal } : {}),
      ...(request.onText !== undefined ? { onText: request.onText } : {}),
    });
    promptTokens += result.usage.promptTokens;
    completionTokens += result.usage.completionTokens;
    if (!offerTools || result.toolCalls.length === 0 || options.tools === null) {
      return {
        content: result.content,
        finishReason: result.finishReason === 'tool_calls' ? 'stop' : result.finishReason,
        rounds: round,
        roundsExhausted: definitions.length > 0 && round >= options.maxRounds,
        toolCalls: reports,
        usage: { promptTokens, completionTokens },
      };
    }
    messages.push({ role: 'assistant', content: result.content === '' ? null : result.content, toolCalls: result.toolCalls });
    for (const call of result.toolCalls) {
      request.signal?.throwIfAborted();
      const outcome = await options.tools.run(call);
      const { text, cut } = truncateToolResult(outcome.output, options.maxToolResultChars);
      reports.push({ id: call.id, name: call.name, arguments: call.arguments, ok: outcome.ok, truncatedChars: cut, round: round + 1 });
      messages.push({ role: 'tool', toolCallId: call.id, name: call.name, content: text });
    }
  }
}
