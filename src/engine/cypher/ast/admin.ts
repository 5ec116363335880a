import type { BaseNode } from './base.js';
import type { Expression, MapLiteral, Parameter } from './expressions.js';
import type { Kind } from './kinds.js';
import type { SecurityCommand } from './security.js';

/** Database, alias and security administration (run against the system database). */
export type AdminCommand =
  SecurityCommand | CreateDatabase | DropDatabase | AlterDatabase | StartDatabase | StopDatabase | CreateAlias | DropAlias | AlterAlias;

/** A database or alias name: a (possibly dotted) symbolic name or a parameter. */
export interface SymbolicName extends BaseNode {
  readonly kind: Kind.SymbolicName;
  readonly name: string | null;
  readonly parameter: Parameter | null;
}

/** `CREATE [OR REPLACE] DATABASE name [IF NOT EXISTS] [OPTIONS {...}] [WAIT [n [SEC]] | NOWAIT]`. */
export interface CreateDatabase extends BaseNode {
  readonly kind: Kind.CreateDatabase;
  /** `CREATE COMPOSITE DATABASE`: a database of constituent aliases, storing no data. */
  readonly composite?: boolean;
  readonly name: SymbolicName;
  readonly orReplace: boolean;
  readonly ifNotExists: boolean;
  readonly options: MapLiteral | Parameter | null;
  readonly wait: boolean;
}

/** `DROP DATABASE name [IF EXISTS] [RESTRICT | CASCADE ALIAS[ES]] [DUMP DATA | DESTROY DATA] [WAIT | NOWAIT]`. */
export interface DropDatabase extends BaseNode {
  readonly kind: Kind.DropDatabase;
  /** `DROP COMPOSITE DATABASE`: refused unless the database is a composite. */
  readonly composite?: boolean;
  readonly name: SymbolicName;
  readonly ifExists: boolean;
  /** `CASCADE ALIASES`: drop the database's aliases with it (default RESTRICT: refuse). */
  readonly cascadeAliases: boolean;
  readonly dumpData: boolean;
  readonly wait: boolean;
}

/**
 * `ALTER DATABASE name [IF EXISTS] SET LIMIT key value | SET OPTION key value |
 * SET ACCESS READ ONLY|READ WRITE | REMOVE OPTION key ...`.
 */
export interface AlterDatabase extends BaseNode {
  readonly kind: Kind.AlterDatabase;
  readonly name: SymbolicName;
  readonly ifExists: boolean;
  readonly settings: readonly DatabaseSetting[];
}

/**
 * One change of ALTER DATABASE. `value` is null for `REMOVE OPTION key`; for ACCESS the key is
 * `access` and the value a string literal `'READ ONLY'` / `'READ WRITE'`.
 */
export interface DatabaseSetting extends BaseNode {
  readonly kind: Kind.DatabaseSetting;
  readonly category: 'LIMIT' | 'OPTION' | 'ACCESS' | 'REMOVE OPTION';
  readonly key: string;
  readonly value: Expression | null;
}

/** `START DATABASE name`. */
export interface StartDatabase extends BaseNode {
  readonly kind: Kind.StartDatabase;
  readonly name: SymbolicName;
}

/** `STOP DATABASE name`. */
export interface StopDatabase extends BaseNode {
  readonly kind: Kind.StopDatabase;
  readonly name: SymbolicName;
}

/** `CREATE [OR REPLACE] ALIAS name [IF NOT EXISTS] FOR DATABASE target [PROPERTIES {...}]`. */
export interface CreateAlias extends BaseNode {
  readonly kind: Kind.CreateAlias;
  readonly name: SymbolicName;
  readonly target: SymbolicName;
  readonly orReplace: boolean;
  readonly ifNotExists: boolean;
  readonly properties: MapLiteral | Parameter | null;
}

/**
 * `ALTER ALIAS name [IF EXISTS] SET DATABASE [TARGET target] [PROPERTIES {...}]`; at least one
 * of target and properties is present.
 */
export interface AlterAlias extends BaseNode {
  readonly kind: Kind.AlterAlias;
  readonly name: SymbolicName;
  readonly ifExists: boolean;
  readonly target: SymbolicName | null;
  readonly properties: MapLiteral | Parameter | null;
}

/** `DROP ALIAS name [IF EXISTS] FOR DATABASE`. */
export interface DropAlias extends BaseNode {
  readonly kind: Kind.DropAlias;
  readonly name: SymbolicName;
  readonly ifExists: boolean;
}
