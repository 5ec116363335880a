import type { SymbolicName } from './admin.js';
import type { Expression } from './expressions.js';
import { Kind } from './kinds.js';
import type { SecurityCommand, UserSettings } from './security.js';

/** How the printer renders names and expressions (supplied by printer.ts). */
export interface SecurityPrinting {
  symbolic(name: SymbolicName): string;
  expression(expression: Expression): string;
}

function settings(s: UserSettings, p: SecurityPrinting): string {
  let out = '';
  if (s.password !== null) out += ` SET ${s.encrypted ? 'ENCRYPTED ' : ''}PASSWORD ${p.expression(s.password)}`;
  if (s.changeRequired !== null) out += `${s.password === null ? ' SET PASSWORD' : ''} CHANGE ${s.changeRequired ? '' : 'NOT '}REQUIRED`;
  if (s.suspended !== null) out += ` SET STATUS ${s.suspended ? 'SUSPENDED' : 'ACTIVE'}`;
  if (s.home !== null) out += ` SET HOME DATABASE ${p.symbolic(s.home)}`;
  if (s.removeHome) out += ' REMOVE HOME DATABASE';
  return out;
}

/** The Cypher text of a user, role or privilege command. */
export function printSecurityCommand(command: SecurityCommand, p: SecurityPrinting): string {
  const names = (list: readonly SymbolicName[]): string => list.map((n) => p.symbolic(n)).join(', ');
  switch (command.kind) {
    case Kind.CreateUser:
      return `CREATE ${command.orReplace ? 'OR REPLACE ' : ''}USER ${p.symbolic(command.name)}${command.ifNotExists ? ' IF NOT EXISTS' : ''}${settings(command, p)}`;
    case Kind.AlterUser:
      return `ALTER USER ${p.symbolic(command.name)}${command.ifExists ? ' IF EXISTS' : ''}${settings(command, p)}`;
    case Kind.AlterCurrentUser:
      return `ALTER CURRENT USER SET PASSWORD FROM ${p.expression(command.oldPassword)} TO ${p.expression(command.newPassword)}`;
    case Kind.DropUser:
      return `DROP USER ${p.symbolic(command.name)}${command.ifExists ? ' IF EXISTS' : ''}`;
    case Kind.RenameUser:
    case Kind.RenameRole:
      return `RENAME ${command.kind === Kind.RenameUser ? 'USER' : 'ROLE'} ${p.symbolic(command.name)}${command.ifExists ? ' IF EXISTS' : ''} TO ${p.symbolic(command.newName)}`;
    case Kind.CreateRole:
      return `CREATE ${command.orReplace ? 'OR REPLACE ' : ''}ROLE ${p.symbolic(command.name)}${command.ifNotExists ? ' IF NOT EXISTS' : ''}${command.copyOf ? ` AS COPY OF ${p.symbolic(command.copyOf)}` : ''}`;
    case Kind.DropRole:
      return `DROP ROLE ${p.symbolic(command.name)}${command.ifExists ? ' IF EXISTS' : ''}`;
    case Kind.RoleMembership:
      return command.grant
        ? `GRANT ROLES ${names(command.roles)} TO ${names(command.users)}`
        : `REVOKE ROLES ${names(command.roles)} FROM ${names(command.users)}`;
    case Kind.PrivilegeCommand:
      return command.text;
  }
}
