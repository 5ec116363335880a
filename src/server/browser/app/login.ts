/** The login form: username and password exchanged for a token at `/auth/token`. */
import { login, type Principal } from './api.js';
import { h, replaceChildren } from './dom.js';
import { errorView } from './errors.js';

/** Shows the form in `root`; resolves with the principal once the login succeeds. */
export function loginForm(root: HTMLElement, serverVersion: string, reason?: unknown): Promise<Principal> {
  return new Promise((resolve) => {
    const username = h('input', { name: 'username', autocomplete: 'username', required: true, 'aria-label': 'Username', autofocus: true });
    const password = h('input', {
      name: 'password',
      type: 'password',
      autocomplete: 'current-password',
      required: true,
      'aria-label': 'Password',
    });
    const status = h('div', { class: 'login-status' }, reason === undefined ? null : errorView(reason));
    const submit = h('button', { type: 'submit', class: 'primary' }, 'Connect');
    const form = h(
      'form',
      { class: 'login', 'data-testid': 'login' },
      h('h1', {}, 'graphdb'),
      h('p', { class: 'muted' }, `Connect to the server (graphdb ${serverVersion})`),
      h('label', {}, 'Username', username),
      h('label', {}, 'Password', password),
      submit,
      status,
    );
    form.addEventListener('submit', (event) => {
      event.preventDefault();
      submit.disabled = true;
      replaceChildren(status, h('span', { class: 'muted' }, 'Connecting…'));
      login(username.value, password.value).then(resolve, (error: unknown) => {
        submit.disabled = false;
        replaceChildren(status, errorView(error));
        password.select();
      });
    });
    replaceChildren(root, h('div', { class: 'login-page' }, form));
    username.focus();
  });
}
