/**
 * The built-in `neo4j` alias of the default database: what Neo4j clients ask for reaches the
 * default database out of the box (Bolt RUN/BEGIN/ROUTE with bolt:// and neo4j://, HTTP
 * `/db/neo4j/tx/commit`, the embedded engine the CLI uses), SHOW ALIASES lists it, DROP ALIAS
 * removes it for good (across restarts), and `database.home_alias` renames or disables it.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import neo4j, { type Driver } from 'neo4j-driver';
import { GraphDB } from '../../src/engine/index.js';
import { commit, startTestServer, type TestServer } from '../http/helpers.js';

const ROOT = { authorization: `Basic ${Buffer.from('root:rootpw').toString('base64')}` };

async function rows(db: GraphDB, query: string, database?: string): Promise<unknown[][]> {
  const session = db.session(database === undefined ? {} : { database });
  const result = await session.run(query);
  return (await result.pull(-1)).records.map((record) => [...record]);
}

describe('the neo4j home database alias on a server', () => {
  let t: TestServer;
  let driver: Driver;
  let routing: Driver;

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
    routing = neo4j.driver(`neo4j://127.0.0.1:${t.server.bolt!.port}`, neo4j.auth.basic('root', 'rootpw'));
  });
  after(async () => {
    await driver.close();
    await routing.close();
    await t.stop();
  });

  it('Bolt sessions and transactions on database neo4j reach the default database', async () => {
    await driver.executeQuery("CREATE (:Home {via: 'neo4j'})", {}, { database: 'neo4j' });
    const { records, summary } = await driver.executeQuery('MATCH (h:Home) RETURN h.via AS via', {}, { database: 'graphdb' });
    assert.deepEqual(
      records.map((r) => r.get('via')),
      ['neo4j'],
    );
    assert.equal(summary.database.name, 'graphdb');
    const session = routing.session({ database: 'neo4j' });
    try {
      const count = await session.executeRead(async (tx) => (await tx.run('MATCH (h:Home) RETURN count(h) AS c')).records[0].get('c'));
      assert.equal(Number(count), 1);
    } finally {
      await session.close();
    }
  });

  it('HTTP /db/neo4j/tx/commit runs on the default database', async () => {
    const response = await commit(t.url, [{ statement: 'MATCH (h:Home) RETURN count(h) AS c' }], 'neo4j', ROOT);
    assert.equal(response.status, 200, response.text);
    assert.deepEqual(response.body.errors, []);
    assert.deepEqual(response.body.results[0].data[0].row, [1]);
  });

  it('SHOW ALIASES lists neo4j for the default database; SHOW DATABASES names it', async () => {
    const shown = await driver.executeQuery('SHOW ALIASES FOR DATABASES YIELD name, database, location', {}, { database: 'system' });
    assert.deepEqual(
      shown.records.map((r) => r.toObject()),
      [{ name: 'neo4j', database: 'graphdb', location: 'local' }],
    );
    const databases = await driver.executeQuery("SHOW DATABASES YIELD name, aliases WHERE name = 'graphdb'", {}, { database: 'system' });
    assert.deepEqual(databases.records[0].get('aliases'), ['neo4j']);
  });
});

describe('the neo4j home database alias in a data directory', () => {
  const dirs: string[] = [];
  const tempDir = (): string => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'graphdb-home-'));
    dirs.push(dir);
    return dir;
  };
  after(() => {
    for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
  });

  it('DROP ALIAS neo4j removes it for good; it is not seeded again on restart', async () => {
    const dataDir = tempDir();
    let db = await GraphDB.open({ dataDir, search: false });
    assert.deepEqual(await rows(db, 'RETURN 1', 'neo4j'), [[1n]]);
    await rows(db, 'DROP ALIAS neo4j FOR DATABASE', 'system');
    await assert.rejects(rows(db, 'RETURN 1', 'neo4j'), { code: 'Neo.ClientError.Database.DatabaseNotFound' });
    await db.close();
    db = await GraphDB.open({ dataDir, search: false });
    try {
      await assert.rejects(rows(db, 'RETURN 1', 'neo4j'), { code: 'Neo.ClientError.Database.DatabaseNotFound' });
      assert.deepEqual(await rows(db, 'SHOW ALIASES FOR DATABASES YIELD name', 'system'), []);
    } finally {
      await db.close();
    }
  });

  it('follows a changed default database; a retargeted alias stays where the user put it', async () => {
    const dataDir = tempDir();
    let db = await GraphDB.open({ dataDir, search: false });
    await db.close();
    db = await GraphDB.open({ dataDir, defaultDatabase: 'other', search: false });
    assert.deepEqual(await rows(db, 'SHOW ALIASES FOR DATABASES YIELD name, database', 'system'), [['neo4j', 'other']]);
    await rows(db, 'ALTER ALIAS neo4j SET DATABASE TARGET graphdb', 'system');
    await db.close();
    db = await GraphDB.open({ dataDir, defaultDatabase: 'third', search: false });
    try {
      assert.deepEqual(await rows(db, 'SHOW ALIASES FOR DATABASES YIELD name, database', 'system'), [['neo4j', 'graphdb']]);
    } finally {
      await db.close();
    }
  });

  it('homeAlias renames it; null disables it', async () => {
    const renamed = await GraphDB.open({ dataDir: tempDir(), homeAlias: 'home', search: false });
    try {
      assert.deepEqual(await rows(renamed, 'SHOW ALIASES FOR DATABASES YIELD name, database', 'system'), [['home', 'graphdb']]);
    } finally {
      await renamed.close();
    }
    const none = await GraphDB.open({ dataDir: tempDir(), homeAlias: null, search: false });
    try {
      await assert.rejects(rows(none, 'RETURN 1', 'neo4j'), { code: 'Neo.ClientError.Database.DatabaseNotFound' });
    } finally {
      await none.close();
    }
  });

  it('a default database named neo4j needs no alias', async () => {
    const db = await GraphDB.open({ dataDir: tempDir(), defaultDatabase: 'neo4j', search: false });
    try {
      assert.deepEqual(await rows(db, 'SHOW ALIASES FOR DATABASES YIELD name', 'system'), []);
      assert.deepEqual(await rows(db, 'RETURN 1', 'neo4j'), [[1n]]);
    } finally {
      await db.close();
    }
  });
});
