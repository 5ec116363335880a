/**
 * User, role and privilege administration as Cypher runs it (CREATE/ALTER/DROP/RENAME USER,
 * ALTER CURRENT USER, CREATE/DROP/RENAME ROLE, GRANT/REVOKE ROLE, GRANT/DENY/REVOKE privileges,
 * SHOW USERS/ROLES/PRIVILEGES), over the auth service, on behalf of one user. The statement's
 * privileges were checked before it ran; the rules here are Neo4j's (no dropping yourself, the
 * PUBLIC role is reserved, ...) with its error texts.
 */
import { ClientError, StatusCodes, graphError } from '../errors/index.js';
import type { SecurityCommand, CreateUser, AlterUser, PrivilegeCommand } from '../cypher/ast/security.js';
import { Kind } from '../cypher/ast/kinds.js';
import type { ShowTarget } from '../cypher/ast/schema.js';
import type { CommandValues, SecurityAdmin } from '../cypher/runtime/security-admin.js';
import type { SecurityContext } from '../session/types.js';
import type { CypherValue } from '../values/types.js';
import type { AuthService } from './auth-service.js';
import { PUBLIC_ROLE } from './privileges/builtin.js';
import { privilegeCommand } from './privileges/command-text.js';
import { privilegesOfCommand } from './privileges/from-command.js';
import type { PrivilegeRecord } from './privileges/types.js';
import { verifyPasswordHash } from './password-hash.js';
import { addPrivileges, removePrivileges, renameRole, renameUser } from './role-admin.js';
import { valueText } from '../values/to-string.js';

function invalid(message: string): ClientError {
  return new ClientError(StatusCodes.InvalidArguments, message);
}

/** Security administration for the user of `security` (null username: embedded, no current user). */
export function securityAdmin(auth: AuthService, security: SecurityContext | undefined): SecurityAdmin {
  const actor = security?.username ?? null;
  return {
    run: (command, values) => run(auth, actor, command, values),
    rows: (target, filter, names) => rows(auth, actor, target, filter, names),
  };
}

async function createUser(auth: AuthService, actor: string | null, c: CreateUser, v: CommandValues): Promise<number> {
  const name = v.name(c.name);
  const existing = await auth.user(name);
  if (existing !== null) {
    if (c.ifNotExists) return 0;
    if (!c.orReplace) throw invalid(`Failed to create the specified user '${name}': User already exists.`);
    if (name === actor) throw invalid(`Failed to replace the specified user '${name}': Deleting yourself is not allowed.`);
    await auth.dropUser(name, actor);
  }
  if (c.encrypted) throw invalid(`Failed to create the specified user '${name}': encrypted passwords are not supported, use SET PASSWORD.`);
  await auth.createUser(name, v.text(c.password!), [], actor, {
    ...(c.suspended !== null ? { suspended: c.suspended } : {}),
    home: c.home === null ? null : v.name(c.home),
    passwordChangeRequired: c.changeRequired ?? true,
  });
  return 1;
}

async function alterUser(auth: AuthService, actor: string | null, c: AlterUser, v: CommandValues): Promise<number> {
  const name = v.name(c.name);
  if ((await auth.user(name)) === null) {
    if (c.ifExists) return 0;
    throw invalid(`Failed to alter the specified user '${name}': User does not exist.`);
  }
  if (c.suspended !== null && name === actor)
    throw invalid(`Failed to alter the specified user '${name}': Changing your own activation status is not allowed.`);
  if (c.encrypted) throw invalid(`Failed to alter the specified user '${name}': encrypted passwords are not supported, use SET PASSWORD.`);
  await auth.alterUser(
    name,
    {
      ...(c.password !== null ? { password: v.text(c.password) } : {}),
      ...(c.suspended !== null ? { suspended: c.suspended } : {}),
      ...(c.changeRequired !== null ? { passwordChangeRequired: c.changeRequired } : {}),
      ...(c.home !== null ? { home: v.name(c.home) } : c.removeHome ? { home: null } : {}),
    },
    actor,
  );
  return 1;
}

async function alterCurrentUser(auth: AuthService, actor: string | null, oldPassword: string, newPassword: string): Promise<number> {
  if (actor === null) throw invalid('ALTER CURRENT USER needs a logged-in user.');
  const user = auth.store.user(actor) ?? (await auth.store.findUser(actor));
  if (user === null || !(await verifyPasswordHash(oldPassword, user.passwordHash))) {
    throw invalid(`User '${actor}' failed to alter their own password: Invalid principal or credentials.`);
  }
  if (oldPassword === newPassword)
    throw invalid(`User '${actor}' failed to alter their own password: Old password and new password cannot be the same.`);
  await auth.alterUser(actor, { password: newPassword, passwordChangeRequired: false }, actor);
  return 1;
}

function roleMustExist(auth: AuthService, role: string, failure: string): void {
  if (auth.store.role(role) === null) throw invalid(`${failure}: Role '${role}' does not exist.`);
}

async function privileges(auth: AuthService, actor: string | null, c: PrivilegeCommand, v: CommandValues): Promise<number> {
  const roles = c.roles.map((r) => v.name(r));
  const verb = c.operation === 'REVOKE' ? 'revoke' : c.operation === 'DENY' ? 'deny' : 'grant';
  for (const role of roles)
    roleMustExist(auth, role, `Failed to ${verb} privilege ${c.operation === 'REVOKE' ? 'from' : 'to'} role '${role}'`);
  const records = privilegesOfCommand(c, roles, (name) => {
    const value = v.parameter(name);
    if (typeof value !== 'string') throw invalid(`Expected parameter $${name} to be a string.`);
    return value;
  });
  if (c.operation === 'REVOKE') {
    const access = c.revokes === null ? null : c.revokes === 'GRANT' ? 'GRANTED' : 'DENIED';
    return removePrivileges(auth, records, access, actor);
  }
  return addPrivileges(auth, records, actor);
}

async function run(auth: AuthService, actor: string | null, c: SecurityCommand, v: CommandValues): Promise<number> {
  switch (c.kind) {
    case Kind.CreateUser:
      return createUser(auth, actor, c, v);
    case Kind.AlterUser:
      return alterUser(auth, actor, c, v);
    case Kind.AlterCurrentUser:
      return alterCurrentUser(auth, actor, v.text(c.oldPassword), v.text(c.newPassword));
    case Kind.DropUser: {
      const name = v.name(c.name);
      if (name === actor) throw invalid(`Failed to delete the specified user '${name}': Deleting yourself is not allowed.`);
      if (await auth.dropUser(name, actor)) return 1;
      if (c.ifExists) return 0;
      throw invalid(`Failed to delete the specified user '${name}': User does not exist.`);
    }
    case Kind.RenameUser: {
      const [from, to] = [v.name(c.name), v.name(c.newName)];
      if ((await auth.user(from)) === null) {
        if (c.ifExists) return 0;
        throw invalid(`Failed to rename the specified user '${from}' to '${to}': The user '${from}' does not exist.`);
      }
      if ((await auth.user(to)) !== null)
        throw invalid(`Failed to rename the specified user '${from}' to '${to}': User '${to}' already exists.`);
      await renameUser(auth, from, to, actor);
      return 1;
    }
    case Kind.CreateRole: {
      const name = v.name(c.name);
      const existing = auth.store.role(name);
      if (existing !== null) {
        if (c.ifNotExists) return 0;
        if (!c.orReplace || existing.builtin) throw invalid(`Failed to create the specified role '${name}': Role already exists.`);
        await auth.dropRole(name, actor);
      }
      const copyOf = c.copyOf === null ? null : v.name(c.copyOf);
      if (copyOf !== null) roleMustExist(auth, copyOf, `Failed to create a role as copy of '${copyOf}'`);
      await auth.createRole(name, [], actor, false, copyOf);
      return 1;
    }
    case Kind.DropRole: {
      const name = v.name(c.name);
      if (name === PUBLIC_ROLE)
        throw invalid(`Failed to delete the specified role '${name}': '${name}' is a reserved role and cannot be dropped.`);
      if (await auth.dropRole(name, actor)) return 1;
      if (c.ifExists) return 0;
      throw invalid(`Failed to delete the specified role '${name}': Role does not exist.`);
    }
    case Kind.RenameRole: {
      const [from, to] = [v.name(c.name), v.name(c.newName)];
      const role = auth.store.role(from);
      if (role === null) {
        if (c.ifExists) return 0;
        throw invalid(`Failed to rename the specified role '${from}' to '${to}': The role '${from}' does not exist.`);
      }
      if (role.builtin) throw invalid(`Failed to rename the specified role '${from}' to '${to}': built-in roles cannot be renamed.`);
      if (auth.store.role(to) !== null)
        throw invalid(`Failed to rename the specified role '${from}' to '${to}': Role '${to}' already exists.`);
      await renameRole(auth, from, to, actor);
      return 1;
    }
    case Kind.RoleMembership: {
      let updates = 0;
      for (const roleName of c.roles) {
        const role = v.name(roleName);
        if (role === PUBLIC_ROLE)
          throw invalid(
            `Failed to ${c.grant ? 'grant' : 'revoke'} role '${role}' ${c.grant ? 'to' : 'from'} user: '${role}' is a reserved role and cannot be ${c.grant ? 'granted' : 'revoked'}.`,
          );
        for (const userName of c.users) {
          const user = v.name(userName);
          const before = (await auth.user(user))?.roles ?? null;
          if (before === null)
            throw invalid(
              `Failed to ${c.grant ? 'grant' : 'revoke'} role '${role}' ${c.grant ? 'to' : 'from'} user '${user}': User does not exist.`,
            );
          if (c.grant) {
            roleMustExist(auth, role, `Failed to grant role '${role}' to user '${user}'`);
            if (!before.includes(role)) {
              await auth.grantRole(role, user, actor);
              updates++;
            }
          } else if (before.includes(role)) {
            await auth.revokeRole(role, user, actor);
            updates++;
          }
        }
      }
      return updates;
    }
    case Kind.PrivilegeCommand:
      return privileges(auth, actor, c, v);
  }
}

type Row = Record<string, CypherValue>;

function privilegeRow(p: PrivilegeRecord): Row {
  return {
    access: p.access,
    action: p.action,
    resource: p.resource,
    graph: p.graph,
    segment: p.segment,
    role: p.role,
    immutable: p.immutable,
  };
}

function asCommands(list: readonly PrivilegeRecord[], revoke: boolean, extra: Row = {}): Row[] {
  const seen = new Set<string>();
  const out: Row[] = [];
  for (const p of list) {
    const command = privilegeCommand(p, revoke);
    if (seen.has(command)) continue;
    seen.add(command);
    out.push({ command, immutable: p.immutable, ...extra });
  }
  return out.sort((a, b) => valueText(a.command).localeCompare(valueText(b.command)));
}

function rows(auth: AuthService, actor: string | null, target: ShowTarget, filter: string | null, names: readonly string[] | null): Row[] {
  const users = auth.listUsers();
  const userRow = (u: (typeof users)[number]): Row => ({
    user: u.username,
    roles: [PUBLIC_ROLE, ...u.roles.filter((r) => r !== PUBLIC_ROLE)],
    passwordChangeRequired: u.passwordChangeRequired,
    suspended: u.suspended,
    home: u.home,
  });
  const commands = filter?.startsWith('AS ') ?? false;
  const revoke = filter === 'AS REVOKE COMMANDS';
  switch (target) {
    case 'USERS':
      return users.map(userRow);
    case 'CURRENT USER':
      return users.filter((u) => u.username === actor).map(userRow);
    case 'ROLES':
    case 'ROLES WITH USERS': {
      const out: Row[] = [];
      for (const role of auth.listRoles()) {
        const members =
          role.name === PUBLIC_ROLE
            ? users.map((u) => u.username)
            : users.filter((u) => u.roles.includes(role.name)).map((u) => u.username);
        if (filter === 'POPULATED' && members.length === 0) continue;
        if (target === 'ROLES') out.push({ role: role.name });
        else for (const member of members.length > 0 ? members : [null]) out.push({ role: role.name, member });
      }
      return out;
    }
    case 'PRIVILEGES':
    case 'ROLE PRIVILEGES': {
      const roles = target === 'PRIVILEGES' ? auth.listRoles().map((r) => r.name) : (names ?? []);
      const list = roles.flatMap((role) => auth.store.privilegesOf(role));
      return commands ? asCommands(list, revoke) : list.map(privilegeRow);
    }
    case 'USER PRIVILEGES': {
      const wanted = names ?? (actor === null ? [] : [actor]);
      const out: Row[] = [];
      for (const name of wanted) {
        const user = users.find((u) => u.username === name);
        if (!user) continue;
        const list = [PUBLIC_ROLE, ...user.roles].flatMap((role) => auth.store.privilegesOf(role));
        if (commands) out.push(...asCommands(list, revoke));
        else out.push(...list.map((p) => ({ ...privilegeRow(p), user: name })));
      }
      return out;
    }
    default:
      throw graphError(StatusCodes.UnsupportedOperation, `SHOW ${target} is not supported`);
  }
}
