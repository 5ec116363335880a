/** User and role administration commands (Neo4j syntax), parsed by parse.ts. */

/** A name or password given literally or as a parameter. */
export type NameOrParameter = { readonly literal: string } | { readonly parameter: string };

/** `CREATE [OR REPLACE] USER name [IF NOT EXISTS] SET [PLAINTEXT] PASSWORD pw [CHANGE [NOT] REQUIRED] [SET STATUS ...]`. */
export interface CreateUserCommand {
  readonly command: 'CREATE USER';
  readonly name: NameOrParameter;
  readonly orReplace: boolean;
  readonly ifNotExists: boolean;
  readonly password: NameOrParameter;
  readonly suspended: boolean | null;
}

/** `ALTER USER name [IF EXISTS] [SET [PLAINTEXT] PASSWORD pw] [CHANGE [NOT] REQUIRED] [SET STATUS ...]`. */
export interface AlterUserCommand {
  readonly command: 'ALTER USER';
  readonly name: NameOrParameter;
  readonly ifExists: boolean;
  readonly password: NameOrParameter | null;
  readonly suspended: boolean | null;
}

/** `DROP USER name [IF EXISTS]` / `DROP ROLE name [IF EXISTS]`. */
export interface DropCommand {
  readonly command: 'DROP USER' | 'DROP ROLE';
  readonly name: NameOrParameter;
  readonly ifExists: boolean;
}

/** `CREATE [OR REPLACE] ROLE name [IF NOT EXISTS]`. */
export interface CreateRoleCommand {
  readonly command: 'CREATE ROLE';
  readonly name: NameOrParameter;
  readonly orReplace: boolean;
  readonly ifNotExists: boolean;
}

/** `SHOW USERS`, `SHOW CURRENT USER`, `SHOW [ALL|POPULATED] ROLES [WITH USERS]`. */
export interface ShowCommand {
  readonly command: 'SHOW USERS' | 'SHOW CURRENT USER' | 'SHOW ROLES';
  readonly populatedOnly: boolean;
  readonly withUsers: boolean;
}

/** `GRANT ROLE[S] r1, r2 TO u1, u2` / `REVOKE ROLE[S] r FROM u`. */
export interface RoleGrantCommand {
  readonly command: 'GRANT ROLE' | 'REVOKE ROLE';
  readonly roles: readonly NameOrParameter[];
  readonly users: readonly NameOrParameter[];
}

/** Any user/role administration command. */
export type AuthCommand = CreateUserCommand | AlterUserCommand | DropCommand | CreateRoleCommand | ShowCommand | RoleGrantCommand;
