import type { LogicalOperator } from './logical-operator.js';

/** One property column a NodePropertyScan binds: the value of `key`, or null, under `name`. */
export interface PropertyColumn {
  readonly key: string;
  readonly name: string;
}

/**
 * A node scan whose node variable is read only through properties (Neo4j's scan plus
 * CacheProperties, Kuzu's property scan): per input row and per node carrying `label` (every node
 * when null), in ascending id order, binds each column's name to that node's property. The node
 * itself (`variable`, kept for plan text) is not bound. Produced by the `scanPropertyColumns`
 * rewrite; the runtime reads column batches (`GraphReader.scanNodeProperties`) when the reader
 * offers them.
 */
export interface NodePropertyScan {
  readonly op: 'NodePropertyScan';
  readonly input: LogicalOperator;
  readonly variable: string;
  readonly label: string | null;
  readonly columns: readonly PropertyColumn[];
}
