/** Helpers shared by the admin pages. */
import { h, replaceChildren } from '../dom.js';
import { errorView } from '../errors.js';

/** Runs `action`, then `reload`; an error is shown in `status`. */
export async function act(
  status: HTMLElement,
  action: () => Promise<unknown>,
  reload: () => Promise<unknown>,
  done?: string,
): Promise<void> {
  replaceChildren(status, h('span', { class: 'muted' }, 'Working…'));
  try {
    await action();
    replaceChildren(status, done === undefined ? null : h('span', { class: 'ok', 'data-testid': 'admin-ok' }, done));
    await reload();
  } catch (error) {
    replaceChildren(status, errorView(error));
  }
}

/** Backquotes a name for an administration command. */
export function quoteName(name: string): string {
  return `\`${name.replace(/`/g, '``')}\``;
}
