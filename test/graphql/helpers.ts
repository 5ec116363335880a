/** Helpers of the GraphQL tests: a real server (HTTP and Bolt on port 0) and a `gql` fetch wrapper. */
import { startTestServer, type TestServer } from '../http/helpers.js';

export type { TestServer };

/** Starts a server with Bolt on an ephemeral port; `flags` are dotted config paths. */
export function startGraphqlServer(flags: Record<string, unknown> = {}, env: Record<string, string> = {}): Promise<TestServer> {
  return startTestServer({ 'server.bolt_enabled': true, 'server.bolt_port': 0, 'server.bolt_address': '127.0.0.1', ...flags }, env);
}

/** A GraphQL response. */
export interface GqlResponse {
  readonly status: number;
  readonly body: { data?: any; errors?: { message: string; extensions?: { code?: string }; path?: unknown[] }[] };
}

/** POSTs one operation to `<url>/graphql`. */
export async function gql(
  url: string,
  query: string,
  variables?: Record<string, unknown>,
  headers: Record<string, string> = {},
): Promise<GqlResponse> {
  const response = await fetch(`${url}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json', ...headers },
    body: JSON.stringify({ query, variables }),
  });
  return { status: response.status, body: (await response.json()) as GqlResponse['body'] };
}

/** The data of a successful operation (fails the test with the errors otherwise). */
export async function gqlData(
  url: string,
  query: string,
  variables?: Record<string, unknown>,
  headers?: Record<string, string>,
): Promise<any> {
  const { status, body } = await gql(url, query, variables, headers);
  if (status !== 200 || body.errors !== undefined) throw new Error(`GraphQL failed (${status}): ${JSON.stringify(body.errors)}`);
  return body.data;
}
