import type { LogicalOperator } from './logical-operator.js';

/**
 * Neo4j's NodeCountFromCountStore: answers `MATCH (n[:Label]) RETURN count(n)` from the store's
 * node counts instead of scanning. Like the Aggregation it replaces, it reads all of its input
 * and produces one row binding `name` to (input rows) × (node count).
 */
export interface NodeCountFromCountStore {
  readonly op: 'NodeCountFromCountStore';
  readonly input: LogicalOperator;
  /** The column the count is bound to (the replaced aggregate's generated name). */
  readonly name: string;
  /** The label counted; null for all nodes. */
  readonly label: string | null;
}

/**
 * Neo4j's RelationshipCountFromCountStore: answers `MATCH ()-[r[:T1|T2]]->() RETURN count(r)`
 * (one direction, no labels or properties on either end) from the store's relationship counts.
 */
export interface RelationshipCountFromCountStore {
  readonly op: 'RelationshipCountFromCountStore';
  readonly input: LogicalOperator;
  /** The column the count is bound to. */
  readonly name: string;
  /** The relationship types counted (summed); empty for every type. */
  readonly types: readonly string[];
}
