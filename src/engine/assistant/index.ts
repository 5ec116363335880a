/** The optional AI assistant (docs/assistant.md): providers, memory tools, the agentic loop. */
export { AssistantService, type AssistantChatRequest, type AssistantServiceOptions, type AssistantStatus } from './service.js';
export {
  runAgent,
  truncateToolResult,
  TOOLS_SYSTEM_PROMPT,
  type AgentOptions,
  type AgentRequest,
  type AgentResult,
  type ToolCallReport,
} from './agent-loop.js';
export {
  allowedTools,
  MemoryTools,
  MEMORY_LABEL,
  MEMORY_TOOLS,
  MEMORY_TOOL_NAMES,
  type MemoryToolHost,
  type ToolOutcome,
} from '../memory/index.js';
export { AssistantError, assistantDisabled, invalidRequest, modelNotFound, type AssistantErrorType } from './errors.js';
export { LocalChatProvider, toChatHistory, type LocalChatOptions } from './llama-provider.js';
export { OpenAiCompatibleProvider, type RemoteProviderOptions } from './openai-provider.js';
export { readSseData } from './sse.js';
export type * from './types.js';
