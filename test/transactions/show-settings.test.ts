/**
 * SHOW SETTINGS: the effective configuration with defaults, descriptions and dynamic flags,
 * secrets redacted, names selecting rows, YIELD * adding columns; admin only.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { GraphDB, Forbidden } from '../../src/engine/index.js';
import type { CypherValue, SecurityContext, Session } from '../../src/engine/index.js';
import { loadConfig } from '../../src/engine/config/load.js';
import { settingRows } from '../../src/engine/config/setting-rows.js';

let db: GraphDB;
before(async () => {
  db = await GraphDB.open({});
  const env = {
    GRAPHDB_JWT_SECRET: 'very-secret-value-that-is-long-enough-for-jwt',
    GRAPHDB_BOLT_PORT: '7999',
    GRAPHDB_TRANSACTION_IDLE_TIMEOUT: '90s',
  };
  const loaded = loadConfig({
    env,
    discovery: {
      env,
      homeDir: '/nonexistent',
      binDir: null,
      cwd: '/nonexistent',
      platform: process.platform,
      systemConfigDir: '/nonexistent',
      exists: () => false,
    },
  });
  db.setSettingsSource(() => settingRows(loaded));
});
after(() => db.close());

async function rows(session: Session, query: string, parameters?: Record<string, CypherValue>): Promise<Record<string, CypherValue>[]> {
  const result = await session.run(query, parameters);
  const { records } = await result.pull(-1);
  return records.map((record) => Object.fromEntries(result.keys.map((k, i) => [k, record[i] ?? null])));
}

test('SHOW SETTINGS lists every setting with the Neo4j default columns, secrets redacted', async () => {
  const session = db.session();
  const result = await session.run('SHOW SETTINGS');
  assert.deepEqual(result.keys, ['name', 'value', 'isDynamic', 'defaultValue', 'description']);
  const all = (await result.pull(-1)).records;
  assert.ok(all.length > 50, `${all.length} settings`);
  const byName = new Map(all.map((r) => [r[0], r]));
  assert.deepEqual(byName.get('server.bolt_port')?.slice(0, 4), ['server.bolt_port', '7999', false, '7687']);
  assert.equal(byName.get('server.transaction_idle_timeout')?.[1], '1m30s');
  assert.equal(byName.get('auth.jwt_secret')?.[1], '********');
  assert.ok(!JSON.stringify(all).includes('very-secret-value-that-is-long-enough-for-jwt'), 'the secret appears nowhere');
  assert.equal(byName.get('search.min_similarity')?.[2], true, 'per-database settings are dynamic');
  for (const row of all) assert.ok(typeof row[4] === 'string' && row[4].length > 0, `description of ${row[0] as string}`);
});

test('names select settings; YIELD * adds startupValue, isExplicitlySet, validValues', async () => {
  const session = db.session();
  const picked = await rows(
    session,
    "SHOW SETTINGS 'server.bolt_port', 'logging.level' YIELD * RETURN name, isExplicitlySet, validValues ORDER BY name",
  );
  assert.deepEqual(picked, [
    { name: 'logging.level', isExplicitlySet: false, validValues: 'one of [fatal, error, warn, info, debug, trace, silent]' },
    { name: 'server.bolt_port', isExplicitlySet: true, validValues: 'an integer in [0, 65535]' },
  ]);
  const byParameter = await rows(session, 'SHOW SETTING $name YIELD name, value', { name: 'server.bolt_port' });
  assert.deepEqual(byParameter, [{ name: 'server.bolt_port', value: '7999' }]);
  const filtered = await rows(session, "SHOW SETTINGS WHERE name STARTS WITH 'server.https.' RETURN count(*) AS n");
  assert.deepEqual(filtered, [{ n: 4n }]);
});

test('SHOW SETTINGS is for admins only', async () => {
  const denying: SecurityContext = {
    username: 'reader',
    roles: ['reader'],
    authorize(database, permission) {
      if (permission === 'admin') throw new Forbidden(`Permission denied: '${permission}' on '${database}'`);
    },
  };
  await assert.rejects(rows(db.session({ security: denying }), 'SHOW SETTINGS'), { code: 'Neo.ClientError.Security.Forbidden' });
  const admin: SecurityContext = { username: 'root', roles: ['admin'], authorize: () => undefined };
  assert.ok((await rows(db.session({ security: admin }), 'SHOW SETTINGS')).length > 50);
});
