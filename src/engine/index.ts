/**
 * The engine's public API (`import { GraphDB } from 'graphdb'`): the facade, the session
 * contract, errors and the value model.
 */
export { GraphDB } from './graphdb.js';
export type { GraphDBOptions, GraphStats } from './graphdb.js';
export { EngineSession } from './session/engine-session.js';
export { EngineTransaction } from './session/engine-transaction.js';
export { TransactionRegistry, type ClientInfo, type TransactionInfo, type TerminationOutcome } from './session/transaction-registry.js';
export type * from './session/types.js';
export type { ChangeEvent, WriteCounters } from './storage/graph-store.js';
export type { DatabaseInfo } from './cypher/runtime/admin-hooks.js';
export type { BulkLoader, BulkLoadOptions, BulkLoadResult } from './storage/bulk-load.js';
export * from './errors/index.js';
export * from './values/types.js';
export * from './memory/index.js';
export { AssistantService, runAgent, truncateToolResult, type ToolCall, type ToolDefinition } from './assistant/index.js';
