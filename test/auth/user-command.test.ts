/** `graphdb user add` with the non-interactive flags, and the added user logging in. */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { GraphDB } from '../../src/engine/index.js';
import { AuthService } from '../../src/engine/auth/index.js';
import { cli, ensureBuilt } from '../cli/cli-process.js';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'graphdb-auth-cli-'));
before(() => ensureBuilt());
after(() => fs.rmSync(dir, { recursive: true, force: true }));

test('user add --username --password --role creates a user that can authenticate', async () => {
  const dataDir = path.join(dir, 'data');
  const added = cli([
    'user',
    'add',
    '--username',
    'carol',
    '--password',
    'carol-pw',
    '--role',
    'editor',
    '--data-dir',
    dataDir,
    '--create',
  ]);
  assert.equal(added.status, 0, added.stderr);
  const missing = cli(['user', 'add', '--password', 'x', '--data-dir', dataDir]);
  assert.equal(missing.status, 2);
  assert.match(missing.stderr, /user name is required/);
  const db = await GraphDB.open({ dataDir });
  try {
    const auth = await AuthService.open({ systemSession: () => db.session({ database: 'system' }), jwtSecret: null });
    const principal = await auth.authenticatePassword('carol', 'carol-pw', null);
    assert.deepEqual(principal.context.roles, ['editor']);
  } finally {
    await db.close();
  }
});
