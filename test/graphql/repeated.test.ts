/**
 * Repeated operations: mercurius compiles an operation with graphql-jit once it has been seen, so
 * the second and later executions take another path than the first. Both must answer alike,
 * errors included; `stats` computes only the fields an operation selects.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { gql, gqlData, startGraphqlServer, type TestServer } from './helpers.js';

/** Runs an operation `times` times and returns every response body. */
async function repeat(url: string, query: string, variables?: Record<string, unknown>, times = 4): Promise<unknown[]> {
  const bodies: unknown[] = [];
  for (let i = 0; i < times; i++) bodies.push((await gql(url, query, variables)).body);
  return bodies;
}

describe('GraphQL operations executed repeatedly', () => {
  let server: TestServer;
  let url: string;

  before(async () => {
    server = await startGraphqlServer({ 'server.bolt_enabled': false });
    url = server.url;
    const create = async (labels: string[], properties: Record<string, unknown>): Promise<string> =>
      (await gqlData(url, 'mutation($input: CreateNodeInput!) { createNode(input: $input) { id } }', { input: { labels, properties } }))
        .createNode.id;
    const ann = await create(['Person'], { name: 'Ann', createdAt: '2001-02-03T04:05:06Z' });
    const bob = await create(['Person', 'Author'], { name: 'Bob', tags: ['x', 'y'] });
    await gqlData(url, 'mutation($input: CreateRelationshipInput!) { createRelationship(input: $input) { id } }', {
      input: { startNodeId: ann, endNodeId: bob, type: 'KNOWS', properties: { since: 2020 } },
    });
  });
  after(() => server.stop());

  it('a query with entity fields, JSON and DateTime scalars answers the same every time', async () => {
    const query = '{ allNodes(labels: ["Person"]) { id labels properties createdAt outgoing { type properties endNode { labels } } } }';
    const [first, ...rest] = await repeat(url, query);
    const people = (first as { data: { allNodes: { properties: { name: string } }[] } }).data.allNodes;
    assert.deepEqual(people.map((n) => n.properties.name).sort(), ['Ann', 'Bob']);
    for (const body of rest) assert.deepEqual(body, first);
  });

  it('an operation with variables answers per its variables after compilation', async () => {
    const query = 'query($labels: [String!]) { allNodes(labels: $labels) { properties } }';
    for (let i = 0; i < 3; i++) {
      const authors = await gqlData(url, query, { labels: ['Author'] });
      assert.deepEqual(
        authors.allNodes.map((n: { properties: { name: string } }) => n.properties.name),
        ['Bob'],
      );
      const none = await gqlData(url, query, { labels: ['Nobody'] });
      assert.deepEqual(none.allNodes, []);
    }
  });

  it('resolver errors keep their message, path and Neo4j code after compilation', async () => {
    const [first, ...rest] = await repeat(url, '{ cypher(input: {statement: "RETURN 1/0 AS x"}) { rowCount } }');
    const errors = (first as { errors?: { message: string; extensions?: { code?: string } }[] }).errors;
    assert.equal(errors?.[0]?.extensions?.code, 'Neo.ClientError.Statement.ArithmeticError');
    for (const body of rest) assert.deepEqual(body, first);
    const [badFirst, ...badRest] = await repeat(url, '{ allNodes(offset: -1) { id } }');
    assert.equal(
      (badFirst as { errors?: { extensions?: { code?: string } }[] }).errors?.[0]?.extensions?.code,
      'Neo.ClientError.Statement.ArgumentError',
    );
    for (const body of badRest) assert.deepEqual(body, badFirst);
  });

  it('stats answers each selection on its own and follows writes', async () => {
    for (let i = 0; i < 3; i++) {
      assert.deepEqual((await gqlData(url, '{ stats { nodeCount relationshipCount } }')).stats, { nodeCount: 2, relationshipCount: 1 });
      const { stats } = await gqlData(url, '{ stats { labels { label count } } }');
      assert.deepEqual(Object.keys(stats), ['labels']);
      assert.deepEqual(
        [...stats.labels].sort((a: { label: string }, b: { label: string }) => a.label.localeCompare(b.label)),
        [
          { label: 'Author', count: 1 },
          { label: 'Person', count: 2 },
        ],
      );
    }
    await gqlData(url, 'mutation { createNode(input: {labels: ["Person"], properties: {name: "Cy"}}) { id } }');
    assert.deepEqual((await gqlData(url, '{ stats { nodeCount relationshipCount } }')).stats, { nodeCount: 3, relationshipCount: 1 });
  });
});
