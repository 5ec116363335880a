/**
 * The SQLite schema of one database file (one file per database, `system` included).
 *
 * Heads (current state) live in `nodes` / `rels`; their `version` column is the commit version
 * that produced the head. When a write transaction with version V first changes or deletes a
 * head whose version is below V, the old head is copied to `node_history` / `rel_history` with
 * the half-open validity range [from_version, to_version = V). A read at version R therefore
 * sees heads with version <= R plus history rows with from_version <= R < to_version.
 */

/** Bump when the on-disk layout changes incompatibly. */
export const STORAGE_FORMAT_VERSION = 2;

/** DDL run on a fresh file (idempotent). */
export const SCHEMA_SQL = `
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value ANY) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS state (key TEXT PRIMARY KEY, value INTEGER NOT NULL) WITHOUT ROWID;
INSERT OR IGNORE INTO state (key, value) VALUES ('version', 0);
CREATE TABLE IF NOT EXISTS commits (version INTEGER PRIMARY KEY, committed_at INTEGER NOT NULL);
CREATE INDEX IF NOT EXISTS commits_by_time ON commits (committed_at);

CREATE TABLE IF NOT EXISTS label_tokens (id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE);
CREATE TABLE IF NOT EXISTS type_tokens (id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE);
CREATE TABLE IF NOT EXISTS key_tokens (id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE);

CREATE TABLE IF NOT EXISTS nodes (
  id INTEGER PRIMARY KEY,
  version INTEGER NOT NULL,
  labels TEXT NOT NULL,
  props BLOB
);
CREATE TABLE IF NOT EXISTS node_labels (
  label INTEGER NOT NULL,
  node INTEGER NOT NULL,
  PRIMARY KEY (label, node)
) WITHOUT ROWID;

CREATE TABLE IF NOT EXISTS rels (
  id INTEGER PRIMARY KEY,
  type INTEGER NOT NULL,
  src INTEGER NOT NULL,
  dst INTEGER NOT NULL,
  version INTEGER NOT NULL,
  props BLOB
);
CREATE INDEX IF NOT EXISTS rels_out ON rels (src, type, dst, id);
CREATE INDEX IF NOT EXISTS rels_in ON rels (dst, type, src, id);
CREATE INDEX IF NOT EXISTS rels_by_type ON rels (type, id);

CREATE TABLE IF NOT EXISTS node_history (
  id INTEGER NOT NULL,
  from_version INTEGER NOT NULL,
  to_version INTEGER NOT NULL,
  labels TEXT NOT NULL,
  props BLOB,
  PRIMARY KEY (id, from_version)
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS node_history_by_to ON node_history (to_version);
CREATE TABLE IF NOT EXISTS rel_history (
  id INTEGER NOT NULL,
  from_version INTEGER NOT NULL,
  to_version INTEGER NOT NULL,
  type INTEGER NOT NULL,
  src INTEGER NOT NULL,
  dst INTEGER NOT NULL,
  props BLOB,
  PRIMARY KEY (id, from_version)
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS rel_history_by_src ON rel_history (src);
CREATE INDEX IF NOT EXISTS rel_history_by_dst ON rel_history (dst);
CREATE INDEX IF NOT EXISTS rel_history_by_to ON rel_history (to_version);

CREATE TABLE IF NOT EXISTS schema_indexes (
  id INTEGER PRIMARY KEY,
  name TEXT NOT NULL UNIQUE,
  type TEXT NOT NULL,
  entity_type TEXT NOT NULL,
  labels_or_types TEXT NOT NULL,
  properties TEXT NOT NULL,
  owning_constraint TEXT,
  options BLOB
);
-- The version that created an entity, recorded by the MVCC pruner when it removes the entity's
-- oldest version (createdAt survives pruning; kind 0 node, 1 relationship).
CREATE TABLE IF NOT EXISTS entity_created (
  kind INTEGER NOT NULL,
  id INTEGER NOT NULL,
  version INTEGER NOT NULL,
  PRIMARY KEY (kind, id)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS schema_constraints (
  name TEXT PRIMARY KEY,
  type TEXT NOT NULL,
  entity_type TEXT NOT NULL,
  labels_or_types TEXT NOT NULL,
  properties TEXT NOT NULL,
  property_type TEXT
);
CREATE TABLE IF NOT EXISTS index_entries (
  index_id INTEGER NOT NULL,
  key BLOB NOT NULL,
  entity INTEGER NOT NULL,
  PRIMARY KEY (index_id, key, entity)
) WITHOUT ROWID;
`;
