/**
 * `database.test_procedures` (GRAPHDB_TEST_PROCEDURES): off by default, so
 * `tck.registerProcedure` does not exist; on, a client registers a table-backed procedure over
 * Bolt and calls it (the shared TCK runner's `--procedure-hook` for the Call1–Call6 scenarios).
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import neo4j from 'neo4j-driver';
import { loadConfig } from '../../src/engine/config/index.js';
import { startBoltServer } from '../../src/server/bolt/index.js';
import { openEngine } from '../../src/server/engine-adapter.js';
import { createLogger } from '../../src/server/logger.js';

const temporary: string[] = [];
after(() => {
  for (const dir of temporary) fs.rmSync(dir, { recursive: true, force: true });
});

async function withServer(env: Record<string, string>, body: (driver: ReturnType<typeof neo4j.driver>) => Promise<void>): Promise<void> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'graphdb-test-procedures-'));
  temporary.push(dir);
  const discovery = {
    env: {},
    homeDir: dir,
    binDir: null,
    cwd: dir,
    platform: 'linux' as const,
    systemConfigDir: path.join(dir, 'none'),
    exists: () => false,
  };
  const { config } = loadConfig({ env: { GRAPHDB_DATA_DIR: dir, ...env }, discovery });
  const opened = await openEngine(config, createLogger('silent'));
  const server = await startBoltServer({ port: 0, host: '127.0.0.1', engine: opened.graphdb });
  const driver = neo4j.driver(`bolt://127.0.0.1:${server.port}`, neo4j.auth.basic('neo4j', 'any'));
  try {
    await body(driver);
  } finally {
    await driver.close();
    await server.close();
    await opened.close();
  }
}

const REGISTER = 'CALL tck.registerProcedure($signature, $columns, $rows)';
const parameters = {
  signature: 'test.my.proc(name :: STRING?, id :: INTEGER?) :: (city :: STRING?, country_code :: INTEGER?)',
  columns: ['name', 'id', 'city', 'country_code'],
  rows: [
    ['Andres', neo4j.int(1), 'Malmö', neo4j.int(46)],
    ['Tobias', neo4j.int(1), 'Malmö', neo4j.int(46)],
    ['Mats', neo4j.int(1), 'Malmö', neo4j.int(46)],
    ['Stefan', neo4j.int(1), 'Berlin', neo4j.int(49)],
  ],
};

describe('database.test_procedures', () => {
  it('is off by default: tck.registerProcedure does not exist', async () => {
    await withServer({}, async (driver) => {
      await assert.rejects(driver.executeQuery(REGISTER, parameters), (error: { code?: string }) => {
        assert.equal(error.code, 'Neo.ClientError.Procedure.ProcedureNotFound');
        return true;
      });
    });
  });

  it('when enabled, registers table procedures a client then calls over Bolt', async () => {
    await withServer({ GRAPHDB_TEST_PROCEDURES: 'true' }, async (driver) => {
      await driver.executeQuery(REGISTER, parameters);
      const { records } = await driver.executeQuery("CALL test.my.proc('Stefan', 1) YIELD city, country_code RETURN city, country_code");
      assert.deepEqual(
        records.map((r) => [r.get('city'), r.get('country_code').toNumber()]),
        [['Berlin', 49]],
      );
      const shown = await driver.executeQuery("SHOW PROCEDURES YIELD name WHERE name = 'test.my.proc' RETURN name");
      assert.equal(shown.records.length, 1);
    });
  });
});
