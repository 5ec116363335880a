/** MVCC status and pruning of a database (`/admin/databases/{db}/mvcc`, `.../prune`, `.../pause`, `.../resume`). */
import type { AppContext } from '../context.js';
import { h, replaceChildren } from '../dom.js';
import { cellText, toJson } from '../values.js';
import { act } from './common.js';

type Status = Record<string, unknown> & {
  lifecycle?: { state?: string; interval?: string };
  pressure?: { band?: string; pinned_bytes?: number };
  active_readers?: number;
  debt?: { bytes?: number; keys?: number; versions?: number };
  history?: { version?: number; prune_floor?: number; bytes?: number };
  totals?: { runs?: number; pruned_bytes?: number; pruned_versions?: number };
};

function figures(status: Status): HTMLElement {
  const rows: [string, unknown][] = [
    ['lifecycle', `${status.lifecycle?.state ?? '?'} (interval ${status.lifecycle?.interval ?? '–'})`],
    ['pressure band', status.pressure?.band],
    ['active readers', status.active_readers],
    ['pinned bytes', status.pressure?.pinned_bytes],
    ['head version', status.history?.version],
    ['prune floor', status.history?.prune_floor],
    ['history bytes', status.history?.bytes],
    ['prunable now', `${status.debt?.versions ?? 0} versions of ${status.debt?.keys ?? 0} entities, ${status.debt?.bytes ?? 0} bytes`],
    [
      'prune runs',
      `${status.totals?.runs ?? 0} (${status.totals?.pruned_versions ?? 0} versions, ${status.totals?.pruned_bytes ?? 0} bytes)`,
    ],
  ];
  return h(
    'table',
    { class: 'properties', 'data-testid': 'mvcc-status' },
    rows.map(([k, v]) => h('tr', {}, h('th', {}, k), h('td', {}, v === undefined || v === null ? '–' : cellText(v)))),
  );
}

/** Fills `into` with the MVCC page. */
export async function mvccPage(context: AppContext, into: HTMLElement): Promise<void> {
  const rows = await context.bolt.rows('system', 'SHOW DATABASES YIELD name RETURN name');
  const names = rows.map((r) => r.name as string).filter((n) => n !== 'system');
  const select = h(
    'select',
    { 'aria-label': 'Database' },
    names.map((n) => h('option', { value: n, selected: n === context.database }, n)),
  );
  const status = h('div', { class: 'status' });
  const body = h('div');
  const lastRun = h('div');
  const path = (): string => `/admin/databases/${encodeURIComponent(select.value)}/mvcc`;
  const load = async (): Promise<void> => {
    const document = await context.api.json<Status>(path());
    replaceChildren(body, figures(document), h('details', {}, h('summary', {}, 'Full status'), h('pre', {}, toJson(document))));
  };
  const post = (action: string) => async (): Promise<void> => {
    const answer = await context.api.json<Record<string, unknown>>(`${path()}/${action}`, { method: 'POST', body: {} });
    replaceChildren(lastRun, h('pre', { class: 'json-view' }, toJson(answer)));
  };
  select.addEventListener('change', () => void act(status, load, async () => undefined));
  await load();
  replaceChildren(
    into,
    h('h2', {}, 'MVCC version history'),
    h(
      'div',
      { class: 'row' },
      select,
      h(
        'button',
        { class: 'primary', 'data-testid': 'prune', onclick: () => void act(status, post('prune'), load, 'Prune cycle done.') },
        'Prune now',
      ),
      h('button', { onclick: () => void act(status, post('pause'), load) }, 'Pause'),
      h('button', { onclick: () => void act(status, post('resume'), load) }, 'Resume'),
      h('button', { onclick: () => void act(status, load, async () => undefined) }, 'Refresh'),
    ),
    status,
    body,
    lastRun,
  );
}
