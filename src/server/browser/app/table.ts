/** The table view of a result: one column per key, at most `MAX_ROWS` rows drawn. */
import type { Record as Neo4jRecord } from 'neo4j-driver';
import { h } from './dom.js';
import { cellText } from './values.js';

const MAX_ROWS = 1000;

/** A table element for the records. */
export function resultTable(keys: readonly string[], records: readonly Neo4jRecord[]): HTMLElement {
  const rows = records.slice(0, MAX_ROWS).map((record) =>
    h(
      'tr',
      {},
      keys.map((key) => h('td', {}, h('pre', {}, cellText(record.get(key))))),
    ),
  );
  return h(
    'div',
    { class: 'table-view', 'data-testid': 'table' },
    keys.length === 0
      ? h('p', { class: 'muted' }, 'No columns.')
      : h(
          'table',
          {},
          h(
            'thead',
            {},
            h(
              'tr',
              {},
              keys.map((key) => h('th', {}, key)),
            ),
          ),
          h('tbody', {}, rows),
        ),
    records.length > MAX_ROWS ? h('p', { class: 'muted' }, `Showing ${MAX_ROWS} of ${records.length} rows.`) : null,
  );
}

/** A table of plain rows (admin pages): columns from the first row unless given. */
export function plainTable(
  rows: readonly Record<string, unknown>[],
  columns?: readonly string[],
  actions?: (row: Record<string, unknown>) => Node | null,
): HTMLElement {
  const keys = columns ?? Object.keys(rows[0] ?? {});
  return h(
    'table',
    { class: 'plain' },
    h(
      'thead',
      {},
      h(
        'tr',
        {},
        keys.map((key) => h('th', {}, key)),
        actions ? h('th', {}) : null,
      ),
    ),
    h(
      'tbody',
      {},
      rows.map((row) =>
        h(
          'tr',
          {},
          keys.map((key) => h('td', {}, cellText(row[key]))),
          actions ? h('td', { class: 'actions' }, actions(row)) : null,
        ),
      ),
    ),
  );
}
