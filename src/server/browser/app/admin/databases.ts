/** Databases, aliases and limits through Cypher administration commands on `system`. */
import type { AppContext } from '../context.js';
import { h, replaceChildren } from '../dom.js';
import { plainTable } from '../table.js';
import { act, quoteName } from './common.js';

function form(fields: HTMLElement[], label: string, submit: () => void, testid?: string): HTMLFormElement {
  const element = h('form', { class: 'inline-form', 'data-testid': testid }, fields, h('button', { type: 'submit' }, label));
  element.addEventListener('submit', (event) => {
    event.preventDefault();
    submit();
  });
  return element;
}

/** Fills `into` with the databases page. */
export async function databasesPage(context: AppContext, into: HTMLElement): Promise<void> {
  const system = (query: string, parameters: Record<string, unknown> = {}) => context.bolt.rows('system', query, parameters);
  const status = h('div', { class: 'status' });
  const databasesBox = h('div');
  const aliasesBox = h('div');
  const limitsBox = h('div');
  const load = async (): Promise<void> => {
    const [databases, aliases, limits] = await Promise.all([
      system('SHOW DATABASES YIELD name, aliases, currentStatus, default, home RETURN name, aliases, currentStatus, default, home'),
      system('SHOW ALIASES FOR DATABASE YIELD name, database RETURN name, database'),
      system('SHOW LIMITS YIELD database, limit, value RETURN database, limit, value'),
    ]);
    replaceChildren(
      databasesBox,
      plainTable(databases, ['name', 'aliases', 'currentStatus', 'default', 'home'], (row) =>
        row.name === 'system' || row.default
          ? null
          : h(
              'button',
              {
                class: 'danger',
                onclick: () =>
                  confirm(`Drop database ${String(row.name)} and its aliases?`) &&
                  void act(status, () => system(`DROP DATABASE ${quoteName(row.name as string)} CASCADE ALIASES`), load),
              },
              'Drop',
            ),
      ),
    );
    replaceChildren(
      aliasesBox,
      plainTable(aliases, ['name', 'database'], (row) =>
        h(
          'button',
          {
            class: 'danger',
            onclick: () => void act(status, () => system(`DROP ALIAS ${quoteName(row.name as string)} FOR DATABASE`), load),
          },
          'Drop',
        ),
      ),
    );
    replaceChildren(
      limitsBox,
      plainTable(
        limits.filter((row) => row.value !== null),
        ['database', 'limit', 'value'],
      ),
    );
  };

  const dbName = h('input', { placeholder: 'database name', 'aria-label': 'New database', required: true });
  const aliasName = h('input', { placeholder: 'alias', 'aria-label': 'Alias name', required: true });
  const aliasTarget = h('input', { placeholder: 'database', 'aria-label': 'Alias target', required: true });
  const limitDb = h('input', { placeholder: 'database', 'aria-label': 'Limit database', required: true });
  const limitName = h(
    'select',
    { 'aria-label': 'Limit' },
    ['max_nodes', 'max_relationships', 'max_storage_bytes', 'max_query_time', 'max_concurrent_queries'].map((n) =>
      h('option', { value: n }, n),
    ),
  );
  const limitValue = h('input', { placeholder: "value (0 removes; time as '30s')", 'aria-label': 'Limit value', required: true });
  await load();
  replaceChildren(
    into,
    h('h2', {}, 'Databases'),
    status,
    databasesBox,
    form(
      [dbName],
      'Create database',
      () => void act(status, () => system(`CREATE DATABASE ${quoteName(dbName.value)}`), load, `Database ${dbName.value} created.`),
      'create-database',
    ),
    h('h2', {}, 'Aliases'),
    aliasesBox,
    form(
      [aliasName, aliasTarget],
      'Create alias',
      () =>
        void act(
          status,
          () => system(`CREATE ALIAS ${quoteName(aliasName.value)} FOR DATABASE ${quoteName(aliasTarget.value)}`),
          load,
          `Alias ${aliasName.value} created.`,
        ),
    ),
    h('h2', {}, 'Limits'),
    limitsBox,
    form([limitDb, limitName, limitValue], 'Set limit', () => {
      const raw = limitValue.value.trim();
      const value = /^-?\d+$/.test(raw) ? raw : `'${raw.replace(/'/g, "\\'")}'`;
      void act(
        status,
        () => system(`ALTER DATABASE ${quoteName(limitDb.value)} SET LIMIT ${limitName.value} = ${value}`),
        load,
        'Limit set.',
      );
    }),
  );
}
