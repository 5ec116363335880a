/**
 * neo4j-driver 6.3 against a server restricted to one protocol version at a time: every version
 * the driver speaks with us (4.4, 5.0-5.4, 5.6-5.8, 6.0) negotiates through the manifest and carries
 * graph values, zoned datetimes, failures, transactions and routing correctly.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import neo4j from 'neo4j-driver';
import { startFakeServer } from './helpers/server.js';

const VERSIONS: [number, number][] = [
  [4, 4],
  [5, 0],
  [5, 1],
  [5, 2],
  [5, 3],
  [5, 4],
  [5, 6],
  [5, 7],
  [5, 8],
  [6, 0],
];

describe('neo4j-driver on each protocol version', () => {
  for (const [major, minor] of VERSIONS) {
    it(`Bolt ${major}.${minor}`, async () => {
      const { server } = await startFakeServer({ versions: [{ major, minor }] });
      const driver = neo4j.driver(`neo4j://127.0.0.1:${server.port}`, neo4j.auth.basic('neo4j', 'pw'));
      try {
        const graph = await driver.executeQuery('GRAPH');
        assert.equal(graph.summary.server.protocolVersion?.toString(), `${major}.${minor}`);
        const [node, rel, path, dt] = ['a', 'r', 'p', 'dt'].map((key) => graph.records[0].get(key));
        assert.deepEqual(node.labels, ['Person']);
        assert.equal(node.properties.name, 'Alice');
        assert.equal(node.elementId, major >= 5 ? '4:db:1' : '1');
        assert.equal(rel.type, 'KNOWS');
        assert.equal(path.segments[0].start.properties.name, 'Alice');
        assert.equal(path.segments[0].end.properties.name, 'Bob');
        assert.equal(dt.toString(), '2024-06-01T12:00:00+02:00[Europe/Stockholm]');

        const zoned = new neo4j.types.DateTime(2024, 10, 27, 2, 30, 0, 0, undefined, 'Europe/Stockholm');
        const echoed = await driver.executeQuery('ECHO', { x: zoned });
        assert.equal(echoed.records[0].get('x').toString().slice(0, 19), '2024-10-27T02:30:00');

        await assert.rejects(driver.executeQuery('FAIL Neo.ClientError.Statement.SyntaxError'), (error: Error & { code?: string }) => {
          assert.equal(error.code, 'Neo.ClientError.Statement.SyntaxError');
          return true;
        });
        const session = driver.session();
        try {
          const tx = await session.beginTransaction();
          const created = await tx.run('CREATE');
          assert.equal(created.summary.counters.updates().nodesCreated, 2);
          await tx.commit();
          assert.ok(session.lastBookmarks().length > 0);
        } finally {
          await session.close();
        }
      } finally {
        await driver.close();
        await server.close();
      }
    });
  }
});
