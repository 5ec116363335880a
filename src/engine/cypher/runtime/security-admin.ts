/**
 * What the runtime asks of the engine's security administration (the auth service, installed by
 * the server when authentication is on): running user, role and privilege commands and listing
 * users, roles and privileges, on behalf of the user running the statement.
 */
import type { CypherValue } from '../../values/types.js';
import type { SymbolicName } from '../ast/admin.js';
import type { Expression } from '../ast/expressions.js';
import type { ShowTarget } from '../ast/schema.js';
import type { SecurityCommand } from '../ast/security.js';

/** Evaluates the names and passwords of a command against the statement's parameters. */
export interface CommandValues {
  /** A user, role or database name (a literal or a string parameter). */
  name(name: SymbolicName): string;
  /** A password or other string argument (a string literal or parameter). */
  text(expression: Expression): string;
  /** A parameter's value (names written as `$p` in privilege scopes). */
  parameter(name: string): CypherValue | undefined;
}

/** Security administration bound to one user. */
export interface SecurityAdmin {
  /** Runs a command; returns the number of system updates. */
  run(command: SecurityCommand, values: CommandValues): Promise<number>;
  /** Every column of each row of SHOW USERS / CURRENT USER / ROLES / PRIVILEGES (`names` from SHOW ROLE|USER names PRIVILEGES). */
  rows(target: ShowTarget, filter: string | null, names: readonly string[] | null): Record<string, CypherValue>[];
}
