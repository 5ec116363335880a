import type { LogicalOperator } from './logical-operator.js';

/**
 * Drops rows where one relationship is bound twice within a MATCH pattern (Cypher's
 * relationship isomorphism). `lists` are variable-length relationship lists.
 */
export interface RelationshipUniqueness {
  readonly op: 'RelationshipUniqueness';
  readonly input: LogicalOperator;
  readonly relationships: readonly string[];
  readonly lists: readonly string[];
}
