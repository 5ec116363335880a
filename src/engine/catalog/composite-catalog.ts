/**
 * Composite databases (`CREATE COMPOSITE DATABASE c`) and their constituents (`CREATE ALIAS c.a
 * FOR DATABASE db`), kept in the `system` database's file (tables `composite_databases` and
 * `composite_constituents`). A composite stores no data: each constituent is an alias that names
 * one standard database, reached as `c.a` from a session connected to the composite. Names are
 * compared case-insensitively (stored lower-case).
 */
import type { Connection } from '../storage/sqlite/connection.js';
import { decodeStandalone, encodeStandalone } from '../storage/codec/value-codec.js';
import type { CypherValue } from '../values/types.js';

/** One constituent alias of a composite database. */
export interface ConstituentEntry {
  /** The composite database. */
  readonly composite: string;
  /** The alias inside the composite (`a` of `c.a`). */
  readonly alias: string;
  /** The standard database it names. */
  readonly target: string;
  readonly properties: ReadonlyMap<string, CypherValue>;
}

/** One composite database. */
export interface CompositeEntry {
  readonly name: string;
  readonly createdAt: Date;
}

const TABLES_SQL = `CREATE TABLE IF NOT EXISTS composite_databases (
  name TEXT PRIMARY KEY,
  created_at INTEGER NOT NULL
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS composite_constituents (
  composite TEXT NOT NULL,
  alias TEXT NOT NULL,
  target TEXT NOT NULL,
  properties BLOB,
  PRIMARY KEY (composite, alias)
) WITHOUT ROWID`;

/** The qualified name of a constituent (`composite.alias`). */
export function constituentName(entry: Pick<ConstituentEntry, 'composite' | 'alias'>): string {
  return `${entry.composite}.${entry.alias}`;
}

/** Ensures the composite tables exist. */
export function ensureCompositeTables(connection: Connection): void {
  connection.db.exec(TABLES_SQL);
}

/** Every composite database, ordered by name. */
export function readComposites(connection: Connection): CompositeEntry[] {
  const rows = connection.raw('SELECT name, created_at FROM composite_databases ORDER BY name').all() as [string, bigint][];
  return rows.map(([name, created]) => ({ name, createdAt: new Date(Number(created)) }));
}

/** Every constituent, ordered by composite and alias. */
export function readConstituents(connection: Connection): ConstituentEntry[] {
  const rows = connection
    .raw('SELECT composite, alias, target, properties FROM composite_constituents ORDER BY composite, alias')
    .all() as [string, string, string, Buffer | null][];
  return rows.map(([composite, alias, target, properties]) => {
    const decoded = properties === null ? null : decodeStandalone(properties);
    return { composite, alias, target, properties: decoded instanceof Map ? decoded : new Map() };
  });
}

/** Adds a composite database row. */
export function insertComposite(connection: Connection, name: string, createdAt: Date): void {
  connection.stmt('INSERT INTO composite_databases (name, created_at) VALUES (?, ?)').run(name, createdAt.getTime());
}

/** Removes a composite database and its constituents. */
export function deleteComposite(connection: Connection, name: string): void {
  connection.stmt('DELETE FROM composite_constituents WHERE composite = ?').run(name);
  connection.stmt('DELETE FROM composite_databases WHERE name = ?').run(name);
}

/** Inserts or replaces a constituent row. */
export function writeConstituent(connection: Connection, entry: ConstituentEntry): void {
  const properties = entry.properties.size === 0 ? null : encodeStandalone(entry.properties);
  connection
    .stmt('INSERT OR REPLACE INTO composite_constituents (composite, alias, target, properties) VALUES (?, ?, ?, ?)')
    .run(entry.composite, entry.alias, entry.target, properties);
}

/** Removes a constituent row. */
export function deleteConstituent(connection: Connection, composite: string, alias: string): void {
  connection.stmt('DELETE FROM composite_constituents WHERE composite = ? AND alias = ?').run(composite, alias);
}
