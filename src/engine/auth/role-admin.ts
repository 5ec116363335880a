/**
 * Renames and privilege changes over the auth service's store, each audited: what RENAME
 * USER/ROLE and GRANT/DENY/REVOKE run after security-admin.ts has applied Neo4j's rules.
 */
import { ClientError, StatusCodes } from '../errors/index.js';
import type { AuthService } from './auth-service.js';
import type { PrivilegeAccess, PrivilegeRecord } from './privileges/types.js';
import { isValidName } from './roles.js';

function invalid(message: string): ClientError {
  return new ClientError(StatusCodes.InvalidRequest, message);
}

function describePrivilege(p: Omit<PrivilegeRecord, 'access' | 'immutable'> & { readonly access?: PrivilegeAccess }): string {
  return `${p.access ?? 'ANY'} ${p.action} ${p.resource} ${p.graph} ${p.segment} ${p.role}`;
}

/** Renames a user-defined role (its privileges and members follow). */
export async function renameRole(auth: AuthService, from: string, to: string, actor: string | null): Promise<void> {
  if (!isValidName(to)) throw invalid(`Invalid role name '${to}'.`);
  if (!(await auth.store.renameRole(from, to))) throw invalid(`Role '${from}' does not exist.`);
  auth.auditEvent({ type: 'role_renamed', actor, role: to, from });
}

/** Renames a user. */
export async function renameUser(auth: AuthService, from: string, to: string, actor: string | null): Promise<void> {
  if (!isValidName(to)) throw invalid(`Invalid user name '${to}'.`);
  if (!(await auth.store.renameUser(from, to))) throw invalid(`User '${from}' does not exist.`);
  auth.auditEvent({ type: 'user_renamed', actor, username: to, from });
}

/** GRANT/DENY privileges (records of existing roles); returns how many were new. */
export async function addPrivileges(auth: AuthService, records: readonly PrivilegeRecord[], actor: string | null): Promise<number> {
  for (const role of new Set(records.map((r) => r.role))) if (!auth.store.role(role)) throw invalid(`Role '${role}' does not exist.`);
  const added = await auth.store.privileges.add(records);
  if (added > 0) auth.auditEvent({ type: 'privilege_changed', actor, change: 'add', privileges: records.map(describePrivilege) });
  return added;
}

/** REVOKE [GRANT|DENY] privileges; returns how many were removed. */
export async function removePrivileges(
  auth: AuthService,
  records: readonly Omit<PrivilegeRecord, 'access'>[],
  access: PrivilegeAccess | null,
  actor: string | null,
): Promise<number> {
  const removed = await auth.store.privileges.remove(records, access);
  if (removed > 0) auth.auditEvent({ type: 'privilege_changed', actor, change: 'remove', privileges: records.map(describePrivilege) });
  return removed;
}
