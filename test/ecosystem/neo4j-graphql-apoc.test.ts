/**
 * @neo4j/graphql 7, unchanged, against `graphdb serve` (auth on, Bolt on an ephemeral port, the
 * `neo4j` home alias) on the APOC it needs: checkNeo4jCompat() (apoc.util.validatePredicate,
 * apoc.date.convertFormat), DateTime fields (apoc.date.convertFormat), numeric `add` and list
 * `push` updates, and @authorization validate rules (apoc.util.validate/validatePredicate)
 * answering Forbidden.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Neo4jGraphQL } from '@neo4j/graphql';
import { execute, parse, type ExecutionResult, type GraphQLSchema } from 'graphql';
import neo4j, { type Driver } from 'neo4j-driver';
import { startTestServer, type TestServer } from '../http/helpers.js';

const typeDefs = /* GraphQL */ `
  type Post @node @authorization(validate: [{ operations: [READ, UPDATE, DELETE], where: { node: { authorId: { eq: "$jwt.sub" } } } }]) {
    title: String!
    authorId: String!
    views: Int!
    tags: [String!]!
    createdAt: DateTime!
  }
`;

describe('@neo4j/graphql 7 on APOC against graphdb serve', () => {
  let t: TestServer;
  let driver: Driver;
  let library: Neo4jGraphQL;
  let schema: GraphQLSchema;

  const run = async (source: string, sub: string): Promise<ExecutionResult> =>
    execute({ schema, document: parse(source), variableValues: {}, contextValue: { jwt: { sub } } });

  before(async () => {
    t = await startTestServer(
      {
        'auth.enabled': true,
        'server.bolt_enabled': true,
        'server.bolt_port': 0,
        'server.bolt_address': '127.0.0.1',
        'async_writes.enabled': false,
      },
      { GRAPHDB_AUTH: 'root:rootpw' },
    );
    driver = neo4j.driver(`bolt://127.0.0.1:${t.server.bolt!.port}`, neo4j.auth.basic('root', 'rootpw'));
    library = new Neo4jGraphQL({ typeDefs, driver, features: { authorization: { key: 'not-used-jwt-is-in-context' } } });
    schema = await library.getSchema();
  });
  after(async () => {
    await driver.close();
    await t.stop();
  });

  it('checkNeo4jCompat() finds the version and the APOC functions it needs', async () => {
    await library.checkNeo4jCompat();
  });

  it('DateTime fields are written and read back (apoc.date.convertFormat)', async () => {
    const created = await run(
      'mutation { createPosts(input: [{ title: "A", authorId: "alice", views: 1, tags: ["graph"], createdAt: "2024-05-06T07:08:09.123Z" }]) { posts { title createdAt } } }',
      'alice',
    );
    assert.deepEqual(created.errors, undefined);
    const read = await run('query { posts { title createdAt views tags } }', 'alice');
    assert.deepEqual(read.errors, undefined);
    assert.deepEqual(JSON.parse(JSON.stringify(read.data)), {
      posts: [{ title: 'A', createdAt: '2024-05-06T07:08:09.123Z', views: 1, tags: ['graph'] }],
    });
  });

  it('numeric add and list push update in place', async () => {
    const updated = await run(
      'mutation { updatePosts(where: { title: { eq: "A" } }, update: { views: { add: 2 }, tags: { push: ["db"] } }) { posts { views tags } } }',
      'alice',
    );
    assert.deepEqual(updated.errors, undefined);
    assert.deepEqual(JSON.parse(JSON.stringify(updated.data)), { updatePosts: { posts: [{ views: 3, tags: ['graph', 'db'] }] } });
  });

  it('an @authorization validate rule answers Forbidden to another user and changes nothing', async () => {
    const read = await run('query { posts { title } }', 'bob');
    assert.equal(read.errors?.[0]?.message, 'Forbidden');
    const update = await run('mutation { updatePosts(update: { views: { add: 100 } }) { posts { views } } }', 'bob');
    assert.equal(update.errors?.[0]?.message, 'Forbidden');
    const { records } = await driver.executeQuery('MATCH (p:Post) RETURN p.views AS v', {}, { database: 'neo4j' });
    assert.deepEqual(
      records.map((r) => Number(r.get('v'))),
      [3],
    );
  });
});
