/**
 * The change record of one committed write transaction: its commit version, the id allocators
 * after it, the final state of every node and relationship it changed (as change events) and
 * the schema commands it ran, in order. Replication (src/engine/cluster) turns it into a log
 * entry and applies it on other members with `applyCommitRecord`.
 */
import type { CatalogTablesState } from '../catalog/catalog-tables.js';
import type { ChangeEvent, ConstraintDefinition, IndexDefinition } from './graph-store.js';

/** A schema command that changed the catalog. */
export type SchemaOp =
  | { readonly op: 'createIndex'; readonly definition: Omit<IndexDefinition, 'state' | 'owningConstraint'> }
  | { readonly op: 'dropIndex'; readonly name: string }
  | { readonly op: 'createConstraint'; readonly definition: ConstraintDefinition }
  | { readonly op: 'dropConstraint'; readonly name: string };

/** Everything another member needs to reproduce one commit. */
export interface CommitRecord {
  readonly version: bigint;
  readonly nextNodeId: bigint;
  readonly nextRelId: bigint;
  /** Final states (created/updated) and deletions, nodes first, in first-change order. */
  readonly events: readonly ChangeEvent[];
  readonly schema: readonly SchemaOp[];
  /**
   * The commit time (epoch ms) the leader records for this version; members record the same, so
   * reads at a time and createdAt/updatedAt agree across the cluster. Absent in older entries.
   */
  readonly committedAt?: number;
  /**
   * The `system` database's catalog tables after the commit (catalog/catalog-tables.ts), when
   * the commit changed them (CREATE/DROP DATABASE, aliases, limits, options); absent otherwise.
   */
  readonly catalog?: CatalogTablesState;
}
