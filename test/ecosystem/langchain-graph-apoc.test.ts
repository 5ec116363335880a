/**
 * LangChain JS's Neo4jGraph, unchanged, against `graphdb serve` (auth on, Bolt on an ephemeral
 * port, the `neo4j` home alias): initialize/refreshSchema through apoc.meta.data, getSchema and
 * getStructuredSchema, the enhanced schema through apoc.meta.graphSample and
 * apoc.schema.properties.distinct, and addGraphDocuments through apoc.merge.node,
 * apoc.merge.relationship and apoc.create.addLabels, with and without baseEntityLabel/includeSource.
 * JavaScript numbers travel as FLOAT through neo4j-driver, so the schema reports them as FLOAT (as Neo4j).
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Document } from '@langchain/core/documents';
import { Neo4jGraph } from '@langchain/community/graphs/neo4j_graph';
import { GraphDocument, Node, Relationship } from '@langchain/community/graphs/document';
import neo4j, { type Driver } from 'neo4j-driver';
import { startTestServer, type TestServer } from '../http/helpers.js';

function graphDocument(source: string): GraphDocument {
  const alice = new Node({ id: 'Alice', type: 'Person', properties: { age: 30 } });
  const acme = new Node({ id: 'Acme', type: 'Company', properties: { founded: 1990 } });
  return new GraphDocument({
    nodes: [alice, acme],
    relationships: [new Relationship({ source: alice, target: acme, type: 'works at', properties: { since: 2020 } })],
    source: new Document({ pageContent: source, metadata: { title: 'doc' } }),
  });
}

describe('LangChain Neo4jGraph (APOC) against graphdb serve', () => {
  let t: TestServer;
  let url: string;
  let driver: Driver;
  const config = () => ({ url, username: 'root', password: 'rootpw' });

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
    url = `bolt://127.0.0.1:${t.server.bolt!.port}`;
    driver = neo4j.driver(url, neo4j.auth.basic('root', 'rootpw'));
  });
  after(async () => {
    await driver.close();
    await t.stop();
  });

  async function count(query: string): Promise<number> {
    const { records } = await driver.executeQuery(query, {}, { database: 'neo4j' });
    return Number(records[0].get(0));
  }

  it('addGraphDocuments without baseEntityLabel merges typed nodes and relationships (apoc.merge.*)', async () => {
    const graph = await Neo4jGraph.initialize(config());
    try {
      await graph.addGraphDocuments([graphDocument('Alice works at Acme.')]);
      await graph.addGraphDocuments([graphDocument('Alice works at Acme.')]);
      assert.equal(await count("MATCH (p:Person {id: 'Alice'}) RETURN count(p)"), 1);
      assert.equal(
        await count("MATCH (:Person {id: 'Alice', age: 30})-[r:WORKS_AT {since: 2020}]->(:Company {id: 'Acme'}) RETURN count(r)"),
        1,
      );
    } finally {
      await graph.close();
    }
  });

  it('addGraphDocuments with baseEntityLabel and includeSource adds __Entity__, labels (apoc.create.addLabels) and MENTIONS', async () => {
    const graph = await Neo4jGraph.initialize(config());
    try {
      await graph.addGraphDocuments([graphDocument('Alice again.')], { baseEntityLabel: true, includeSource: true });
      assert.equal(await count("MATCH (e:__Entity__:Person {id: 'Alice'}) RETURN count(e)"), 1);
      assert.equal(await count("MATCH (d:Document {text: 'Alice again.'})-[:MENTIONS]->(:__Entity__) RETURN count(*)"), 2);
      assert.equal(await count("SHOW CONSTRAINTS YIELD labelsOrTypes WHERE labelsOrTypes = ['__Entity__'] RETURN count(*)"), 1);
    } finally {
      await graph.close();
    }
  });

  it('refreshSchema, getSchema and getStructuredSchema describe labels, properties and relationships', async () => {
    const graph = await Neo4jGraph.initialize(config());
    try {
      const structured = graph.getStructuredSchema();
      assert.deepEqual([...structured.nodeProps.Person].map((p) => `${p.property}:${p.type}`).sort(), ['age:FLOAT', 'id:STRING']);
      assert.deepEqual(structured.relProps.WORKS_AT, [{ property: 'since', type: 'FLOAT' }]);
      assert.ok(structured.relationships.some((r) => r.start === 'Person' && r.type === 'WORKS_AT' && r.end === 'Company'));
      const schema = graph.getSchema();
      assert.match(schema, /Node properties are the following:/);
      assert.match(schema, /Person \{/);
      assert.match(schema, /\(: Person\) - \[: WORKS_AT\] -> \(:Company\)/);
    } finally {
      await graph.close();
    }
  });

  it('the enhanced schema adds example values and ranges (apoc.meta.graphSample)', async () => {
    const graph = await Neo4jGraph.initialize({ ...config(), enhancedSchema: true });
    try {
      const person = graph.getStructuredSchema().nodeProps.Person;
      const age = person.find((p) => p.property === 'age') as unknown as Record<string, unknown>;
      assert.equal(age.min, '30.0');
      assert.equal(age.max, '30.0');
      const id = person.find((p) => p.property === 'id') as unknown as Record<string, unknown>;
      assert.deepEqual(id.values, ['Alice']);
      assert.match(graph.getSchema(), /Alice/);
    } finally {
      await graph.close();
    }
  });
});
