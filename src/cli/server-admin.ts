/**
 * Requests to the admin API of the `graphdb serve` that holds a data directory (found through the
 * record it keeps there, `graphdb-server.json`): what commands use instead of working on the
 * files behind a running server's back.
 */
import { Errors } from '@oclif/core';
import { promptPassword } from './connection.js';
import type { ServerRecord } from './data-dir.js';

/** Credentials for the admin API (basic auth); a missing password is asked for on a terminal when the server wants one. */
export interface AdminCredentials {
  readonly username: string;
  readonly password?: string;
}

/** An admin API failure, with the server's status code and message (exit status 1). */
export class AdminRequestError extends Errors.CLIError {
  constructor(message: string) {
    super(message, { exit: 1 });
  }
}

/**
 * POSTs `body` to `path` on the server's HTTP listener and returns the JSON answer.
 * @throws AdminRequestError when the server has no HTTP listener, refuses the credentials or fails the request
 */
export async function postAdmin<T>(server: ServerRecord, path: string, body: unknown, credentials: AdminCredentials): Promise<T> {
  if (server.http === null) {
    throw new AdminRequestError(
      `The graphdb server (pid ${server.pid}) holding this data directory has no HTTP listener for its admin API.`,
    );
  }
  return postAdminAt<T>(server.http, path, body, credentials);
}

/**
 * POSTs `body` to `path` under the HTTP base URL `base` (e.g. `http://127.0.0.1:7474`) and returns
 * the JSON answer.
 * @throws AdminRequestError when the server refuses the credentials or fails the request
 */
export async function postAdminAt<T>(base: string, path: string, body: unknown, credentials: AdminCredentials): Promise<T> {
  const url = `${base.replace(/\/+$/, '')}${path}`;
  const send = (password: string | undefined) =>
    fetchOrExplain(url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        ...(password === undefined
          ? {}
          : { authorization: `Basic ${Buffer.from(`${credentials.username}:${password}`).toString('base64')}` }),
      },
      body: JSON.stringify(body),
    });
  let response = await send(credentials.password);
  if (response.status === 401 && credentials.password === undefined && process.stdin.isTTY === true) {
    response = await send(await promptPassword(credentials.username));
  }
  const text = await response.text();
  let answer: unknown;
  try {
    answer = JSON.parse(text);
  } catch {
    answer = null;
  }
  if (!response.ok) {
    const errors = (answer as { errors?: { code?: string; message?: string }[] } | null)?.errors;
    const reason = errors?.[0] !== undefined ? `${errors[0].code ?? ''}: ${errors[0].message ?? ''}` : text.slice(0, 300);
    const hint = response.status === 401 ? ' Give an admin user with -u/-p (or NEO4J_USERNAME/NEO4J_PASSWORD).' : '';
    throw new AdminRequestError(`POST ${url} answered ${response.status} ${reason.replace(/\.$/, '')}.${hint}`);
  }
  return answer as T;
}

/** fetch, with a network failure (nothing listening, bad URL) turned into an AdminRequestError naming the URL. */
async function fetchOrExplain(url: string, init: RequestInit): Promise<Response> {
  try {
    return await fetch(url, init);
  } catch (error) {
    const cause = (error as { cause?: { message?: string } }).cause?.message ?? (error as Error).message;
    throw new AdminRequestError(`Could not reach the graphdb server at ${url}: ${cause}.`);
  }
}
