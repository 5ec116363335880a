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

/**
 * An ungrouped `count` over a one-hop directed expansion from a bound node, answered from the
 * node's degree (an index count per type) instead of visiting each relationship: like the
 * Aggregation it replaces, it reads all of its input and produces one row binding `name` to the
 * sum over the input rows of the degree of `from` (0 where `from` is null).
 */
export interface RelationshipCountFromDegree {
  readonly op: 'RelationshipCountFromDegree';
  readonly input: LogicalOperator;
  /** The column the count is bound to. */
  readonly name: string;
  /** The node variable expanded from. */
  readonly from: string;
  readonly direction: 'out' | 'in';
  /** The relationship types counted (distinct); empty for every type. */
  readonly types: readonly string[];
}
