/** Long-term memory for AI agents (docs/ai-memory.md): the memory tools and memory decay. */
export { MemoryTools, QUERY_ROW_LIMIT, type ToolOutcome } from './memory-tools.js';
export { MEMORY_LABEL, type MemorySearch, type MemoryToolHost } from './tool-host.js';
export {
  allowedTools,
  DEFAULT_LINK_TYPE,
  MEMORY_TOOLS,
  MEMORY_TOOL_NAMES,
  SUGGESTED_LINK_TYPES,
  TASK_STATUSES,
} from './tool-definitions.js';
export { TASK_LABEL, BLOCKS } from './tasks.js';
export { sessionRunner, type CypherRunner, type QueryRows, type RunOptions } from './cypher-runner.js';
export { ARCHIVED_LABEL, DEFAULT_PROFILE, DecayModel, type DecayBreakdown, type DecayInputs, type DecayProfile } from './decay-model.js';
export { MemoryDecay, type DecayTimers, type MemoryDecayOptions, type RecalculationResult } from './memory-decay.js';
export { memoryJson, memoryProjection, type MemoryJson } from './tool-args.js';
export { cypherToJson, jsonToCypher, type JsonValue } from './json-values.js';
