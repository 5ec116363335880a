/**
 * The HTTP side of the app: the server's `/browser/config.json`, login and logout through
 * `/auth/token` and `/auth/logout`, and JSON calls to the admin and search routes with the
 * session's bearer token. Errors keep the server's Neo4j status code.
 */

/** What `/browser/config.json` answers. */
export interface ServerInfo {
  readonly version: string;
  readonly basePath: string;
  readonly authEnabled: boolean;
  readonly bolt: { readonly port: number; readonly encrypted: boolean } | null;
  readonly defaultDatabase: string;
}

/** The logged-in principal (a placeholder admin when authentication is off). */
export interface Principal {
  readonly username: string | null;
  readonly roles: readonly string[];
  readonly admin: boolean;
  /** The JWT of `/auth/token`; null when authentication is off. */
  readonly token: string | null;
}

/** An error with a Neo4j status code, from the server or the driver. */
export class ServerError extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly status = 0,
  ) {
    super(message);
  }
}

const TOKEN_KEY = 'graphdb.browser.token';

/** Base path of the API, derived from where the page is served (`<base>/browser/`). */
export function apiBase(): string {
  return location.pathname.replace(/\/browser\/?.*$/, '');
}

async function errorOf(response: Response): Promise<ServerError> {
  const text = await response.text();
  try {
    const body = JSON.parse(text) as { errors?: { code?: string; message?: string }[] };
    const first = body.errors?.[0];
    if (first) return new ServerError(first.code ?? `HTTP ${response.status}`, first.message ?? text, response.status);
  } catch {
    // not JSON: fall through to the raw text
  }
  return new ServerError(`HTTP ${response.status}`, text || response.statusText, response.status);
}

/** The HTTP client of one principal. */
export class Api {
  constructor(private token: string | null) {}

  /** Calls a JSON route; resolves to the parsed body, rejects with a ServerError. */
  async json<T>(path: string, init: { method?: string; body?: unknown } = {}): Promise<T> {
    const headers: Record<string, string> = { accept: 'application/json', 'x-requested-with': 'XMLHttpRequest' };
    if (this.token !== null) headers.authorization = `Bearer ${this.token}`;
    if (init.body !== undefined) headers['content-type'] = 'application/json';
    const response = await fetch(`${apiBase()}${path}`, {
      method: init.method ?? (init.body === undefined ? 'GET' : 'POST'),
      headers,
      body: init.body === undefined ? undefined : JSON.stringify(init.body),
      credentials: 'same-origin',
    });
    if (!response.ok) throw await errorOf(response);
    return (await response.json()) as T;
  }

  /** A text route (`/metrics`). */
  async text(path: string): Promise<string> {
    const headers: Record<string, string> = { 'x-requested-with': 'XMLHttpRequest' };
    if (this.token !== null) headers.authorization = `Bearer ${this.token}`;
    const response = await fetch(`${apiBase()}${path}`, { headers, credentials: 'same-origin' });
    if (!response.ok) throw await errorOf(response);
    return response.text();
  }
}

/** Reads `/browser/config.json`. */
export async function serverInfo(): Promise<ServerInfo> {
  const response = await fetch(`${apiBase()}/browser/config.json`, { headers: { accept: 'application/json' } });
  if (!response.ok) throw await errorOf(response);
  return (await response.json()) as ServerInfo;
}

interface Me {
  readonly username: string | null;
  readonly roles: readonly string[];
  readonly admin: boolean;
}

/** The principal of a token (`/auth/me`); rejects when the token is no longer valid. */
export async function principalOf(token: string): Promise<Principal> {
  const me = await new Api(token).json<Me>('/auth/me');
  return { username: me.username, roles: me.roles, admin: me.admin, token };
}

/** Exchanges a password for a token (`/auth/token`) and remembers it for this tab. */
export async function login(username: string, password: string): Promise<Principal> {
  const issued = await new Api(null).json<{ access_token: string }>('/auth/token', { body: { username, password } });
  sessionStorage.setItem(TOKEN_KEY, issued.access_token);
  return principalOf(issued.access_token);
}

/** The principal of the token remembered by this tab, or null. */
export async function resumeSession(): Promise<Principal | null> {
  const token = sessionStorage.getItem(TOKEN_KEY);
  if (token === null) return null;
  try {
    return await principalOf(token);
  } catch {
    sessionStorage.removeItem(TOKEN_KEY);
    return null;
  }
}

/** Revokes the token on the server (`/auth/logout`) and forgets it. */
export async function logout(principal: Principal): Promise<void> {
  sessionStorage.removeItem(TOKEN_KEY);
  if (principal.token !== null) await new Api(principal.token).json('/auth/logout', { method: 'POST', body: {} });
}
