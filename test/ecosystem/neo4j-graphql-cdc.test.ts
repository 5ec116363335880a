/**
 * @neo4j/graphql 7, unchanged, against `graphdb serve` (auth on, Bolt on an ephemeral port):
 * queries and mutations without a sessionConfig (the driver's default database), and a
 * subscription fed by Neo4jGraphQLSubscriptionsCDCEngine, which polls db.cdc.current() and
 * db.cdc.query() once CDC is enabled the Neo4j way (ALTER DATABASE ... SET OPTION txLogEnrichment).
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Neo4jGraphQL, Neo4jGraphQLSubscriptionsCDCEngine } from '@neo4j/graphql';
import { execute, parse, subscribe, type ExecutionResult, type GraphQLSchema } from 'graphql';
import neo4j, { type Driver } from 'neo4j-driver';
import { startTestServer, type TestServer } from '../http/helpers.js';

const typeDefs = /* GraphQL */ `
  type Movie @node @subscription {
    title: String!
    released: Int
  }
`;

describe('@neo4j/graphql 7 against graphdb serve', () => {
  let t: TestServer;
  let driver: Driver;
  let engine: Neo4jGraphQLSubscriptionsCDCEngine;
  let schema: GraphQLSchema;

  const run = async (source: string, variableValues: Record<string, unknown> = {}): Promise<ExecutionResult> =>
    execute({ schema, document: parse(source), variableValues, contextValue: {} });

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
    await driver.executeQuery("ALTER DATABASE neo4j SET OPTION txLogEnrichment 'FULL'", {}, { database: 'system' });
    engine = new Neo4jGraphQLSubscriptionsCDCEngine({ driver, pollTime: 50 });
    schema = await new Neo4jGraphQL({ typeDefs, driver, features: { subscriptions: engine } }).getSchema();
  });
  after(async () => {
    engine.close();
    await driver.close();
    await t.stop();
  });

  it('queries and mutations run without a sessionConfig', async () => {
    const created = await run('mutation { createMovies(input: [{ title: "Alien", released: 1979 }]) { movies { title released } } }');
    assert.deepEqual(created.errors, undefined);
    const read = await run('query { movies(where: { title: { eq: "Alien" } }) { title released } }');
    assert.deepEqual(read.errors, undefined);
    assert.deepEqual(JSON.parse(JSON.stringify(read.data)), { movies: [{ title: 'Alien', released: 1979 }] });
    const { records } = await driver.executeQuery('MATCH (m:Movie) RETURN count(m) AS c', {}, { database: 'graphdb' });
    assert.equal(Number(records[0].get('c')), 1, 'the default database holds what GraphQL wrote');
  });

  it('a subscription receives create, update and delete events through CDC', async () => {
    const open = async (source: string) => {
      const stream = await subscribe({ schema, document: parse(source), contextValue: {} });
      assert.ok(Symbol.asyncIterator in stream, JSON.stringify(stream));
      return stream as AsyncGenerator<ExecutionResult>;
    };
    const created = await open('subscription { movieCreated { createdMovie { title } event } }');
    const updated = await open('subscription { movieUpdated { updatedMovie { title released } event } }');
    const deleted = await open('subscription { movieDeleted { deletedMovie { title } event } }');
    // The engine took its cursor (db.cdc.current()) in getSchema(); the listeners are registered now.
    const nextCreated = created.next();
    const nextUpdated = updated.next();
    const nextDeleted = deleted.next();
    await run('mutation { createMovies(input: [{ title: "Heat", released: 1994 }]) { movies { title } } }');
    await run('mutation { updateMovies(where: { title: { eq: "Heat" } }, update: { released: { set: 1995 } }) { movies { title } } }');
    await run('mutation { deleteMovies(where: { title: { eq: "Heat" } }) { nodesDeleted } }');
    // The first test's "Alien" may still be on its way through the poll loop: skip to "Heat".
    let createdEvent = (await nextCreated).value as ExecutionResult;
    while (JSON.stringify(createdEvent.data).includes('Alien')) createdEvent = (await created.next()).value as ExecutionResult;
    const updatedEvent = (await nextUpdated).value as ExecutionResult;
    const deletedEvent = (await nextDeleted).value as ExecutionResult;
    assert.deepEqual(JSON.parse(JSON.stringify(createdEvent.data)), { movieCreated: { createdMovie: { title: 'Heat' }, event: 'CREATE' } });
    assert.deepEqual(JSON.parse(JSON.stringify(updatedEvent.data)), {
      movieUpdated: { updatedMovie: { title: 'Heat', released: 1995 }, event: 'UPDATE' },
    });
    assert.deepEqual(JSON.parse(JSON.stringify(deletedEvent.data)), { movieDeleted: { deletedMovie: { title: 'Heat' }, event: 'DELETE' } });
    await created.return(undefined);
    await updated.return(undefined);
    await deleted.return(undefined);
  });
});
