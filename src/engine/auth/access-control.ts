/**
 * RBAC decisions: the SecurityContext of a principal, whose `authorize(database, permission)` the
 * engine calls for every statement. A permission on a database is granted when one of the
 * principal's roles has the permission and allows the database (empty allowlist = every
 * database, including ones created later). The `system` database needs the admin permission.
 * Database aliases: both the requested name and the allowlist entries resolve through
 * `resolve` (alias → target), so a grant on an alias applies to its target database, as in Neo4j.
 * Roles are looked up at decision time, so a change of role or allowlist applies immediately.
 */
import { Forbidden } from '../errors/index.js';
import type { Permission, SecurityContext } from '../session/types.js';
import type { RoleDefinition } from './roles.js';

/** Finds a role's current definition. */
export type RoleLookup = (name: string) => RoleDefinition | null;

const SYSTEM_DATABASE = 'system';

/** Maps a database name or alias to the database it designates (lower-case). */
export type DatabaseResolver = (name: string) => string;

const byName: DatabaseResolver = (name) => name.toLowerCase();

function allowsDatabase(role: RoleDefinition, database: string, resolve: DatabaseResolver = byName): boolean {
  const target = resolve(database);
  if (target === SYSTEM_DATABASE) return role.permissions.includes('admin');
  return role.databases.length === 0 || role.databases.some((d) => resolve(d) === target);
}

/** True when `roles` grant `permission` on `database`. */
export function isAllowed(roles: readonly string[], lookup: RoleLookup, database: string, permission: Permission, resolve?: DatabaseResolver): boolean {
  return roles.some((name) => {
    const role = lookup(name);
    return role !== null && allowsDatabase(role, database, resolve) && (role.permissions.includes(permission) || role.permissions.includes('admin'));
  });
}

/** True when some role of `roles` has the admin permission. */
export function isAdmin(roles: readonly string[], lookup: RoleLookup): boolean {
  return roles.some((name) => lookup(name)?.permissions.includes('admin') === true);
}

/** The security context of an authenticated principal. */
export function securityContext(username: string | null, roles: readonly string[], lookup: RoleLookup, resolve?: DatabaseResolver): SecurityContext {
  const frozenRoles = Object.freeze([...roles]);
  return Object.freeze({
    username,
    roles: frozenRoles,
    authorize(database: string, permission: Permission): void {
      if (isAllowed(frozenRoles, lookup, database, permission, resolve)) return;
      const who = username ?? 'anonymous';
      const databaseAllowed = frozenRoles.some((name) => {
        const role = lookup(name);
        return role !== null && allowsDatabase(role, database, resolve);
      });
      throw new Forbidden(
        databaseAllowed
          ? `Permission denied: '${permission}' on database '${database}' is not granted to user '${who}'.`
          : `Database access is not allowed for user '${who}' on database '${database}'.`,
      );
    },
  });
}
