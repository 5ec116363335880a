/**
 * The privileges of Neo4j's built-in roles (PUBLIC, reader, editor, publisher, architect,
 * admin; graphdb's earlier `viewer` is a reader), seeded once into the `system` database so they
 * can be revoked and granted like any other, and the privileges a role's legacy permission list
 * (`read`, `write`, `delete`, `schema`, `admin`, from the HTTP role API) stands for.
 */
import type { Permission } from '../../session/types.js';
import type { PrivilegeAction, PrivilegeRecord } from './types.js';

type Template = Omit<PrivilegeRecord, 'role' | 'immutable' | 'access'>;

const database = (action: PrivilegeAction, graph = '*'): Template => ({ action, resource: 'database', graph, segment: 'database' });
const elements = (action: PrivilegeAction, resource: string): Template[] => [
  { action, resource, graph: '*', segment: 'NODE(*)' },
  { action, resource, graph: '*', segment: 'RELATIONSHIP(*)' },
];

const READER: readonly Template[] = [
  database('access'),
  ...elements('match', 'all_properties'),
  database('show_constraint'),
  database('show_index'),
];
const EDITOR: readonly Template[] = [...READER, ...elements('write', 'graph')];
const PUBLISHER: readonly Template[] = [...EDITOR, database('token')];
const ARCHITECT: readonly Template[] = [...PUBLISHER, database('constraint'), database('index')];
const ADMIN: readonly Template[] = [
  ...ARCHITECT,
  { action: 'dbms_actions', resource: 'database', graph: '*', segment: 'database' },
  database('start_database'),
  database('stop_database'),
  { action: 'transaction_management', resource: 'database', graph: '*', segment: 'USER(*)' },
];
const PUBLIC: readonly Template[] = [
  database('access', 'HOME'),
  { action: 'execute_function', resource: 'database', graph: '*', segment: 'FUNCTION(*)' },
  { action: 'execute', resource: 'database', graph: '*', segment: 'PROCEDURE(*)' },
  { action: 'load', resource: 'all_data', graph: '*', segment: 'database' },
];

/** The role every user has; it cannot be granted, revoked or dropped. */
export const PUBLIC_ROLE = 'PUBLIC';

/** Built-in roles and their default privileges. */
export const BUILTIN_ROLE_PRIVILEGES: ReadonlyMap<string, readonly Template[]> = new Map([
  [PUBLIC_ROLE, PUBLIC],
  ['reader', READER],
  ['viewer', READER],
  ['editor', EDITOR],
  ['publisher', PUBLISHER],
  ['architect', ARCHITECT],
  ['admin', ADMIN],
]);

/** The default privileges of the built-in roles, as records to seed. */
export function builtinPrivileges(): PrivilegeRecord[] {
  return [...BUILTIN_ROLE_PRIVILEGES].flatMap(([role, templates]) =>
    templates.map((t) => ({ ...t, role, access: 'GRANTED' as const, immutable: false })),
  );
}

const LEGACY: Readonly<Record<Permission, readonly Template[]>> = {
  read: READER,
  write: [
    database('access'),
    ...(['create_element', 'set_label', 'remove_label'] as const).flatMap((a) =>
      elements(a, a === 'create_element' ? 'graph' : 'all_labels'),
    ),
    ...elements('set_property', 'all_properties'),
  ],
  delete: [database('access'), ...elements('delete_element', 'graph')],
  schema: [
    database('access'),
    database('index'),
    database('constraint'),
    database('show_index'),
    database('show_constraint'),
    database('token'),
  ],
  admin: ADMIN,
};

/** The privileges a legacy permission list stands for (shown as immutable rows of the role). */
export function legacyPrivileges(role: string, permissions: readonly Permission[]): PrivilegeRecord[] {
  const seen = new Set<string>();
  const out: PrivilegeRecord[] = [];
  for (const permission of permissions) {
    for (const template of LEGACY[permission]) {
      const id = `${template.action}|${template.segment}|${template.resource}`;
      if (seen.has(id)) continue;
      seen.add(id);
      out.push({ ...template, role, access: 'GRANTED', immutable: true });
    }
  }
  return out;
}
