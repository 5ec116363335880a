/**
 * The admin pages (for the admin role; the server refuses the others, and the page shows its
 * refusal): users and roles, database access, databases (aliases, limits), MVCC, backups and
 * live metrics. Each page is chosen by `#/admin/<page>`.
 */
import type { AppContext } from '../context.js';
import { h, replaceChildren } from '../dom.js';
import { errorView } from '../errors.js';
import { accessPage } from './access.js';
import { backupPage } from './backups.js';
import { databasesPage } from './databases.js';
import { metricsPage } from './metrics.js';
import { mvccPage } from './mvcc.js';
import { usersPage } from './users.js';

/** A page body: fills `into`; may return a cleanup run when the page is left. */
type AdminPage = (context: AppContext, into: HTMLElement) => Promise<(() => void) | void>;

const PAGES: readonly (readonly [string, string, AdminPage])[] = [
  ['users', 'Users & roles', usersPage],
  ['access', 'Database access', accessPage],
  ['databases', 'Databases', databasesPage],
  ['mvcc', 'MVCC', mvccPage],
  ['backups', 'Backups', backupPage],
  ['metrics', 'Metrics', metricsPage],
];

let cleanup: (() => void) | void = undefined;

/** The admin page `name`. */
export function adminPage(context: AppContext, name: string): HTMLElement {
  cleanup?.();
  cleanup = undefined;
  const body = h('div', { class: 'admin-body', 'data-testid': 'admin-body' });
  const entry = PAGES.find(([key]) => key === name) ?? PAGES[0]!;
  const element = h(
    'div',
    { class: 'page admin-page' },
    h(
      'nav',
      { class: 'subnav' },
      PAGES.map(([key, title]) => h('a', { href: `#/admin/${key}`, class: key === entry[0] ? 'active' : '' }, title)),
    ),
    body,
  );
  entry[2](context, body).then(
    (stop) => (cleanup = stop),
    (error: unknown) => replaceChildren(body, errorView(error)),
  );
  return element;
}
