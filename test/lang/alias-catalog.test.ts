/**
 * The alias catalog on the embedded engine: concurrent CREATE ALIAS, name rules, the system
 * database, and aliases with their properties across a restart.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { GraphDB } from '../../src/engine/index.js';
import type { CypherValue } from '../../src/engine/values/types.js';
import { storeOf } from '../../src/engine/engine-internals.js';

async function rows(db: GraphDB, statement: string, parameters: Record<string, CypherValue> = {}): Promise<(readonly CypherValue[])[]> {
  const session = db.session({ database: 'system' });
  try {
    const result = await session.run(statement, parameters);
    return [...(await result.pull(-1)).records];
  } finally {
    await session.close();
  }
}

async function outcome(db: GraphDB, statement: string): Promise<string> {
  try {
    await rows(db, statement);
    return 'ok';
  } catch (error) {
    return (error as { code?: string }).code ?? String(error);
  }
}

describe('alias catalog', () => {
  let dataDir: string;
  let db: GraphDB;
  before(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'graphdb-aliases-'));
    db = await GraphDB.open({ dataDir, homeAlias: null });
    await rows(db, 'CREATE DATABASE shop');
  });
  after(async () => {
    await db.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('two concurrent CREATE ALIAS of one name: exactly one wins', async () => {
    const results = await Promise.all([
      outcome(db, 'CREATE ALIAS race FOR DATABASE shop'),
      outcome(db, 'CREATE ALIAS race FOR DATABASE shop'),
    ]);
    assert.deepEqual(results.sort(), ['Neo.ClientError.Database.ExistingDatabaseFound', 'ok']);
    assert.deepEqual(await rows(db, 'SHOW ALIASES FOR DATABASES YIELD name'), [['race']]);
    await rows(db, 'DROP ALIAS race FOR DATABASE');
  });

  it('alias names follow database name rules; system cannot be a target', async () => {
    assert.equal(await outcome(db, 'CREATE ALIAS ab FOR DATABASE shop'), 'Neo.ClientError.Statement.ArgumentError');
    assert.equal(await outcome(db, 'CREATE ALIAS `bad name` FOR DATABASE shop'), 'Neo.ClientError.Statement.ArgumentError');
    assert.equal(await outcome(db, 'CREATE ALIAS sys FOR DATABASE system'), 'Neo.ClientError.Statement.UnsupportedOperationError');
    assert.equal(await outcome(db, 'CREATE ALIAS shop2 FOR DATABASE SHOP'), 'ok', 'targets compare case-insensitively');
    assert.equal(
      await outcome(db, 'DROP ALIAS shop FOR DATABASE'),
      'Neo.ClientError.Database.DatabaseNotFound',
      'a database is not an alias',
    );
    assert.equal(
      await outcome(db, 'CREATE ALIAS Shop2 FOR DATABASE shop'),
      'Neo.ClientError.Database.ExistingDatabaseFound',
      'alias names compare case-insensitively',
    );
  });

  it('aliases and their properties survive a restart; the engine resolves them in store()', async () => {
    await rows(db, 'CREATE ALIAS `front.door` FOR DATABASE shop PROPERTIES $p', {
      p: new Map<string, CypherValue>([
        ['team', 'web'],
        ['level', 3n],
      ]),
    });
    await db.close();
    db = await GraphDB.open({ dataDir, homeAlias: null });
    const shown = await rows(db, 'SHOW ALIASES `front.door` FOR DATABASES YIELD name, database, properties');
    assert.deepEqual(shown, [
      [
        'front.door',
        'shop',
        new Map<string, CypherValue>([
          ['team', 'web'],
          ['level', 3n],
        ]),
      ],
    ]);
    assert.equal(storeOf(db, 'FRONT.DOOR').name, 'shop');
    assert.equal(storeOf(db, 'shop2').name, 'shop');
    assert.deepEqual(await rows(db, 'SHOW DATABASE `front.door` YIELD name, aliases'), [['shop', ['front.door', 'shop2']]]);
  });
});
