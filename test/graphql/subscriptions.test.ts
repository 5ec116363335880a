/**
 * Subscriptions end to end: a real graphql-ws client over WebSocket and an SSE client over
 * `POST /graphql`, fed by writes made over Bolt with neo4j-driver. Matching subscriptions fire,
 * others do not; rolled-back writes fire nothing; a burst beyond the 10-event buffer is dropped
 * while the subscription stays alive.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createClient, type Client } from 'graphql-ws';
import neo4j, { type Driver } from 'neo4j-driver';
import WebSocket from 'ws';
import { graphqlSubscriptionCount } from '../../src/server/graphql/index.js';
import { startGraphqlServer, type TestServer } from './helpers.js';

async function waitUntil(condition: () => boolean, what: string, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** One subscription's received payloads. */
interface Collected {
  readonly events: any[];
  readonly errors: unknown[];
  stop(): void;
}

function subscribe(client: Client, query: string, field: string): Collected {
  const events: any[] = [];
  const errors: unknown[] = [];
  const stop = client.subscribe(
    { query },
    {
      next: (result) => {
        if (result.errors) errors.push(result.errors);
        else events.push((result.data as Record<string, unknown>)[field]);
      },
      error: (error) => errors.push(error),
      complete: () => {},
    },
  );
  return { events, errors, stop };
}

/** Reads `event: next` frames of an SSE response into `events`. */
async function readSse(response: Response, field: string, events: any[]): Promise<void> {
  const decoder = new TextDecoder();
  let buffer = '';
  for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
    buffer += decoder.decode(chunk, { stream: true });
    let end: number;
    while ((end = buffer.indexOf('\n\n')) >= 0) {
      const frame = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      const lines = frame.split('\n');
      if (!lines.includes('event: next')) continue;
      const data = lines
        .filter((line) => line.startsWith('data:'))
        .map((line) => line.slice(5).trim())
        .join('');
      events.push(JSON.parse(data).data[field]);
    }
  }
}

describe('GraphQL subscriptions', () => {
  let server: TestServer;
  let driver: Driver;
  let client: Client;

  const bolt = async (statement: string, parameters: Record<string, unknown> = {}) => {
    const session = driver.session();
    try {
      return await session.run(statement, parameters);
    } finally {
      await session.close();
    }
  };
  const rolledBack = async (statement: string) => {
    const session = driver.session();
    const tx = session.beginTransaction();
    await tx.run(statement);
    await tx.rollback();
    await session.close();
  };
  const subscriptions = () => graphqlSubscriptionCount(server.server.engine.graphdb);

  before(async () => {
    server = await startGraphqlServer();
    driver = neo4j.driver(server.server.bolt!.url, neo4j.auth.basic('neo4j', 'unused'));
    client = createClient({ url: `${server.url.replace(/^http/, 'ws')}/graphql`, webSocketImpl: WebSocket, retryAttempts: 0 });
  });

  after(async () => {
    await client.dispose();
    await driver.close();
    await server.stop();
  });

  it('graphql-ws: a Bolt write fires the matching subscriptions only; rollback fires none', async () => {
    const target = await bolt('CREATE (n:Target {v: 0}) RETURN elementId(n) AS id');
    const targetId = target.records[0].get('id') as string;
    await bolt('CREATE (:Other {v: 0})');
    const base = subscriptions();
    const people = subscribe(client, 'subscription { nodeCreated(labels: ["Person", "Robot"]) { id labels properties } }', 'nodeCreated');
    const animals = subscribe(client, 'subscription { nodeCreated(labels: ["Animal"]) { labels } }', 'nodeCreated');
    const knows = subscribe(
      client,
      'subscription { relationshipCreated(types: ["KNOWS"]) { id type startNode { labels } endNode { labels } properties } }',
      'relationshipCreated',
    );
    const targetUpdates = subscribe(client, `subscription { nodeUpdated(id: "${targetId}") { id properties } }`, 'nodeUpdated');
    const deletedPeople = subscribe(client, 'subscription { nodeDeleted(labels: ["Person"]) }', 'nodeDeleted');
    const everyCreation = subscribe(client, 'subscription { nodeCreated { labels } }', 'nodeCreated');
    await waitUntil(() => subscriptions() === base + 6, 'six open subscriptions');

    const p1 = await bolt("CREATE (n:Person {name: 'p1'}) RETURN elementId(n) AS id");
    await bolt("CREATE (:Robot {name: 'r1'})");
    await bolt('CREATE (:Plant)');
    await rolledBack("CREATE (:Person {name: 'rolled back'})");
    await rolledBack('CREATE (:Animal)-[:KNOWS]->(:Animal)');
    await bolt('MATCH (n:Target) SET n.v = 1');
    await bolt('MATCH (n:Other) SET n.v = 1');
    await bolt("CREATE (:Animal {name: 'a'})-[:KNOWS {since: 2020}]->(:Animal {name: 'b'})");
    await bolt('CREATE (:Animal)-[:LIKES]->(:Animal)');
    await bolt("MATCH (n:Person {name: 'p1'}) DELETE n");
    await bolt("CREATE (:Person {name: 'end'})");

    await waitUntil(() => people.events.length >= 3, 'three Person/Robot creations');
    await waitUntil(() => animals.events.length >= 4 && knows.events.length >= 1 && targetUpdates.events.length >= 1, 'other events');
    // Each subscription receives its events in commit order and 'end' is the last write: once `people` and
    // `everyCreation` hold it, a rolled-back or wrongly filtered creation would already be among their events.
    await waitUntil(() => deletedPeople.events.length >= 1 && everyCreation.events.length >= 8, 'deletion and all creations');

    assert.deepEqual(
      people.events.map((event) => event.properties.name),
      ['p1', 'r1', 'end'],
    );
    assert.deepEqual(
      people.events.map((event) => event.labels),
      [['Person'], ['Robot'], ['Person']],
    );
    assert.equal(people.events[0].id, p1.records[0].get('id'));
    assert.equal(animals.events.length, 4);
    assert.equal(knows.events.length, 1);
    assert.equal(knows.events[0].type, 'KNOWS');
    assert.deepEqual(knows.events[0].startNode.labels, ['Animal']);
    assert.deepEqual(knows.events[0].properties, { since: 2020 });
    assert.deepEqual(targetUpdates.events, [{ id: targetId, properties: { v: 1 } }]);
    assert.deepEqual(deletedPeople.events, [p1.records[0].get('id')]);
    assert.equal(everyCreation.events.length, 8, 'Person, Robot, Plant, 4 Animals, Person: nothing rolled back');
    for (const collected of [people, animals, knows, targetUpdates, deletedPeople, everyCreation]) {
      assert.deepEqual(collected.errors, []);
      collected.stop();
    }
    await waitUntil(() => subscriptions() === base, 'subscriptions closed');
  });

  it('graphql-ws: a burst beyond the 10-event buffer is dropped and the subscription continues', async () => {
    const base = subscriptions();
    const burst = subscribe(client, 'subscription { nodeCreated(labels: ["Burst"]) { properties } }', 'nodeCreated');
    await waitUntil(() => subscriptions() === base + 1, 'the subscription');
    await bolt('UNWIND range(1, 50) AS i CREATE (:Burst {i: i})');
    await waitUntil(() => burst.events.length >= 10, 'the buffered events');
    // A later write marks the end of the burst: its event arrives after every event kept from the burst.
    await bolt('CREATE (:Burst {i: 100})');
    await waitUntil(() => burst.events.at(-1)?.properties.i === 100, 'the event after the overflow');
    const buffered = burst.events.slice(0, -1).map((event) => event.properties.i);
    assert.ok(buffered.length === 10 || buffered.length === 11, `10 buffered (+1 handed to a waiting reader), got ${buffered.length}`);
    assert.deepEqual(
      buffered,
      Array.from({ length: buffered.length }, (_, index) => index + 1),
    );
    assert.equal(burst.events.at(-1).properties.i, 100);
    assert.deepEqual(burst.errors, []);
    burst.stop();
    await waitUntil(() => subscriptions() === base, 'the subscription to close');
  });

  it('SSE: POST /graphql with Accept text/event-stream streams matching events only', async () => {
    const base = subscriptions();
    const controller = new AbortController();
    const response = await fetch(`${server.url}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'text/event-stream' },
      body: JSON.stringify({ query: 'subscription { nodeCreated(labels: ["Sse"]) { labels properties } }' }),
      signal: controller.signal,
    });
    assert.equal(response.status, 200);
    assert.match(response.headers.get('content-type') ?? '', /text\/event-stream/);
    const events: any[] = [];
    const reading = readSse(response, 'nodeCreated', events).catch(() => {});
    await waitUntil(() => subscriptions() === base + 1, 'the SSE subscription');
    await rolledBack('CREATE (:Sse {n: 0})');
    await bolt('CREATE (:NotSse {n: 1})');
    await bolt('CREATE (:Sse {n: 2})');
    await waitUntil(() => events.length >= 1, 'an SSE event');
    // Another write path: the HTTP transactional endpoint (its commit publishes on the same bus).
    const http = await fetch(`${server.url}/db/graphdb/tx/commit`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ statements: [{ statement: 'CREATE (:Sse {n: 3})' }] }),
    });
    assert.ok(http.status === 200 || http.status === 202, `HTTP write answered ${http.status}`);
    await waitUntil(() => events.length >= 2, 'the event of the HTTP write');
    // A last matching write marks the end: every earlier event, expected or not, arrives before it.
    await bolt('CREATE (:Sse {n: 4})');
    await waitUntil(() => events.at(-1)?.properties.n === 4, 'the closing event');
    assert.deepEqual(events, [
      { labels: ['Sse'], properties: { n: 2 } },
      { labels: ['Sse'], properties: { n: 3 } },
      { labels: ['Sse'], properties: { n: 4 } },
    ]);
    controller.abort();
    await reading;
    await waitUntil(() => subscriptions() === base, 'the SSE subscription to end');
  });

  it('SSE: a query over the event stream answers once and completes', async () => {
    const response = await fetch(`${server.url}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'text/event-stream' },
      body: JSON.stringify({ query: '{ allNodes(labels: ["Target"]) { labels } }' }),
    });
    const text = await response.text();
    assert.match(text, /event: next\ndata: \{"data":\{"allNodes":\[\{"labels":\["Target"\]\}\]\}\}/);
    assert.match(text, /event: complete/);
  });
});
