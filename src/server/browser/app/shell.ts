/**
 * The shell of a logged-in app: header (pages, database selector incl. aliases, user, logout),
 * the schema sidebar and the page area. Pages are chosen by the URL hash (`#/query`,
 * `#/search`, `#/admin/<page>`); the query page is kept alive so its frames survive navigation.
 */
import { adminPage } from './admin/admin-page.js';
import type { AppContext } from './context.js';
import { h, replaceChildren } from './dom.js';
import type { CompletionVocabulary } from './editor.js';
import { queryPage } from './query-page.js';
import { loadVocabulary, schemaSidebar } from './schema.js';
import { searchPage } from './search-page.js';

interface DatabaseRow {
  readonly name: string;
  readonly aliases: readonly string[];
  readonly status: string;
}

async function databases(context: AppContext): Promise<DatabaseRow[]> {
  const rows = await context.bolt.rows('system', 'SHOW DATABASES YIELD name, aliases, currentStatus RETURN name, aliases, currentStatus');
  return rows.map((r) => ({ name: r.name as string, aliases: (r.aliases as string[] | null) ?? [], status: r.currentStatus as string }));
}

function databaseSelector(context: AppContext, refresh: () => void): HTMLSelectElement {
  const select = h('select', { class: 'db-select', 'aria-label': 'Database', 'data-testid': 'database' });
  const fill = async (): Promise<void> => {
    let rows: DatabaseRow[];
    try {
      rows = await databases(context);
    } catch {
      rows = [{ name: context.database, aliases: [], status: 'online' }];
    }
    replaceChildren(
      select,
      rows.map((row) =>
        h(
          'optgroup',
          { label: row.name === 'system' ? 'system' : `${row.name} (${row.status})` },
          h('option', { value: row.name, selected: row.name === context.database }, row.name),
          row.aliases.map((alias) => h('option', { value: alias, selected: alias === context.database }, `${alias} → ${row.name}`)),
        ),
      ),
    );
  };
  select.addEventListener('change', () => {
    context.database = select.value;
  });
  select.addEventListener('focus', () => void fill());
  context.onDatabaseChange((name) => {
    if (select.value !== name) void fill();
    refresh();
  });
  void fill();
  return select;
}

/** Mounts the shell into `root`; `onLogout` runs after the Logout button. */
export function mountShell(root: HTMLElement, context: AppContext, onLogout: () => Promise<void>): void {
  let vocabulary: Omit<CompletionVocabulary, 'parameters'> = { labels: [], types: [], propertyKeys: [], functions: [], procedures: [] };
  const sidebar = schemaSidebar(context);
  const refresh = (): void => {
    void sidebar.refresh();
    loadVocabulary(context, context.database).then(
      (loaded) => (vocabulary = loaded),
      () => undefined,
    );
  };
  const query = queryPage(context, () => ({ ...vocabulary, parameters: [] }));
  const content = h('main', { class: 'content' });
  const nav = h('nav', { class: 'pages' });
  const pages: [string, string][] = [
    ['#/query', 'Query'],
    ['#/search', 'Search'],
  ];
  if (context.principal.admin) pages.push(['#/admin/users', 'Admin']);
  for (const [href, title] of pages) nav.appendChild(h('a', { href, 'data-page': href.split('/')[1] }, title));

  const route = (): void => {
    const hash = location.hash || '#/query';
    const [, page = 'query', sub = ''] = hash.split('/');
    for (const link of nav.children) link.classList.toggle('active', (link as HTMLElement).dataset.page === page);
    if (page === 'search') replaceChildren(content, searchPage(context));
    else if (page === 'admin') replaceChildren(content, adminPage(context, sub || 'users'));
    else {
      replaceChildren(content, query.element);
      query.editor.focus();
    }
  };
  window.addEventListener('hashchange', route);
  window.addEventListener('graphdb:changed', refresh);

  const user = context.principal.username;
  replaceChildren(
    root,
    h(
      'div',
      { class: 'shell' },
      h(
        'header',
        { class: 'topbar' },
        h('span', { class: 'brand' }, 'graphdb'),
        nav,
        h('span', { class: 'spacer' }),
        h('label', { class: 'db-label' }, 'Database ', databaseSelector(context, refresh)),
        h(
          'span',
          { class: 'user', 'data-testid': 'user' },
          user === null ? 'authentication off' : `${user}${context.principal.admin ? ' (admin)' : ''}`,
        ),
        user === null
          ? null
          : h(
              'button',
              {
                'data-testid': 'logout',
                onclick: () => (
                  window.removeEventListener('hashchange', route),
                  window.removeEventListener('graphdb:changed', refresh),
                  void onLogout()
                ),
              },
              'Log out',
            ),
      ),
      h('div', { class: 'body' }, h('aside', { class: 'sidebar' }, sidebar.element), content),
    ),
  );
  refresh();
  route();
}
