/**
 * User, role and privilege commands (CREATE USER, GRANT ROLE, GRANT MATCH ..., ...): their names
 * and passwords are evaluated against the statement's parameters, then the session's security
 * administration runs them (see `SecurityAdmin`).
 */
import { StatusCodes, graphError } from '../../../errors/index.js';
import type { AdminCommand, SchemaCommand } from '../../ast/index.js';
import { Kind } from '../../ast/kinds.js';
import type { SecurityCommand } from '../../ast/security.js';
import type { ExecutionContext } from '../execution-context.js';
import type { CommandValues, SecurityAdmin } from '../security-admin.js';

const SECURITY_KINDS: ReadonlySet<Kind> = new Set([
  Kind.CreateUser,
  Kind.AlterUser,
  Kind.AlterCurrentUser,
  Kind.DropUser,
  Kind.RenameUser,
  Kind.CreateRole,
  Kind.DropRole,
  Kind.RenameRole,
  Kind.RoleMembership,
  Kind.PrivilegeCommand,
]);

/** True for user, role and privilege commands. */
export function isSecurityCommand(command: SchemaCommand | AdminCommand): command is SecurityCommand {
  return SECURITY_KINDS.has(command.kind);
}

/** The session's security administration; refused when authentication is off. */
export function securityAdmin(ctx: ExecutionContext): SecurityAdmin {
  const admin = ctx.admin.security;
  if (admin === undefined) {
    throw graphError(StatusCodes.UnsupportedOperation, 'Users, roles and privileges are administered only when authentication is enabled.');
  }
  return admin;
}

function stringParameter(ctx: ExecutionContext, name: string, what: string): string {
  const value = ctx.parameters.get(name);
  if (typeof value !== 'string') throw graphError(StatusCodes.InvalidArguments, `Expected parameter $${name} (${what}) to be a string.`);
  return value;
}

/** Runs a security command; returns its system updates. */
export function runSecurityCommand(command: SecurityCommand, ctx: ExecutionContext): Promise<number> {
  const values: CommandValues = {
    name: (name) => (name.name !== null ? name.name : stringParameter(ctx, name.parameter!.name, 'a name')),
    text: (expression) => {
      if (expression.kind === Kind.StringLiteral) return expression.value;
      if (expression.kind === Kind.Parameter) return stringParameter(ctx, expression.name, 'a password');
      throw graphError(StatusCodes.InvalidArguments, 'Expected a string literal or a parameter.');
    },
    parameter: (name) => ctx.parameters.get(name),
  };
  return securityAdmin(ctx).run(command, values);
}

const SECURITY_SHOW_TARGETS: ReadonlySet<string> = new Set([
  'USERS',
  'CURRENT USER',
  'ROLES',
  'ROLES WITH USERS',
  'PRIVILEGES',
  'ROLE PRIVILEGES',
  'USER PRIVILEGES',
]);

/** True for user, role and privilege commands and the SHOW commands that list users, roles and privileges. */
export function isSecurityStatement(command: SchemaCommand | AdminCommand): boolean {
  return isSecurityCommand(command) || (command.kind === Kind.Show && SECURITY_SHOW_TARGETS.has(command.target));
}
