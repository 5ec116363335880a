/**
 * GraphQL under authentication: the same credentials as REST on HTTP and SSE, `Authorization` in
 * the graphql-ws connection params, the public playground, and permission per operation
 * (a viewer may query and subscribe but not mutate).
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createClient } from 'graphql-ws';
import WebSocket from 'ws';
import { gql, gqlData, startGraphqlServer, type TestServer } from './helpers.js';

const basic = (user: string, password: string) => ({ authorization: `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}` });
const ROOT = basic('root', 'rootpw');
const VIEWER = basic('vi', 'vi-pw');

describe('GraphQL authentication and permissions', () => {
  let server: TestServer;

  before(async () => {
    server = await startGraphqlServer({ 'auth.enabled': true, 'server.bolt_enabled': false }, { GRAPHDB_AUTH: 'root:rootpw' });
    const response = await fetch(`${server.url}/admin/users`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...ROOT },
      body: JSON.stringify({ username: 'vi', password: 'vi-pw', roles: ['viewer'] }),
    });
    assert.equal(response.status, 201);
  });
  after(() => server.stop());

  it('HTTP: 401 without credentials, data with them; the playground stays public', async () => {
    const anonymous = await fetch(`${server.url}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query: '{ stats { nodeCount } }' }),
    });
    assert.equal(anonymous.status, 401);
    const wrong = await gql(server.url, '{ stats { nodeCount } }', undefined, basic('root', 'nope'));
    assert.equal(wrong.status, 401);
    assert.equal((await gqlData(server.url, '{ stats { nodeCount } }', undefined, ROOT)).stats.nodeCount, 0);
    assert.equal((await fetch(`${server.url}/graphql/playground`)).status, 200);
  });

  it('a viewer may query but not mutate (Forbidden in extensions.code)', async () => {
    await gqlData(server.url, 'mutation { createNode(input: {labels: ["Doc"], properties: {n: 1}}) { id } }', undefined, ROOT);
    const read = await gqlData(server.url, '{ allNodes { labels } }', undefined, VIEWER);
    assert.deepEqual(read.allNodes, [{ labels: ['Doc'] }]);
    const write = await gql(server.url, 'mutation { createNode(input: {labels: ["Doc"]}) { id } }', undefined, VIEWER);
    assert.equal(write.body.errors?.[0]?.extensions?.code, 'Neo.ClientError.Security.Forbidden');
    const cypherWrite = await gql(server.url, '{ cypher(input: {statement: "CREATE (:Doc)"}) { rowCount } }', undefined, VIEWER);
    assert.equal(cypherWrite.body.errors?.[0]?.extensions?.code, 'Neo.ClientError.Security.Forbidden');
    const remove = await gql(server.url, 'mutation { deleteNode(id: "4:x:0") }', undefined, VIEWER);
    assert.equal(remove.body.errors?.[0]?.extensions?.code, 'Neo.ClientError.Security.Forbidden');
    assert.equal((await gqlData(server.url, '{ stats { nodeCount } }', undefined, ROOT)).stats.nodeCount, 1);
  });

  it('graphql-ws: refused without connection params, subscribed with Authorization in them', async () => {
    const url = `${server.url.replace(/^http/, 'ws')}/graphql`;
    const refused = createClient({ url, webSocketImpl: WebSocket, retryAttempts: 0, lazy: false });
    const closeCode = await new Promise<number>((resolve) => refused.on('closed', (event) => resolve((event as { code: number }).code)));
    assert.equal(closeCode, 4403);
    await refused.dispose();

    const client = createClient({
      url,
      webSocketImpl: WebSocket,
      retryAttempts: 0,
      connectionParams: { Authorization: VIEWER.authorization },
    });
    const received: unknown[] = [];
    const done = new Promise<void>((resolve, reject) => {
      const stop = client.subscribe(
        { query: 'subscription { nodeCreated(labels: ["Ws"]) { properties } }' },
        {
          next: (result) => {
            received.push(result.data);
            stop();
            resolve();
          },
          error: reject,
          complete: () => {},
        },
      );
    });
    // Writes by another principal reach the viewer's subscription once it is open.
    const deadline = Date.now() + 10_000;
    while (received.length === 0 && Date.now() < deadline) {
      await gqlData(server.url, 'mutation { createNode(input: {labels: ["Ws"], properties: {by: "root"}}) { id } }', undefined, ROOT);
      await Promise.race([done, new Promise((resolve) => setTimeout(resolve, 100))]);
    }
    await done;
    assert.deepEqual(received[0], { nodeCreated: { properties: { by: 'root' } } });
    await client.dispose();
  });

  it('SSE: needs the same headers as any /graphql request', async () => {
    const request = (headers: Record<string, string>) =>
      fetch(`${server.url}/graphql`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'text/event-stream', ...headers },
        body: JSON.stringify({ query: '{ stats { nodeCount } }' }),
      });
    assert.equal((await request({})).status, 401);
    const allowed = await request(VIEWER);
    assert.equal(allowed.status, 200);
    assert.match(await allowed.text(), /event: next\ndata: \{"data":\{"stats":\{"nodeCount":\d+\}\}\}/);
  });
});
