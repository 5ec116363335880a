/**
 * The file-access settings act through a running server (HTTP transaction API): the import
 * directory, the switch for file URLs (environment variable) and the CSV record size.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { commit, startTestServer } from '../http/helpers.js';

test('server.directories.import, GRAPHDB_ALLOW_FILE_URLS and dbms.import.csv.buffer_size act on LOAD CSV over HTTP', async () => {
  const importDir = fs.mkdtempSync(path.join(os.tmpdir(), 'graphdb-import-'));
  fs.writeFileSync(path.join(importDir, 'a.csv'), 'x,y\n');
  fs.writeFileSync(path.join(importDir, 'wide.csv'), `${'z'.repeat(5000)}\n`);
  const server = await startTestServer({ 'server.directories.import': importDir, 'dbms.import.csv.buffer_size': 1024 });
  try {
    const ok = await commit(server.url, ["LOAD CSV FROM 'file:///a.csv' AS r RETURN r"]);
    assert.deepEqual(ok.body.errors, []);
    assert.deepEqual(ok.body.results[0].data[0].row, [['x', 'y']]);
    const wide = await commit(server.url, ["LOAD CSV FROM 'file:///wide.csv' AS r RETURN r"]);
    assert.equal(wide.body.errors[0].code, 'Neo.ClientError.Statement.ExternalResourceFailed');
    assert.match(wide.body.errors[0].message, /buffer size/);
  } finally {
    await server.stop();
  }
  const closed = await startTestServer({ 'server.directories.import': importDir }, { GRAPHDB_ALLOW_FILE_URLS: 'false' });
  try {
    const refused = await commit(closed.url, ["LOAD CSV FROM 'file:///a.csv' AS r RETURN r"]);
    assert.equal(refused.body.errors[0].code, 'Neo.ClientError.Statement.ExternalResourceFailed');
    assert.match(refused.body.errors[0].message, /allow_csv_import_from_file_urls' is false/);
  } finally {
    await closed.stop();
    fs.rmSync(importDir, { recursive: true, force: true });
  }
});
