/**
 * RBAC decisions: the SecurityContext of a principal. The engine asks `authorizeAccess` for
 * everything a statement reads and writes (marked by the semantic layer) on the database it
 * runs against; listeners that act without Cypher (GraphQL, search routes) ask the coarse
 * `authorize(database, permission)`, which maps onto the same privileges. Every user also has
 * the PUBLIC role. Privileges are looked up at decision time, so a GRANT, DENY, REVOKE or role
 * change applies to the next statement. See privileges/evaluate.ts for the rules.
 */
import type { AccessRequirement, StatementAccess } from '../cypher/semantic/access-types.js';
import type { Permission, SecurityContext } from '../session/types.js';
import { legacyPrivileges, PUBLIC_ROLE } from './privileges/builtin.js';
import { PrivilegeDecision, type PrivilegeSource, type Subject } from './privileges/evaluate.js';
import type { RoleDefinition } from './roles.js';

/** Finds a role's current definition. */
export type RoleLookup = (name: string) => RoleDefinition | null;

/** Maps a database name or alias to the database it designates (lower-case). */
export type DatabaseResolver = (name: string) => string;

const ANY_NODE = { element: 'NODE', names: null } as const;
const ANY_RELATIONSHIP = { element: 'RELATIONSHIP', names: null } as const;

/** The privileges a coarse permission stands for (GraphQL and HTTP routes that run no Cypher). */
export function coarseAccess(permission: Permission): StatementAccess {
  const graph = (requirements: AccessRequirement[]): StatementAccess => ({ needsDatabaseAccess: true, requirements });
  switch (permission) {
    case 'read':
      return graph(
        [ANY_NODE, ANY_RELATIONSHIP].flatMap((segment) => [
          { action: 'traverse', segment } as const,
          { action: 'read', segment, property: null } as const,
        ]),
      );
    case 'write':
      return graph(
        [ANY_NODE, ANY_RELATIONSHIP].flatMap((segment) => [
          { action: 'create_element', segment } as const,
          { action: 'set_property', segment, property: null } as const,
        ]),
      );
    case 'delete':
      return graph([ANY_NODE, ANY_RELATIONSHIP].map((segment) => ({ action: 'delete_element', segment }) as const));
    case 'schema':
      return graph([
        { action: 'index', operation: 'create_index' },
        { action: 'constraint', operation: 'create_constraint' },
      ]);
    case 'admin':
      return { needsDatabaseAccess: false, requirements: [{ action: 'dbms', privilege: 'dbms_actions', command: 'administration' }] };
  }
}

/** The security context of a subject whose privileges come from `source`. */
export function privilegeContext(subject: Subject, source: PrivilegeSource): SecurityContext {
  const roles = Object.freeze(subject.roles.filter((r) => r !== PUBLIC_ROLE));
  const full: Subject = { ...subject, roles: [PUBLIC_ROLE, ...roles] };
  const check = (database: string, access: StatementAccess): void => new PrivilegeDecision(full, source, database).check(access);
  return Object.freeze({
    username: subject.username,
    roles,
    authorize: (database: string, permission: Permission) => check(database, coarseAccess(permission)),
    authorizeAccess: check,
    authorizeLoad: (url: string) => check(source.defaultDatabase, { needsDatabaseAccess: false, requirements: [{ action: 'load', url }] }),
  });
}

/**
 * The security context of a principal whose roles are given by definitions with permission lists
 * (embedded use and tests): each role's permissions stand for their privileges, within its allowlist.
 */
export function securityContext(
  username: string | null,
  roles: readonly string[],
  lookup: RoleLookup,
  resolve: DatabaseResolver = (n) => n.toLowerCase(),
): SecurityContext {
  const source: PrivilegeSource = {
    privilegesOf: (name) => {
      const role = lookup(name);
      return role === null ? [] : legacyPrivileges(name, role.permissions);
    },
    allowlistOf: (name) => lookup(name)?.databases ?? [],
    resolve,
    defaultDatabase: 'neo4j',
  };
  return privilegeContext({ username, roles, home: null }, source);
}

/** True when some role of `roles` has the admin permission (legacy permission lists). */
export function isAdmin(roles: readonly string[], lookup: RoleLookup): boolean {
  return roles.some((name) => lookup(name)?.permissions.includes('admin') === true);
}
