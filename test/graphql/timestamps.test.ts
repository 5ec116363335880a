/**
 * `createdAt` / `updatedAt` of nodes and relationships (SPEC "Node", "Relationship"): maintained
 * by the service on every write, whatever surface wrote (GraphQL mutations, Cypher over HTTP),
 * and kept when the MVCC lifecycle prunes the creating version.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { request } from '../http/helpers.js';
import { gqlData, startGraphqlServer, type TestServer } from './helpers.js';

/** Waits (yielding) until the wall clock passed `ms`, so the next commit gets a later time. */
async function clockPast(ms: number): Promise<void> {
  while (Date.now() <= ms) await new Promise((resolve) => setImmediate(resolve));
}

const NODE = 'query($id: ID!) { node(id: $id) { createdAt updatedAt properties } }';
const REL = 'query($id: ID!) { relationship(id: $id) { createdAt updatedAt properties } }';

describe('createdAt / updatedAt', () => {
  let server: TestServer;
  before(async () => {
    server = await startGraphqlServer({ 'server.bolt_enabled': false, 'database.mvcc_retention_max_versions': 1 });
    await request(`${server.url}/admin/databases/graphdb/mvcc/pause`, { method: 'POST' });
  });
  after(() => server.stop());

  const cypher = async (statement: string, parameters: Record<string, unknown> = {}): Promise<void> => {
    const response = await request(`${server.url}/db/graphdb/tx/commit`, {
      method: 'POST',
      json: { statements: [{ statement, parameters }] },
    });
    assert.deepEqual(response.body.errors, []);
  };

  it('are the commit times of the creating and the latest write, through every write path, and survive pruning', async () => {
    const start = Date.now();
    const { createNode } = await gqlData(
      server.url,
      'mutation { createNode(input: {labels: ["T"], properties: {n: 1}}) { id createdAt updatedAt } }',
    );
    const { createNode: other } = await gqlData(server.url, 'mutation { createNode(input: {labels: ["T"], properties: {n: 2}}) { id } }');
    const { createRelationship: rel } = await gqlData(
      server.url,
      'mutation($a: ID!, $b: ID!) { createRelationship(input: {startNodeId: $a, endNodeId: $b, type: "R"}) { id createdAt updatedAt } }',
      { a: createNode.id, b: other.id },
    );
    const createdAt = Date.parse(createNode.createdAt);
    assert.ok(createdAt >= start && createdAt <= Date.now());
    assert.equal(createNode.updatedAt, createNode.createdAt);
    assert.equal(rel.updatedAt, rel.createdAt);
    assert.ok(Date.parse(rel.createdAt) >= createdAt);

    await clockPast(Date.parse(rel.createdAt));
    await gqlData(server.url, 'mutation($id: ID!) { updateNode(input: {id: $id, properties: {n: 10}}) { id } }', { id: createNode.id });
    const afterGraphql = (await gqlData(server.url, NODE, { id: createNode.id })).node;
    assert.equal(afterGraphql.createdAt, createNode.createdAt, 'an update keeps createdAt');
    assert.ok(Date.parse(afterGraphql.updatedAt) > createdAt, 'a GraphQL update moves updatedAt');

    await clockPast(Date.parse(afterGraphql.updatedAt));
    const beforeCypher = Date.now();
    await cypher('MATCH (t:T {n: 10}) SET t.n = 11');
    await cypher('MATCH ()-[r:R]->() SET r.w = 1');
    await cypher('MATCH ()-[r:R]->() SET r.w = 2');
    const afterCypher = (await gqlData(server.url, NODE, { id: createNode.id })).node;
    assert.equal(afterCypher.createdAt, createNode.createdAt);
    assert.ok(Date.parse(afterCypher.updatedAt) >= beforeCypher, 'a Cypher update moves updatedAt too');
    const relAfter = (await gqlData(server.url, REL, { id: rel.id })).relationship;
    assert.equal(relAfter.createdAt, rel.createdAt);
    assert.ok(Date.parse(relAfter.updatedAt) >= beforeCypher);
    const untouched = (await gqlData(server.url, NODE, { id: other.id })).node;
    assert.equal(untouched.updatedAt, untouched.createdAt, 'a node the writes did not change keeps its updatedAt');

    const pruned = await request(`${server.url}/admin/databases/graphdb/mvcc/prune`, { method: 'POST' });
    assert.equal(pruned.status, 200);
    assert.ok(pruned.body.run.pruned_versions >= 2, JSON.stringify(pruned.body.run));
    const afterPrune = (await gqlData(server.url, NODE, { id: createNode.id })).node;
    assert.deepEqual(afterPrune, afterCypher, 'pruning the creating versions (node and relationship) keeps createdAt');
    assert.deepEqual((await gqlData(server.url, REL, { id: rel.id })).relationship, relAfter);
  });
});
