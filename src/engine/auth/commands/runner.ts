/**
 * Runs user and role administration commands against the auth service. The engine session asks
 * the runner first (`GraphDB.setAuthCommandRunner`); the runner answers null for any statement
 * that is not one of these commands, after a cheap look at the first keyword, so ordinary
 * statements are not tokenized twice. Every command but SHOW CURRENT USER needs the admin
 * permission (checked through the session's SecurityContext on the `system` database).
 */
import { ClientError, CypherSyntaxError, StatusCodes } from '../../errors/index.js';
import type { ResultStream, SecurityContext } from '../../session/types.js';
import type { CypherValue } from '../../values/types.js';
import type { AuthService } from '../auth-service.js';
import type { AuthCommand, NameOrParameter } from './ast.js';
import { BufferedResult } from './buffered-result.js';
import { parseAuthTokens } from './parse.js';
import { tokenize, type Token } from '../../cypher/lexer/index.js';

/** Runs an administration command, or returns null when `query` is not one. */
export type AuthCommandRunner = (
  query: string,
  parameters: ReadonlyMap<string, CypherValue>,
  security: SecurityContext | undefined,
) => Promise<ResultStream | null>;

const LEADING_KEYWORDS = new Set(['CREATE', 'DROP', 'ALTER', 'SHOW', 'GRANT', 'REVOKE']);

/** The first word of a statement after whitespace and comments, upper-cased ('' if none). */
function firstWord(text: string): string {
  let i = 0;
  for (;;) {
    while (i < text.length && /\s/.test(text[i]!)) i++;
    if (text.startsWith('//', i)) {
      const end = text.indexOf('\n', i);
      i = end < 0 ? text.length : end + 1;
    } else if (text.startsWith('/*', i)) {
      const end = text.indexOf('*/', i + 2);
      i = end < 0 ? text.length : end + 2;
    } else break;
  }
  let end = i;
  while (end < text.length && /[A-Za-z]/.test(text[end]!)) end++;
  return text.slice(i, end).toUpperCase();
}

function resolve(value: NameOrParameter, parameters: ReadonlyMap<string, CypherValue>, what: string): string {
  if ('literal' in value) return value.literal;
  const given = parameters.get(value.parameter);
  if (typeof given !== 'string') throw new ClientError(StatusCodes.InvalidRequest, `Expected parameter $${value.parameter} (${what}) to be a string.`);
  return given;
}

async function execute(auth: AuthService, command: AuthCommand, parameters: ReadonlyMap<string, CypherValue>, security: SecurityContext | undefined): Promise<{ keys: string[]; rows: CypherValue[][]; updates: number }> {
  const actor = security?.username ?? null;
  const name = (value: NameOrParameter, what: string) => resolve(value, parameters, what);
  const none = { keys: [], rows: [] };
  switch (command.command) {
    case 'SHOW CURRENT USER': {
      const user = security?.username ? await auth.user(security.username) : null;
      const rows = user ? [[user.username, [...user.roles], false, user.suspended, null]] : [];
      return { keys: ['user', 'roles', 'passwordChangeRequired', 'suspended', 'home'], rows, updates: 0 };
    }
    case 'SHOW USERS':
      return {
        keys: ['user', 'roles', 'passwordChangeRequired', 'suspended', 'home'],
        rows: auth.listUsers().map((u) => [u.username, [...u.roles], false, u.suspended, null]),
        updates: 0,
      };
    case 'SHOW ROLES': {
      const users = auth.listUsers();
      const rows: CypherValue[][] = [];
      for (const role of auth.listRoles()) {
        const members = users.filter((u) => u.roles.includes(role.name)).map((u) => u.username);
        if (command.populatedOnly && members.length === 0) continue;
        if (command.withUsers) for (const member of members.length > 0 ? members : [null]) rows.push([role.name, member]);
        else rows.push([role.name]);
      }
      return { keys: command.withUsers ? ['role', 'member'] : ['role'], rows, updates: 0 };
    }
    case 'CREATE USER': {
      const username = name(command.name, 'user name');
      if (command.orReplace) await auth.dropUser(username, actor);
      else if (!command.ifNotExists && (await auth.user(username))) throw new ClientError(StatusCodes.InvalidRequest, `Failed to create the specified user '${username}': User already exists.`);
      const existed = (await auth.user(username)) !== null;
      await auth.createUser(username, name(command.password, 'password'), [], actor, { ifNotExists: true, ...(command.suspended !== null ? { suspended: command.suspended } : {}) });
      return { ...none, updates: existed ? 0 : 1 };
    }
    case 'ALTER USER': {
      const username = name(command.name, 'user name');
      if (!(await auth.user(username))) {
        if (command.ifExists) return { ...none, updates: 0 };
        throw new ClientError(StatusCodes.InvalidRequest, `Failed to alter the specified user '${username}': User does not exist.`);
      }
      await auth.alterUser(username, { ...(command.password ? { password: name(command.password, 'password') } : {}), ...(command.suspended !== null ? { suspended: command.suspended } : {}) }, actor);
      return { ...none, updates: 1 };
    }
    case 'DROP USER':
    case 'DROP ROLE': {
      const target = name(command.name, command.command === 'DROP USER' ? 'user name' : 'role name');
      const dropped = command.command === 'DROP USER' ? await auth.dropUser(target, actor) : await auth.dropRole(target, actor);
      if (!dropped && !command.ifExists) {
        const kind = command.command === 'DROP USER' ? 'user' : 'role';
        throw new ClientError(StatusCodes.InvalidRequest, `Failed to delete the specified ${kind} '${target}': ${kind === 'user' ? 'User' : 'Role'} does not exist.`);
      }
      return { ...none, updates: dropped ? 1 : 0 };
    }
    case 'CREATE ROLE': {
      const role = name(command.name, 'role name');
      if (command.orReplace && !auth.store.role(role)?.builtin) await auth.dropRole(role, actor);
      else if (!command.ifNotExists && auth.store.role(role)) throw new ClientError(StatusCodes.InvalidRequest, `Failed to create the specified role '${role}': Role already exists.`);
      const existed = auth.store.role(role) !== null;
      await auth.createRole(role, [], actor, true);
      return { ...none, updates: existed ? 0 : 1 };
    }
    case 'GRANT ROLE':
    case 'REVOKE ROLE': {
      let updates = 0;
      for (const roleName of command.roles) {
        for (const userName of command.users) {
          const role = name(roleName, 'role name');
          const user = name(userName, 'user name');
          if (command.command === 'GRANT ROLE') await auth.grantRole(role, user, actor);
          else await auth.revokeRole(role, user, actor);
          updates++;
        }
      }
      return { ...none, updates };
    }
  }
}

/** The runner over an auth service. */
export function createAuthCommandRunner(auth: AuthService): AuthCommandRunner {
  return async (query, parameters, security) => {
    if (!LEADING_KEYWORDS.has(firstWord(query))) return null;
    let tokens: Token[];
    try {
      tokens = tokenize(query);
    } catch (error) {
      // A lexical error: leave the statement (and its error report) to the main parser.
      if (error instanceof CypherSyntaxError) return null;
      throw error;
    }
    const command = parseAuthTokens(tokens, query);
    if (command === null) return null;
    if (command.command !== 'SHOW CURRENT USER') security?.authorize?.('system', 'admin');
    const startedAt = Date.now();
    const { keys, rows, updates } = await execute(auth, command, parameters, security);
    return new BufferedResult(keys, rows, 'system', updates, startedAt);
  };
}
