/**
 * Database access: each role's database allowlist (`GET /admin/roles`, `PUT` / `DELETE
 * /admin/roles/{role}/databases`; empty = every database) and the privileges (`SHOW PRIVILEGES`).
 */
import type { AppContext } from '../context.js';
import { h, replaceChildren } from '../dom.js';
import { plainTable } from '../table.js';
import { act } from './common.js';

interface RoleView {
  readonly name: string;
  readonly builtin: boolean;
  readonly permissions: readonly string[];
  readonly databases: readonly string[];
}

/** Fills `into` with the database access page. */
export async function accessPage(context: AppContext, into: HTMLElement): Promise<void> {
  const status = h('div', { class: 'status' });
  const rolesBox = h('div');
  const privilegesBox = h('div');
  const load = async (): Promise<void> => {
    const [{ roles }, privileges] = await Promise.all([
      context.api.json<{ roles: RoleView[] }>('/admin/roles'),
      context.bolt.rows('system', 'SHOW PRIVILEGES YIELD role, access, action, resource, graph, segment RETURN * ORDER BY role LIMIT 500'),
    ]);
    replaceChildren(
      rolesBox,
      h(
        'table',
        { class: 'plain' },
        h(
          'thead',
          {},
          h(
            'tr',
            {},
            ['role', 'permissions', 'databases (empty: all)', ''].map((c) => h('th', {}, c)),
          ),
        ),
        h(
          'tbody',
          {},
          roles.map((role) => {
            const input = h('input', {
              value: role.databases.join(', '),
              'aria-label': `Databases of ${role.name}`,
              placeholder: 'all databases',
            });
            const save = (): Promise<unknown> => {
              const names = input.value
                .split(',')
                .map((n) => n.trim())
                .filter((n) => n !== '');
              const path = `/admin/roles/${encodeURIComponent(role.name)}/databases`;
              return names.length === 0
                ? context.api.json(path, { method: 'DELETE' })
                : context.api.json(path, { method: 'PUT', body: names });
            };
            return h(
              'tr',
              {},
              h('td', {}, role.name, role.builtin ? h('span', { class: 'muted' }, ' (built-in)') : null),
              h('td', {}, role.permissions.join(', ')),
              h('td', {}, input),
              h('td', {}, h('button', { onclick: () => void act(status, save, load, `Access of ${role.name} saved.`) }, 'Save')),
            );
          }),
        ),
      ),
    );
    replaceChildren(privilegesBox, plainTable(privileges, ['role', 'access', 'action', 'resource', 'graph', 'segment']));
  };
  await load();
  replaceChildren(into, h('h2', {}, 'Database access by role'), status, rolesBox, h('h2', {}, 'Privileges'), privilegesBox);
}
