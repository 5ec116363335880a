/**
 * The engine's public API (`import { GraphDB } from 'graphdb'`): the facade, the session
 * contract, errors and the value model.
 */
export { GraphDB } from './graphdb.js';
export type { CacheFigures, GraphDBOptions, GraphStats } from './graphdb.js';
export { EngineSession, type DatabaseSession } from './session/engine-session.js';
export { EngineTransaction } from './session/engine-transaction.js';
export { TransactionRegistry, type ClientInfo, type TransactionInfo, type TerminationOutcome } from './session/transaction-registry.js';
export type * from './session/types.js';
export { AS_OF_TIME_KEY, AS_OF_VERSION_KEY, asOfFromHeaders, type AsOf } from './session/temporal-reads.js';
export type { WriteCounters } from './storage/graph-store.js';
export type { EntityChange, EntityChangeKind } from './entity-changes.js';
export type { DatabaseInfo } from './cypher/runtime/admin-hooks.js';
export type { BulkLoader, BulkLoadOptions, BulkLoadResult } from './storage/bulk-load.js';
export * from './errors/index.js';
export * from './values/types.js';
export * from './memory/index.js';
export { AssistantService, runAgent, truncateToolResult, type ToolCall, type ToolDefinition } from './assistant/index.js';
export { formatFloat, formatTemporal, formatVector, crsName, cypherToString, formatLiteral, valueText } from './values/to-string.js';
export {
  makeVector,
  vectorFromBytes,
  vectorToBytes,
  vectorTypeOfMarker,
  vectorCoordinateType,
  VECTOR_TYPE_MARKERS,
} from './values/vector.js';
export { zoneOffsetAt, resolveLocal } from './values/temporal/time-zone.js';
export { epochDayOf } from './values/temporal/calendar.js';
export { SYSTEM_DATABASE, type MvccStatus, type PruneResult } from './storage/index.js';
export { DatabaseServices, type LifecycleOptions, type Vocabulary } from './database-services.js';
export { searchSettingsFrom, loadVectorBackend, type DatabaseSearch, type SearchMethod, type VectorBackend } from './search/index.js';
export { PointCollections, type PointPredicate, type ScoredPoint, type UpsertOptions } from './search/collections.js';
export {
  CollectionAlreadyExists,
  CollectionNotFound,
  canonicalPointId,
  comparePointIds,
  pointIdKey,
  type CollectionSpec,
  type Distance,
  type Payload,
  type PayloadIndexType,
  type PayloadObject,
  type PayloadValue,
  type PointId,
  type StoredPoint,
  type VectorSpec,
} from './search/collections-codec.js';
export { TokenKind, tokenize, type Token } from './cypher/lexer/index.js';
export { AsyncWriteClassifier, type ClassifiedStatement, type PureCreateEstimate } from './cypher/write-behind-eligibility.js';
export { isList, isMap, temporalOrPointName } from './values/kinds.js';
export type { ClusterNode, ClusterOptions, ClusterStatus, ReplicaFigures } from './cluster/cluster-node.js';
export type { LeaderInfo } from './cluster/leader-lease.js';
export * from './mvcc/lifecycle/index.js';
export type { MemberInfo } from './cluster/member-registry.js';
export { bootstrapFromSnapshots, type Bootstrapped, type BootstrapOptions } from './cluster/bootstrap-on-demand.js';
