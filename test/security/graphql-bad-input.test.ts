/**
 * Bad GraphQL requests answer a client-error class (issue #24): a bad JSON body, a batch array,
 * wrongly typed `query`, `variables` or `operationName`, bad GET parameters, a wrong media type.
 * None may answer `Neo.DatabaseError.General.UnknownError`.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { startTestServer, type TestServer } from '../http/helpers.js';

let server: TestServer;
before(async () => {
  server = await startTestServer();
});
after(async () => {
  await server.stop();
});

async function codes(init: RequestInit, query = ''): Promise<{ status: number; codes: string[] }> {
  const response = await fetch(`${server.url}/graphql${query}`, init);
  const body = (await response.json()) as { errors?: { extensions?: { code?: string } }[] };
  return { status: response.status, codes: (body.errors ?? []).map((e) => e.extensions?.code ?? '') };
}

const post = (body: string, type = 'application/json'): RequestInit => ({ method: 'POST', headers: { 'content-type': type }, body });

test('malformed POST bodies answer 4xx with Neo.ClientError.Request.* codes', async () => {
  const bodies = [
    'not json',
    '{"query": "{ __typename }"',
    '[{"query":"{ __typename }"}]',
    '{"query":"{ __typename }","variables":"x"}',
    '{"query":"{ __typename }","variables":[1]}',
    '{"query":5}',
    '{"query":null}',
    '{"query":"{ __typename }","operationName":5}',
    '{"query":"{ __typename }","extensions":7}',
    '{}',
    'null',
    '"text"',
    '12',
  ];
  for (const body of bodies) {
    const answer = await codes(post(body));
    assert.ok(answer.status >= 400 && answer.status < 500, `${body}: status ${answer.status}`);
    assert.ok(answer.codes.length > 0, body);
    for (const code of answer.codes) assert.match(code, /^Neo\.ClientError\.Request\./, body);
  }
});

test('a wrong media type and bad GET parameters are client errors too', async () => {
  const media = await codes(post('{"query":"{ __typename }"}', 'text/plain'));
  assert.equal(media.status, 415);
  assert.deepEqual(media.codes, ['Neo.ClientError.Request.Invalid']);
  const get = await codes({ method: 'GET' }, '?query=%7B__typename%7D&variables=%7Bbad');
  assert.ok(get.status >= 400 && get.status < 500);
  for (const code of get.codes) assert.match(code, /^Neo\.ClientError\./);
});

test('a well-formed request still works', async () => {
  const response = await fetch(`${server.url}/graphql`, post('{"query":"{ __typename }","variables":null,"operationName":null}'));
  assert.equal(response.status, 200);
  assert.deepEqual(await response.json(), { data: { __typename: 'Query' } });
});
