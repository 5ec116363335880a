import type { SymbolicName } from './admin.js';
import type { BaseNode } from './base.js';
import type { Expression } from './expressions.js';
import type { Kind } from './kinds.js';

/** User, role and privilege administration (run against the system database's security graph). */
export type SecurityCommand =
  | CreateUser
  | AlterUser
  | AlterCurrentUser
  | DropUser
  | RenameUser
  | CreateRole
  | DropRole
  | RenameRole
  | RoleMembership
  | PrivilegeCommand;

/** `SET [PLAINTEXT | ENCRYPTED] PASSWORD pw [CHANGE [NOT] REQUIRED]`, `SET STATUS`, `SET HOME DATABASE` of CREATE/ALTER USER. */
export interface UserSettings {
  /** A string literal or parameter. */
  readonly password: Expression | null;
  readonly encrypted: boolean;
  readonly changeRequired: boolean | null;
  readonly suspended: boolean | null;
  readonly home: SymbolicName | null;
  /** `ALTER USER ... REMOVE HOME DATABASE`. */
  readonly removeHome: boolean;
}

/** `CREATE [OR REPLACE] USER name [IF NOT EXISTS] SET PASSWORD ... [SET STATUS ...] [SET HOME DATABASE db]`. */
export interface CreateUser extends BaseNode, UserSettings {
  readonly kind: Kind.CreateUser;
  readonly name: SymbolicName;
  readonly orReplace: boolean;
  readonly ifNotExists: boolean;
}

/** `ALTER USER name [IF EXISTS] (SET ... | REMOVE HOME DATABASE)+`. */
export interface AlterUser extends BaseNode, UserSettings {
  readonly kind: Kind.AlterUser;
  readonly name: SymbolicName;
  readonly ifExists: boolean;
}

/** `ALTER CURRENT USER SET PASSWORD FROM old TO new`. */
export interface AlterCurrentUser extends BaseNode {
  readonly kind: Kind.AlterCurrentUser;
  readonly oldPassword: Expression;
  readonly newPassword: Expression;
}

/** `DROP USER name [IF EXISTS]`. */
export interface DropUser extends BaseNode {
  readonly kind: Kind.DropUser;
  readonly name: SymbolicName;
  readonly ifExists: boolean;
}

/** `RENAME USER name [IF EXISTS] TO newName`. */
export interface RenameUser extends BaseNode {
  readonly kind: Kind.RenameUser;
  readonly name: SymbolicName;
  readonly newName: SymbolicName;
  readonly ifExists: boolean;
}

/** `CREATE [OR REPLACE] ROLE name [IF NOT EXISTS] [AS COPY OF other]`. */
export interface CreateRole extends BaseNode {
  readonly kind: Kind.CreateRole;
  readonly name: SymbolicName;
  readonly orReplace: boolean;
  readonly ifNotExists: boolean;
  readonly copyOf: SymbolicName | null;
}

/** `DROP ROLE name [IF EXISTS]`. */
export interface DropRole extends BaseNode {
  readonly kind: Kind.DropRole;
  readonly name: SymbolicName;
  readonly ifExists: boolean;
}

/** `RENAME ROLE name [IF EXISTS] TO newName`. */
export interface RenameRole extends BaseNode {
  readonly kind: Kind.RenameRole;
  readonly name: SymbolicName;
  readonly newName: SymbolicName;
  readonly ifExists: boolean;
}

/** `GRANT ROLE[S] r, ... TO u, ...` (`grant` true) / `REVOKE ROLE[S] r, ... FROM u, ...`. */
export interface RoleMembership extends BaseNode {
  readonly kind: Kind.RoleMembership;
  readonly grant: boolean;
  readonly roles: readonly SymbolicName[];
  readonly users: readonly SymbolicName[];
}

/** A graph element segment of a privilege: `NODES A, B` / `RELATIONSHIPS *` (names null = `*`). */
export interface PrivilegeSegment {
  readonly element: 'NODE' | 'RELATIONSHIP';
  readonly names: readonly string[] | null;
}

/**
 * `GRANT|DENY privilege TO roles` / `REVOKE [GRANT|DENY] privilege FROM roles`. The privilege
 * is kept as Neo4j names it in SHOW PRIVILEGES: an action, a resource, the graphs (databases)
 * and the segments it applies to.
 */
export interface PrivilegeCommand extends BaseNode {
  readonly kind: Kind.PrivilegeCommand;
  readonly operation: 'GRANT' | 'DENY' | 'REVOKE';
  /** `REVOKE GRANT` / `REVOKE DENY`; null revokes both. */
  readonly revokes: 'GRANT' | 'DENY' | null;
  /** Neo4j's action name (`match`, `write`, `access`, `create_user`, `execute`, ...). */
  readonly action: string;
  /** `all_properties`, `property(p)` per property, `graph`, `database`, `all_labels`, `label(L)` per label, `all_data`, `url(u)`. */
  readonly resources: readonly string[];
  /** `*`, `HOME`, `DEFAULT` or database names; `['*']` for DBMS privileges. */
  readonly graphs: readonly string[];
  /** Element segments (graph privileges); other segments (`database`, `PROCEDURE(x)`) as text. */
  readonly segments: readonly (PrivilegeSegment | string)[];
  readonly roles: readonly SymbolicName[];
  /** The command as written, for messages (`GRANT MATCH {*} ON GRAPH * TO r`). */
  readonly text: string;
}
