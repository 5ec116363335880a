/**
 * Privileges as Neo4j stores and shows them (SHOW PRIVILEGES columns): a role is GRANTED or
 * DENIED an action on a resource, in a graph (database) and segment. Stored as `_Privilege`
 * nodes in the `system` database (auth-store.ts).
 */

import type { DbmsAction } from '../../cypher/semantic/access-types.js';

/** Every privilege action graphdb knows, with Neo4j's names. */
export type PrivilegeAction =
  // graph
  | 'traverse'
  | 'read'
  | 'match'
  | 'write'
  | 'create_element'
  | 'delete_element'
  | 'set_property'
  | 'set_label'
  | 'remove_label'
  | 'merge'
  | 'graph_actions'
  // database
  | 'access'
  | 'index'
  | 'constraint'
  | 'show_index'
  | 'show_constraint'
  | 'token'
  | 'start_database'
  | 'stop_database'
  | 'transaction_management'
  | 'database_actions'
  // load, procedures
  | 'load'
  | 'execute'
  | 'execute_boosted'
  | 'execute_admin'
  | 'execute_function'
  // dbms: the actions statements need (access-types.ts) and the groups that cover them
  | DbmsAction
  | 'user_management'
  | 'role_management'
  | 'privilege_management'
  | 'database_management';

/** GRANTED or DENIED. */
export type PrivilegeAccess = 'GRANTED' | 'DENIED';

/** One privilege of one role (one row of SHOW PRIVILEGES). */
export interface PrivilegeRecord {
  readonly role: string;
  readonly access: PrivilegeAccess;
  readonly action: PrivilegeAction;
  /** `all_properties`, `property(p)`, `graph`, `database`, `all_labels`, `label(L)`, `all_data`. */
  readonly resource: string;
  /** `*`, a database name (or alias), `HOME` or `DEFAULT`. */
  readonly graph: string;
  /** `NODE(*)`, `NODE(L)`, `RELATIONSHIP(*)`, `RELATIONSHIP(T)`, `database`, `PROCEDURE(glob)`, `FUNCTION(glob)`, `USER(*)`. */
  readonly segment: string;
  /** True for privileges graphdb derives and no command can revoke (legacy permission lists). */
  readonly immutable: boolean;
}

/** Graph-level actions (a GRAPH scope, element segments). */
export const GRAPH_ACTIONS: ReadonlySet<PrivilegeAction> = new Set<PrivilegeAction>([
  'traverse',
  'read',
  'match',
  'write',
  'create_element',
  'delete_element',
  'set_property',
  'set_label',
  'remove_label',
  'merge',
  'graph_actions',
]);

/** DBMS-level actions (ON DBMS, and LOAD ON ALL DATA): not scoped to a database. */
export const DBMS_ACTIONS: ReadonlySet<PrivilegeAction> = new Set<PrivilegeAction>([
  'load',
  'execute',
  'execute_boosted',
  'execute_admin',
  'execute_function',
  'dbms_actions',
  'user_management',
  'create_user',
  'drop_user',
  'rename_user',
  'alter_user',
  'show_user',
  'role_management',
  'create_role',
  'drop_role',
  'rename_role',
  'show_role',
  'assign_role',
  'remove_role',
  'privilege_management',
  'assign_privilege',
  'remove_privilege',
  'show_privilege',
  'database_management',
  'create_database',
  'drop_database',
  'alter_database',
  'alias_management',
  'show_alias',
  'show_setting',
]);

/** A stable identity of a privilege within its role (GRANT twice is one privilege). */
export function privilegeKey(p: Omit<PrivilegeRecord, 'immutable'>): string {
  return [p.role, p.access, p.action, p.resource, p.graph, p.segment].join('\u0000');
}
