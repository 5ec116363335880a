/** `graphdb user add|list`, and users surviving backup/restore (they live in `system`). */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { cli, ensureBuilt } from './cli-process.js';
import { tempDir } from './helpers.js';

const temp = tempDir();
before(() => ensureBuilt());
after(() => temp.cleanup());

test('user add stores a hashed user; backup/restore keeps it', () => {
  const dataDir = join(temp.dir, 'data');
  const added = cli(['user', 'add', 'alice', '--role', 'admin', '--password', 'pw-123456', '--data-dir', dataDir, '--create']);
  assert.equal(added.status, 0, added.stderr);
  const again = cli(['user', 'add', 'alice', '--password', 'x', '--data-dir', dataDir]);
  assert.equal(again.status, 1);
  assert.match(again.stderr, /already exists/);
  const badRole = cli(['user', 'add', 'bob', '--role', 'nope', '--password', 'x', '--data-dir', dataDir]);
  assert.equal(badRole.status, 2);
  const hashes = cli(['shell', '--data-dir', dataDir, '-d', 'system'], { input: 'MATCH (u:_User) RETURN u.passwordHash AS h;\n' });
  assert.doesNotMatch(hashes.stdout, /pw-123456/);
  const backupDir = join(temp.dir, 'backup');
  assert.equal(cli(['backup', backupDir, '--data-dir', dataDir]).status, 0);
  const restored = join(temp.dir, 'restored');
  assert.equal(cli(['restore', backupDir, '--data-dir', restored]).status, 0);
  const list = cli(['user', 'list', '--data-dir', restored, '--json']);
  assert.equal(list.status, 0, list.stderr);
  assert.deepEqual(JSON.parse(list.stdout).users, [{ name: 'alice', roles: ['admin'], suspended: false, serviceAccount: false }]);
});
