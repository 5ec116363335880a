/**
 * The names the engine accepts for databases beyond the databases themselves (aliases), and
 * the per-database resource limits: both loaded from the `system` database at startup, held in
 * memory, and changed through a write transaction of `system` (like CREATE DATABASE).
 *
 * Resolution: `resolve(name)` maps an alias to its target database (lower-case) and returns
 * any other name unchanged, so every place a database name is accepted (USE, Bolt `db`, HTTP
 * `/db/{name}`, GraphQL) accepts an alias through `StorageEngine.database`.
 */
import { ClientError, DatabaseNotFound, StatusCodes } from '../errors/index.js';
import type { Connection } from '../storage/sqlite/connection.js';
import type { CypherValue } from '../values/types.js';
import { deleteAlias, ensureAliasTable, readAliases, seedHomeAlias, writeAlias, type AliasEntry } from './alias-catalog.js';
import { SYSTEM_DATABASE, normalizeDatabaseName } from './database-catalog.js';
import { constituentName } from './composite-catalog.js';
import { CompositeDirectory } from './composite-directory.js';
import { deleteOptions, ensureOptionTable, optionValue, readOptions, writeOption, type DatabaseOptions } from './option-catalog.js';
import {
  deleteLimits,
  ensureLimitTable,
  limitValue,
  readLimits,
  writeLimit,
  type DatabaseLimits,
  type LimitName,
} from './limit-catalog.js';

/** What the directory needs from the storage engine. */
export interface DirectoryHost {
  /** True when `name` (lower-case) is a database (not an alias). */
  isDatabase(name: string): boolean;
  /** Runs `change` in a committed write transaction of the system database. */
  changeCatalog(change: (connection: Connection) => void): Promise<void>;
}

/** `CREATE [OR REPLACE] ALIAS` arguments. */
export interface AliasDefinition {
  readonly name: string;
  readonly target: string;
  readonly properties: ReadonlyMap<string, CypherValue>;
  readonly orReplace: boolean;
  readonly ifNotExists: boolean;
}

/** `ALTER ALIAS name [IF EXISTS] SET DATABASE [TARGET t] [PROPERTIES {...}]` arguments. */
export interface AliasChange {
  readonly name: string;
  readonly ifExists: boolean;
  readonly target: string | null;
  readonly properties: ReadonlyMap<string, CypherValue> | null;
}

/** Aliases and limits of one data directory. */
export class DatabaseDirectory {
  private aliases = new Map<string, AliasEntry>();
  private limits = new Map<string, DatabaseLimits>();
  private options = new Map<string, DatabaseOptions>();
  /** Composite databases and their constituent aliases. */
  readonly composites: CompositeDirectory;

  constructor(private readonly host: DirectoryHost) {
    this.composites = new CompositeDirectory({
      isDatabase: (name) => host.isDatabase(name),
      isAlias: (name) => this.aliases.has(name),
      changeCatalog: (change) => host.changeCatalog(change),
    });
  }

  /**
   * Creates the tables when missing, seeds the built-in home alias (`homeAlias` targeting
   * `defaultDatabase`, see `seedHomeAlias`; null: none) and loads the rows (at startup).
   */
  load(connection: Connection, homeAlias: string | null = null, defaultDatabase = ''): void {
    ensureAliasTable(connection);
    ensureLimitTable(connection);
    ensureOptionTable(connection);
    if (homeAlias !== null)
      seedHomeAlias(connection, normalizeDatabaseName(homeAlias), defaultDatabase, (name) => this.host.isDatabase(name));
    this.composites.load(connection);
    this.reload(connection);
  }

  /** Reloads aliases, limits, options and composites from `connection` (a system database that changed underneath). */
  reload(connection: Connection): void {
    this.aliases = new Map(readAliases(connection).map((entry) => [entry.name, entry]));
    this.limits = readLimits(connection);
    this.options = readOptions(connection);
    this.composites.reload(connection);
  }

  /** The database `name` designates: an alias's or a constituent's target, otherwise `name` lower-cased. */
  resolve(name: string): string {
    const lower = name.toLowerCase();
    return this.aliases.get(lower)?.target ?? this.composites.constituent(lower)?.target ?? lower;
  }

  /** True when `name` is a composite database or one of their constituents (reachable only from a session on the composite). */
  isCompositeName(name: string): boolean {
    return this.composites.isComposite(name) || this.composites.constituent(name) !== undefined;
  }

  /** True when `name` (case-insensitive) is an alias. */
  isAlias(name: string): boolean {
    return this.aliases.has(name.toLowerCase());
  }

  /** Every alias, ordered by name. */
  listAliases(): AliasEntry[] {
    return [...this.aliases.values()].sort((a, b) => a.name.localeCompare(b.name));
  }

  /** The alias names of one database (constituents included, as `composite.alias`), ordered. */
  aliasesOf(database: string): string[] {
    const lower = database.toLowerCase();
    return [
      ...this.listAliases()
        .filter((a) => a.target === lower)
        .map((a) => a.name),
      ...this.composites.constituentsTargeting(lower).map(constituentName),
    ].sort();
  }

  /** CREATE ALIAS (a constituent when the name starts with a composite's name). Returns false when it existed and IF NOT EXISTS was given. */
  async createAlias(definition: AliasDefinition): Promise<boolean> {
    const composite = this.composites.compositeOf(definition.name);
    if (composite !== null) return this.composites.createConstituent(composite, definition.name, definition);
    const name = normalizeDatabaseName(definition.name);
    const exists = (): ClientError =>
      new ClientError(
        StatusCodes.DatabaseExists,
        `Failed to create the specified database alias '${definition.name}': Database name or alias already exists.`,
      );
    const target = this.checkTarget(definition.target, name);
    if (this.host.isDatabase(name) || this.composites.isComposite(name)) throw exists();
    if (this.aliases.has(name) && !definition.orReplace) {
      if (definition.ifNotExists) return false;
      throw exists();
    }
    const entry: AliasEntry = { name, target, properties: definition.properties };
    let created = true;
    await this.host.changeCatalog((connection) => {
      // Checked again under the system write lock: a concurrent CREATE ALIAS may have committed.
      if (this.aliases.has(name) && !definition.orReplace) {
        if (!definition.ifNotExists) throw exists();
        created = false;
        return;
      }
      writeAlias(connection, entry);
    });
    if (created) this.aliases.set(name, entry);
    return created;
  }

  /** ALTER ALIAS. Returns false when absent and IF EXISTS was given. */
  async alterAlias(change: AliasChange): Promise<boolean> {
    const name = change.name.toLowerCase();
    if (this.composites.constituent(name) !== undefined) {
      await this.composites.alterConstituent(name, change);
      return true;
    }
    const existing = this.aliases.get(name);
    if (existing === undefined) {
      if (change.ifExists) return false;
      throw new DatabaseNotFound(change.name);
    }
    const target = change.target === null ? existing.target : this.checkTarget(change.target, name);
    const entry: AliasEntry = { name, target, properties: change.properties ?? existing.properties };
    await this.host.changeCatalog((connection) => writeAlias(connection, entry));
    this.aliases.set(name, entry);
    return true;
  }

  /** DROP ALIAS. Returns false when absent and IF EXISTS was given. */
  async dropAlias(name: string, ifExists: boolean): Promise<boolean> {
    const lower = name.toLowerCase();
    if (this.composites.constituent(lower) !== undefined) {
      await this.composites.dropConstituent(lower);
      return true;
    }
    if (!this.aliases.has(lower)) {
      if (ifExists) return false;
      if (this.host.isDatabase(lower)) {
        throw new ClientError(
          StatusCodes.DatabaseNotFound,
          `Failed to delete the specified database alias '${name}': '${name}' is a database, not an alias.`,
        );
      }
      throw new DatabaseNotFound(name);
    }
    await this.host.changeCatalog((connection) => deleteAlias(connection, lower));
    this.aliases.delete(lower);
    return true;
  }

  /**
   * Called inside DROP DATABASE's catalog change: refuses when the database has aliases unless
   * `cascade` (then drops them), and drops the database's limits. Apply `forgetDatabase` after commit.
   */
  dropDatabaseRows(connection: Connection, database: string, cascade: boolean): void {
    const aliases = this.aliasesOf(database);
    if (aliases.length > 0 && !cascade) {
      throw new ClientError(
        StatusCodes.ExistingAliasFound,
        `Failed to delete the specified database '${database}': the database has aliases (${aliases.map((a) => `\`${a}\``).join(', ')}). Drop them first, or use DROP DATABASE ${database} CASCADE ALIASES.`,
      );
    }
    for (const alias of aliases) deleteAlias(connection, alias);
    this.composites.dropConstituentRows(connection, database);
    deleteLimits(connection, database);
    deleteOptions(connection, database);
  }

  /** Forgets a dropped database's aliases and limits (after its catalog change committed). */
  forgetDatabase(database: string): void {
    for (const alias of this.aliasesOf(database)) this.aliases.delete(alias);
    this.composites.forgetTarget(database);
    this.limits.delete(database.toLowerCase());
    this.options.delete(database.toLowerCase());
  }

  /** The options of a database (`{}` when none is set); aliases resolve to their target. */
  optionsOf(database: string): DatabaseOptions {
    return this.options.get(this.resolve(database)) ?? {};
  }

  /**
   * `ALTER DATABASE name SET OPTION k v` / `REMOVE OPTION k` (value null) and the OPTIONS of
   * CREATE DATABASE: validates every option, then stores them in one change.
   */
  async setOptions(database: string, values: readonly (readonly [string, CypherValue])[]): Promise<void> {
    const target = this.resolve(database);
    if (target === SYSTEM_DATABASE)
      throw new ClientError(StatusCodes.UnsupportedOperation, `Options cannot be set on the system database.`);
    if (!this.host.isDatabase(target)) throw new DatabaseNotFound(database);
    const changes = values.map(([name, value]) => optionValue(name, value));
    await this.host.changeCatalog((connection) => {
      for (const [name, value] of changes) writeOption(connection, target, name, value);
    });
    const next: { txLogEnrichment?: DatabaseOptions['txLogEnrichment'] } = { ...(this.options.get(target) ?? {}) };
    for (const [name, value] of changes) {
      if (value === null) delete next[name];
      else next[name] = value;
    }
    this.options.set(target, next);
  }

  /** The limits of a database (`{}` when none is set); aliases resolve to their target. */
  limitsOf(database: string): DatabaseLimits {
    return this.limits.get(this.resolve(database)) ?? {};
  }

  /** Every database that has at least one limit. */
  limitedDatabases(): string[] {
    return [...this.limits.keys()].sort();
  }

  /** ALTER DATABASE name SET LIMIT k = v, ...: validates every value, then stores them in one change. */
  async setLimits(database: string, values: readonly (readonly [string, CypherValue])[]): Promise<void> {
    const target = this.resolve(database);
    if (target === SYSTEM_DATABASE) {
      throw new ClientError(StatusCodes.UnsupportedOperation, `Limits cannot be set on the system database.`);
    }
    if (!this.host.isDatabase(target)) throw new DatabaseNotFound(database);
    const changes = values.map(([name, value]) => limitValue(name, value));
    await this.host.changeCatalog((connection) => {
      for (const [name, value] of changes) writeLimit(connection, target, name, value);
    });
    const next: Partial<Record<LimitName, number>> = { ...(this.limits.get(target) ?? {}) };
    for (const [name, value] of changes) {
      if (value === null) delete next[name];
      else next[name] = value;
    }
    if (Object.keys(next).length === 0) this.limits.delete(target);
    else this.limits.set(target, next);
  }

  private checkTarget(target: string, alias: string): string {
    const lower = target.toLowerCase();
    if (lower === SYSTEM_DATABASE) {
      throw new ClientError(
        StatusCodes.UnsupportedOperation,
        `Failed to create the specified database alias '${alias}': an alias cannot target the system database.`,
      );
    }
    if (this.aliases.has(lower)) {
      throw new ClientError(
        StatusCodes.IllegalAliasChain,
        `Failed to create the specified database alias '${alias}': '${target}' is an alias; an alias must target a database.`,
      );
    }
    if (lower === alias) {
      throw new ClientError(
        StatusCodes.IllegalAliasChain,
        `Failed to create the specified database alias '${alias}': an alias cannot target itself.`,
      );
    }
    if (!this.host.isDatabase(lower)) throw new DatabaseNotFound(target);
    return lower;
  }
}
