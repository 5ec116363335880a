/** Users and roles through Cypher administration commands on `system` (SHOW/CREATE/DROP USER, GRANT ROLE, ...). */
import type { AppContext } from '../context.js';
import { h, replaceChildren } from '../dom.js';
import { plainTable } from '../table.js';
import { act, quoteName } from './common.js';

/** Fills `into` with the users and roles page. */
export async function usersPage(context: AppContext, into: HTMLElement): Promise<void> {
  const system = (query: string, parameters: Record<string, unknown> = {}) => context.bolt.rows('system', query, parameters);
  const status = h('div', { class: 'status' });
  const usersBox = h('div');
  const rolesBox = h('div');
  const roleChoices = h('div', { class: 'checks' });

  const load = async (): Promise<void> => {
    const [users, roles] = await Promise.all([
      system(
        'SHOW USERS YIELD user, roles, suspended, passwordChangeRequired RETURN user, roles, suspended, passwordChangeRequired ORDER BY user',
      ),
      system('SHOW ROLES YIELD role RETURN role ORDER BY role'),
    ]);
    replaceChildren(
      usersBox,
      plainTable(users, ['user', 'roles', 'suspended', 'passwordChangeRequired'], (row) => {
        const user = quoteName(row.user as string);
        return h(
          'span',
          {},
          h(
            'button',
            {
              onclick: () =>
                void act(status, () => system(`ALTER USER ${user} SET STATUS ${row.suspended ? 'ACTIVE' : 'SUSPENDED'}`), load),
            },
            row.suspended ? 'Activate' : 'Suspend',
          ),
          h(
            'button',
            {
              class: 'danger',
              onclick: () => confirm(`Drop user ${String(row.user)}?`) && void act(status, () => system(`DROP USER ${user}`), load),
            },
            'Drop',
          ),
        );
      }),
    );
    replaceChildren(
      rolesBox,
      plainTable(roles, ['role'], (row) =>
        h(
          'button',
          {
            class: 'danger',
            onclick: () =>
              confirm(`Drop role ${String(row.role)}?`) &&
              void act(status, () => system(`DROP ROLE ${quoteName(row.role as string)}`), load),
          },
          'Drop',
        ),
      ),
    );
    replaceChildren(
      roleChoices,
      roles.map((row) =>
        h('label', {}, h('input', { type: 'checkbox', value: row.role as string, checked: row.role === 'reader' }), String(row.role)),
      ),
    );
  };

  const username = h('input', { placeholder: 'username', 'aria-label': 'New username', 'data-testid': 'new-user', required: true });
  const password = h('input', {
    type: 'password',
    placeholder: 'password',
    'aria-label': 'New password',
    'data-testid': 'new-password',
    required: true,
  });
  const changeRequired = h('input', { type: 'checkbox' });
  const createUser = h(
    'form',
    { class: 'inline-form', 'data-testid': 'create-user' },
    username,
    password,
    roleChoices,
    h('label', {}, changeRequired, 'change password at first login'),
    h('button', { type: 'submit', class: 'primary' }, 'Create user'),
  );
  createUser.addEventListener('submit', (event) => {
    event.preventDefault();
    const name = quoteName(username.value);
    const roles = [...roleChoices.querySelectorAll<HTMLInputElement>('input:checked')].map((input) => quoteName(input.value));
    void act(
      status,
      async () => {
        await system(`CREATE USER ${name} SET PASSWORD $password CHANGE ${changeRequired.checked ? '' : 'NOT '}REQUIRED`, {
          password: password.value,
        });
        if (roles.length > 0) await system(`GRANT ROLE ${roles.join(', ')} TO ${name}`);
        createUser.reset();
      },
      load,
      `User ${username.value} created.`,
    );
  });

  const roleName = h('input', { placeholder: 'role name', 'aria-label': 'New role', required: true });
  const copyOf = h('input', { placeholder: 'as copy of (optional)', 'aria-label': 'Copy of role' });
  const createRole = h('form', { class: 'inline-form' }, roleName, copyOf, h('button', { type: 'submit' }, 'Create role'));
  createRole.addEventListener('submit', (event) => {
    event.preventDefault();
    const copy = copyOf.value.trim();
    void act(
      status,
      () => system(`CREATE ROLE ${quoteName(roleName.value)}${copy === '' ? '' : ` AS COPY OF ${quoteName(copy)}`}`),
      load,
      `Role ${roleName.value} created.`,
    );
  });

  await load();
  replaceChildren(
    into,
    h('h2', {}, 'Users'),
    status,
    usersBox,
    h('h3', {}, 'New user'),
    createUser,
    h('h2', {}, 'Roles'),
    rolesBox,
    createRole,
  );
}
