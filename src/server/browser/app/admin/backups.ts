/** Online backup (`POST /admin/backup`) and restore (`POST /admin/restore`: into this server, or into a new directory). */
import type { AppContext } from '../context.js';
import { h, replaceChildren } from '../dom.js';
import { toJson } from '../values.js';
import { act } from './common.js';

/** Fills `into` with the backups page. */
export async function backupPage(context: AppContext, into: HTMLElement): Promise<void> {
  const status = h('div', { class: 'status' });
  const answer = h('div');
  const output = h('input', {
    placeholder: '/backups/2026-11-28 (new or empty, outside the data directory)',
    'aria-label': 'Backup directory',
    required: true,
    class: 'wide',
  });
  const databases = h('input', { placeholder: 'databases (comma separated; empty: all)', 'aria-label': 'Databases' });
  const input = h('input', {
    placeholder: 'backup directory or its manifest.json',
    'aria-label': 'Restore from',
    required: true,
    class: 'wide',
  });
  const target = h('input', { placeholder: 'new directory (empty: into this server)', 'aria-label': 'Restore target' });
  const show = (value: unknown): void => replaceChildren(answer, h('pre', { class: 'json-view' }, toJson(value)));
  const backup = h('form', { class: 'inline-form' }, output, databases, h('button', { type: 'submit', class: 'primary' }, 'Back up now'));
  backup.addEventListener('submit', (event) => {
    event.preventDefault();
    const names = databases.value
      .split(',')
      .map((n) => n.trim())
      .filter((n) => n !== '');
    void act(
      status,
      async () =>
        show(
          await context.api.json('/admin/backup', { body: { output: output.value, ...(names.length > 0 ? { databases: names } : {}) } }),
        ),
      async () => undefined,
      'Backup written.',
    );
  });
  const restore = h('form', { class: 'inline-form' }, input, target, h('button', { type: 'submit' }, 'Restore'));
  restore.addEventListener('submit', (event) => {
    event.preventDefault();
    void act(
      status,
      async () =>
        show(await context.api.json('/admin/restore', { body: { input: input.value, ...(target.value ? { target: target.value } : {}) } })),
      async () => undefined,
      'Restored.',
    );
  });
  replaceChildren(
    into,
    h('h2', {}, 'Backup'),
    h(
      'p',
      { class: 'muted' },
      'An online backup of every database (system included) while writers keep going, verified by SHA-256 checksums.',
    ),
    backup,
    h('h2', {}, 'Restore'),
    h(
      'p',
      { class: 'muted' },
      'A backup directory or JSON backup file is verified, then restored into this server (readers see the old or the restored data, never a mix), or into a new directory when one is given.',
    ),
    restore,
    status,
    answer,
  );
}
