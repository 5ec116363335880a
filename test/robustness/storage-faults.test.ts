/**
 * Storage faults map to specific Neo4j codes with clear messages, not UnknownError. The faults are
 * real SQLite errors: a database whose page limit is reached (SQLITE_FULL, as a full disk), a
 * write while another connection holds the lock (SQLITE_BUSY), a write on a read-only connection,
 * and a file that is not a database.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import Database from 'better-sqlite3';
import { toGraphError, GraphError } from '../../src/engine/errors/index.js';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'graphdb-faults-'));
after(() => fs.rmSync(dir, { recursive: true, force: true }));

function caught(action: () => unknown): GraphError {
  try {
    action();
  } catch (error) {
    return toGraphError(error);
  }
  throw new Error('no error');
}

describe('storage faults', () => {
  it('a full storage is TransactionCommitFailed, saying so', () => {
    const db = new Database(path.join(dir, 'full.db'));
    db.exec('CREATE TABLE t (v BLOB)');
    db.pragma('max_page_count = 8');
    const error = caught(() => {
      for (let i = 0; i < 100; i++) db.prepare('INSERT INTO t VALUES (?)').run(Buffer.alloc(4096));
    });
    assert.equal(error.code, 'Neo.DatabaseError.Transaction.TransactionCommitFailed');
    assert.match(error.message, /storage is full.*SQLITE_FULL.*free disk space/);
    db.close();
  });

  it('a busy storage is a transient DatabaseUnavailable, so drivers retry', () => {
    const file = path.join(dir, 'busy.db');
    const holder = new Database(file);
    holder.exec('CREATE TABLE t (v)');
    holder.exec('BEGIN EXCLUSIVE');
    const other = new Database(file, { timeout: 0 });
    const error = caught(() => other.prepare('INSERT INTO t VALUES (1)').run());
    assert.equal(error.code, 'Neo.TransientError.General.DatabaseUnavailable');
    assert.equal(error.classification, 'TransientError');
    holder.exec('ROLLBACK');
    holder.close();
    other.close();
  });

  it('read-only storage and a damaged file get their own codes', () => {
    const file = path.join(dir, 'ro.db');
    new Database(file).exec('CREATE TABLE t (v)');
    const readOnly = new Database(file, { readonly: true });
    assert.equal(
      caught(() => readOnly.prepare('INSERT INTO t VALUES (1)').run()).code,
      'Neo.ClientError.General.ForbiddenOnReadOnlyDatabase',
    );
    readOnly.close();
    const junk = path.join(dir, 'junk.db');
    fs.writeFileSync(junk, Buffer.alloc(8192, 7));
    const damaged = new Database(junk);
    assert.equal(
      caught(() => damaged.prepare('SELECT * FROM sqlite_master').all()).code,
      'Neo.DatabaseError.General.StorageDamageDetected',
    );
    damaged.close();
  });

  it('other errors stay UnknownError', () => {
    assert.equal(toGraphError(new Error('boom')).code, 'Neo.DatabaseError.General.UnknownError');
  });
});
