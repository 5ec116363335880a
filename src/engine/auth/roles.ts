/**
 * Roles and their coarse permissions. Built-in roles are Neo4j's (PUBLIC, reader, editor,
 * publisher, architect, admin) plus graphdb's earlier `viewer` (a reader); their privileges are
 * seeded into the privilege store (privileges/builtin.ts), the permission lists here only
 * summarise them for the HTTP role API. User-defined roles may carry a legacy permission list,
 * honoured as privileges. A role's database allowlist is stored separately (`_RoleDbAccess`
 * nodes); empty means every database.
 */
import type { Permission } from '../session/types.js';

/** Every permission, in the order of spec rule 6 plus admin. */
export const ALL_PERMISSIONS: readonly Permission[] = Object.freeze(['read', 'write', 'delete', 'schema', 'admin']);

/** Permissions of the built-in roles. */
export const BUILTIN_ROLES: ReadonlyMap<string, readonly Permission[]> = new Map<string, readonly Permission[]>([
  ['PUBLIC', []],
  ['admin', ALL_PERMISSIONS],
  ['architect', ['read', 'write', 'delete', 'schema']],
  ['publisher', ['read', 'write', 'delete']],
  ['editor', ['read', 'write', 'delete']],
  ['reader', ['read']],
  ['viewer', ['read']],
]);

/** A role as the access-control layer sees it. */
export interface RoleDefinition {
  readonly name: string;
  readonly permissions: readonly Permission[];
  /** Databases the role may use; empty = all databases, including ones created later. */
  readonly databases: readonly string[];
  readonly builtin: boolean;
}

/** True for a valid permission name. */
export function isPermission(value: unknown): value is Permission {
  return typeof value === 'string' && (ALL_PERMISSIONS as readonly string[]).includes(value);
}

/** Role and user names: letters, digits, `_`, `-`, `.`, `@`; 1–64 characters. */
export function isValidName(name: string): boolean {
  return /^[A-Za-z0-9_.@-]{1,64}$/.test(name);
}
