/**
 * The composite databases of a data directory and their constituent aliases, held in memory and
 * changed through a write transaction of `system` (see composite-catalog.ts for the tables).
 *
 * A constituent is named `composite.alias`; `resolve` maps that name to the standard database it
 * targets. Only a session connected to the composite reaches its constituents (session/composite/).
 */
import { ClientError, DatabaseNotFound, StatusCodes } from '../errors/index.js';
import type { Connection } from '../storage/sqlite/connection.js';
import type { CypherValue } from '../values/types.js';
import {
  constituentName,
  deleteComposite,
  deleteConstituent,
  ensureCompositeTables,
  insertComposite,
  readComposites,
  readConstituents,
  writeConstituent,
  type CompositeEntry,
  type ConstituentEntry,
} from './composite-catalog.js';
import { SYSTEM_DATABASE, normalizeDatabaseName } from './database-catalog.js';

/** What the composite directory needs from the storage engine and the alias directory. */
export interface CompositeHost {
  /** True when `name` (lower-case) is a standard database or `system`. */
  isDatabase(name: string): boolean;
  /** True when `name` (lower-case) is a (non-constituent) alias. */
  isAlias(name: string): boolean;
  /** Runs `change` in a committed write transaction of the system database. */
  changeCatalog(change: (connection: Connection) => void): Promise<void>;
}

/** Composite databases and constituents of one data directory. */
export class CompositeDirectory {
  private composites = new Map<string, CompositeEntry>();
  /** Constituents by qualified name (`composite.alias`). */
  private constituents = new Map<string, ConstituentEntry>();

  constructor(private readonly host: CompositeHost) {}

  /** Creates the tables when missing and loads the rows (at startup). */
  load(connection: Connection): void {
    ensureCompositeTables(connection);
    this.reload(connection);
  }

  /** Loads the rows again (the system database changed underneath). */
  reload(connection: Connection): void {
    this.composites = new Map(readComposites(connection).map((entry) => [entry.name, entry]));
    this.constituents = new Map(readConstituents(connection).map((entry) => [constituentName(entry), entry]));
  }

  /** True when `name` (case-insensitive) is a composite database. */
  isComposite(name: string): boolean {
    return this.composites.has(name.toLowerCase());
  }

  /** Every composite database, ordered by name. */
  list(): CompositeEntry[] {
    return [...this.composites.values()].sort((a, b) => a.name.localeCompare(b.name));
  }

  /** The constituents of a composite, ordered by alias. */
  constituentsOf(composite: string): ConstituentEntry[] {
    const lower = composite.toLowerCase();
    return [...this.constituents.values()].filter((c) => c.composite === lower).sort((a, b) => a.alias.localeCompare(b.alias));
  }

  /** Every constituent, ordered by qualified name. */
  allConstituents(): ConstituentEntry[] {
    return [...this.constituents.values()].sort((a, b) => constituentName(a).localeCompare(constituentName(b)));
  }

  /** The constituent a qualified name (`composite.alias`, case-insensitive) designates, if any. */
  constituent(name: string): ConstituentEntry | undefined {
    return this.constituents.get(name.toLowerCase());
  }

  /** The constituents that target `database`. */
  constituentsTargeting(database: string): ConstituentEntry[] {
    const lower = database.toLowerCase();
    return this.allConstituents().filter((c) => c.target === lower);
  }

  /**
   * The composite a constituent name belongs to: the longest prefix before a dot that names a
   * composite (`c.a` → `c`), or null when `name` does not start with a composite's name.
   */
  compositeOf(name: string): string | null {
    const lower = name.toLowerCase();
    for (let dot = lower.lastIndexOf('.'); dot > 0; dot = lower.lastIndexOf('.', dot - 1)) {
      const prefix = lower.slice(0, dot);
      if (this.composites.has(prefix)) return prefix;
    }
    return null;
  }

  /** CREATE COMPOSITE DATABASE. Returns false when the name existed and IF NOT EXISTS was given. */
  async create(name: string, ifNotExists: boolean): Promise<boolean> {
    const lower = normalizeDatabaseName(name);
    const taken = (): boolean => this.host.isDatabase(lower) || this.host.isAlias(lower) || this.composites.has(lower);
    const exists = (): ClientError =>
      new ClientError(StatusCodes.DatabaseExists, `Failed to create the specified database '${name}': Database already exists.`);
    if (taken()) {
      if (ifNotExists) return false;
      throw exists();
    }
    const entry: CompositeEntry = { name: lower, createdAt: new Date() };
    let created = true;
    await this.host.changeCatalog((connection) => {
      // Checked again under the system write lock: a concurrent CREATE may have committed.
      if (taken()) {
        if (!ifNotExists) throw exists();
        created = false;
        return;
      }
      insertComposite(connection, lower, entry.createdAt);
    });
    if (created) this.composites.set(lower, entry);
    return created;
  }

  /** DROP COMPOSITE DATABASE (its constituent aliases go with it). False when absent and IF EXISTS was given. */
  async drop(name: string, ifExists: boolean): Promise<boolean> {
    const lower = name.toLowerCase();
    if (!this.composites.has(lower)) {
      if (ifExists) return false;
      if (this.host.isDatabase(lower)) {
        throw new ClientError(
          StatusCodes.UnsupportedOperation,
          `Failed to delete the specified composite database '${name}': Database '${name}' is not composite.`,
        );
      }
      throw new DatabaseNotFound(name);
    }
    await this.host.changeCatalog((connection) => deleteComposite(connection, lower));
    for (const entry of this.constituentsOf(lower)) this.constituents.delete(constituentName(entry));
    this.composites.delete(lower);
    return true;
  }

  /** CREATE [OR REPLACE] ALIAS composite.alias FOR DATABASE target. False when it existed and IF NOT EXISTS was given. */
  async createConstituent(
    composite: string,
    qualified: string,
    definition: { target: string; properties: ReadonlyMap<string, CypherValue>; orReplace: boolean; ifNotExists: boolean },
  ): Promise<boolean> {
    const name = qualified.toLowerCase();
    const entry: ConstituentEntry = {
      composite,
      alias: name.slice(composite.length + 1),
      target: this.checkTarget(definition.target, qualified),
      properties: definition.properties,
    };
    if (entry.alias.length === 0) throw new DatabaseNotFound(qualified);
    const exists = (): ClientError =>
      new ClientError(
        StatusCodes.DatabaseExists,
        `Failed to create the specified database alias '${qualified}': Database name or alias already exists.`,
      );
    let created = true;
    await this.host.changeCatalog((connection) => {
      if (this.constituents.has(name) && !definition.orReplace) {
        if (!definition.ifNotExists) throw exists();
        created = false;
        return;
      }
      writeConstituent(connection, entry);
    });
    if (created) this.constituents.set(name, entry);
    return created;
  }

  /** ALTER ALIAS composite.alias SET DATABASE [TARGET t] [PROPERTIES {...}]. */
  async alterConstituent(
    qualified: string,
    change: { target: string | null; properties: ReadonlyMap<string, CypherValue> | null },
  ): Promise<void> {
    const name = qualified.toLowerCase();
    const existing = this.constituents.get(name);
    if (existing === undefined) throw new DatabaseNotFound(qualified);
    const entry: ConstituentEntry = {
      ...existing,
      target: change.target === null ? existing.target : this.checkTarget(change.target, qualified),
      properties: change.properties ?? existing.properties,
    };
    await this.host.changeCatalog((connection) => writeConstituent(connection, entry));
    this.constituents.set(name, entry);
  }

  /** DROP ALIAS composite.alias FOR DATABASE. */
  async dropConstituent(qualified: string): Promise<void> {
    const entry = this.constituents.get(qualified.toLowerCase());
    if (entry === undefined) throw new DatabaseNotFound(qualified);
    await this.host.changeCatalog((connection) => deleteConstituent(connection, entry.composite, entry.alias));
    this.constituents.delete(qualified.toLowerCase());
  }

  /** Inside DROP DATABASE's catalog change (CASCADE ALIASES): drops the constituents targeting `database`. */
  dropConstituentRows(connection: Connection, database: string): void {
    for (const entry of this.constituentsTargeting(database)) deleteConstituent(connection, entry.composite, entry.alias);
  }

  /** Forgets the constituents of a dropped database (after its catalog change committed). */
  forgetTarget(database: string): void {
    for (const entry of this.constituentsTargeting(database)) this.constituents.delete(constituentName(entry));
  }

  private checkTarget(target: string, alias: string): string {
    const lower = target.toLowerCase();
    if (lower === SYSTEM_DATABASE) {
      throw new ClientError(
        StatusCodes.UnsupportedOperation,
        `Failed to create the specified database alias '${alias}': an alias cannot target the system database.`,
      );
    }
    if (this.composites.has(lower)) {
      throw new ClientError(
        StatusCodes.UnsupportedOperation,
        `Failed to create the specified database alias '${alias}': a constituent cannot target the composite database '${target}'.`,
      );
    }
    if (this.host.isAlias(lower) || this.constituents.has(lower)) {
      throw new ClientError(
        StatusCodes.IllegalAliasChain,
        `Failed to create the specified database alias '${alias}': '${target}' is an alias; an alias must target a database.`,
      );
    }
    if (!this.host.isDatabase(lower)) throw new DatabaseNotFound(target);
    return lower;
  }
}
