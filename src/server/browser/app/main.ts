/**
 * Entry point of the web UI served at `/browser`: reads the server's config, logs in (or resumes
 * this tab's session), connects over Bolt-on-WebSocket and mounts the shell.
 */
import './styles.css';
import { Api, logout, resumeSession, serverInfo, type Principal, type ServerInfo } from './api.js';
import { Bolt } from './bolt.js';
import { AppContext } from './context.js';
import { find, h, replaceChildren } from './dom.js';
import { errorView } from './errors.js';
import { QueryHistory } from './history.js';
import { loginForm } from './login.js';
import { mountShell } from './shell.js';
import { LabelStyles } from './styles-by-label.js';

const ANONYMOUS: Principal = { username: null, roles: ['admin'], admin: true, token: null };

async function connect(root: HTMLElement, info: ServerInfo, failure?: unknown): Promise<void> {
  let principal: Principal;
  if (!info.authEnabled) principal = ANONYMOUS;
  else principal = (failure === undefined ? await resumeSession() : null) ?? (await loginForm(root, info.version, failure));
  const bolt = new Bolt(info, principal);
  try {
    await bolt.driver.verifyConnectivity();
  } catch (error) {
    await bolt.close();
    if (!info.authEnabled) throw error;
    await logout(principal).catch(() => undefined);
    return connect(root, info, error);
  }
  const context = new AppContext(
    info,
    principal,
    new Api(principal.token),
    bolt,
    new QueryHistory(),
    new LabelStyles(),
    info.defaultDatabase,
  );
  mountShell(root, context, async () => {
    await bolt.close();
    await logout(principal).catch(() => undefined);
    location.hash = '';
    await connect(root, info);
  });
}

async function start(): Promise<void> {
  const root = find(document, '#app');
  try {
    await connect(root, await serverInfo());
  } catch (error) {
    replaceChildren(root, h('div', { class: 'login-page' }, h('div', { class: 'login' }, h('h1', {}, 'graphdb'), errorView(error))));
  }
}

void start();
