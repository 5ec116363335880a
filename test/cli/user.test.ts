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

test('user passwd and remove, with the password policy (length, not the user name) and the last admin kept', () => {
  const dataDir = join(temp.dir, 'policy');
  assert.equal(cli(['user', 'add', 'root', '--role', 'admin', '--password', 'root-password', '--data-dir', dataDir, '--create']).status, 0);
  const short = cli(['user', 'add', 'dora', '--password', 'short', '--data-dir', dataDir]);
  assert.equal(short.status, 2);
  assert.match(short.stderr, /at least 8 characters/);
  const same = cli(['user', 'add', 'dora-the-user', '--password', 'DORA-THE-USER', '--data-dir', dataDir]);
  assert.equal(same.status, 2);
  assert.match(same.stderr, /must not be the user name/);
  const longer = cli(['user', 'add', 'dora', '--password', 'short', '--data-dir', dataDir], {
    env: { GRAPHDB_AUTH_PASSWORD_MIN_LENGTH: '4' },
  });
  assert.equal(longer.status, 0, 'the minimum length is the auth.password_min_length setting');

  const changed = cli(['user', 'passwd', 'dora', '--password', 'a-new-password', '--data-dir', dataDir]);
  assert.equal(changed.status, 0, changed.stderr);
  const weak = cli(['user', 'passwd', 'dora', '--password', 'tiny', '--data-dir', dataDir]);
  assert.equal(weak.status, 2);
  const hashes = cli(['shell', '--data-dir', dataDir, '-d', 'system', "MATCH (u:_User {name: 'dora'}) RETURN u.passwordHash AS h"]);
  assert.doesNotMatch(hashes.stdout, /a-new-password|short/);

  const lastAdmin = cli(['user', 'remove', 'root', '--data-dir', dataDir]);
  assert.equal(lastAdmin.status, 1);
  assert.match(lastAdmin.stderr, /last admin/);
  const removed = cli(['user', 'remove', 'dora', '--data-dir', dataDir]);
  assert.equal(removed.status, 0, removed.stderr);
  const missing = cli(['user', 'remove', 'dora', '--data-dir', dataDir]);
  assert.equal(missing.status, 1);
  const list = cli(['user', 'list', '--data-dir', dataDir, '--json']);
  assert.deepEqual(
    JSON.parse(list.stdout).users.map((u: { name: string }) => u.name),
    ['root'],
  );
});
