/**
 * Attacks on file access through LOAD CSV (issue #24): reading server files, escaping the import
 * directory by `..` or symbolic links, endless input, remote URLs; and the settings that govern
 * them (import directory, file URLs switch, URL allowlist, record size, LOAD privilege hook).
 */
import assert from 'node:assert/strict';
import { closeSync, mkdirSync, mkdtempSync, openSync, rmSync, symlinkSync, writeFileSync, ftruncateSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { Forbidden, GraphDB } from '../../src/engine/index.js';
import { rows } from '../execution/helpers.js';

const EXTERNAL = 'Neo.ClientError.Statement.ExternalResourceFailed';

let dir: string;
let db: GraphDB;
let importDir: string;

before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'graphdb-files-'));
  db = await GraphDB.open({ dataDir: join(dir, 'data'), search: false });
  importDir = db.importDirectory;
  writeFileSync(join(dir, 'secret.csv'), 'top,secret\n');
  writeFileSync(join(importDir, 'people.csv'), 'name,city\nAnn,"Oslo, Norway"\n"Bob ""B""",Rome\n');
  mkdirSync(join(importDir, 'sub'));
  writeFileSync(join(importDir, 'sub', 'x.csv'), '1;2\n3;4\n');
  symlinkSync(join(dir, 'secret.csv'), join(importDir, 'link.csv'));
  symlinkSync(dir, join(importDir, 'outside'));
  symlinkSync(join(importDir, 'people.csv'), join(importDir, 'inside-link.csv'));
});

after(async () => {
  await db.close();
  rmSync(dir, { recursive: true, force: true });
});

async function refused(query: string, message: RegExp, code = EXTERNAL, database = db): Promise<void> {
  await assert.rejects(rows(database.session(), query), (error: { code?: string; message: string }) => {
    assert.equal(error.code, code, error.message);
    assert.match(error.message, message);
    return true;
  });
}

describe('file: URLs resolve inside the import directory only', () => {
  test('file:///etc/passwd is <import>/etc/passwd, which does not exist', async () => {
    await refused(
      "LOAD CSV FROM 'file:///etc/passwd' AS r FIELDTERMINATOR ':' RETURN r[0] LIMIT 3",
      /Couldn't load the external resource at: file:\/\/\/etc\/passwd/,
    );
  });

  test('dot-dot segments, plain or percent-encoded, do not leave the import directory', async () => {
    for (const url of [
      'file:///../secret.csv',
      'file:///%2e%2e/secret.csv',
      'file:///..%2Fsecret.csv',
      'file:///sub/..%2F..%2Fsecret.csv',
    ]) {
      await assert.rejects(rows(db.session(), `LOAD CSV FROM '${url}' AS r RETURN r`), (error: { code?: string; message: string }) => {
        assert.equal(error.code, EXTERNAL, url);
        assert.doesNotMatch(error.message, /top|secret,/);
        return true;
      });
    }
  });

  test('a symbolic link to a file or directory outside is refused', async () => {
    await refused("LOAD CSV FROM 'file:///link.csv' AS r RETURN r", /file URL points outside configured import directory/);
    await refused("LOAD CSV FROM 'file:///outside/secret.csv' AS r RETURN r", /file URL points outside configured import directory/);
  });

  test('files inside are read, in subdirectories and through links that stay inside', async () => {
    const out = await rows(
      db.session(),
      "LOAD CSV WITH HEADERS FROM 'file:///people.csv' AS line RETURN line.name AS name, line.city AS city",
    );
    assert.deepEqual(out, [
      { name: 'Ann', city: 'Oslo, Norway' },
      { name: 'Bob "B"', city: 'Rome' },
    ]);
    assert.deepEqual(await rows(db.session(), "LOAD CSV FROM 'file:///sub/x.csv' AS r FIELDTERMINATOR ';' RETURN r"), [
      { r: ['1', '2'] },
      { r: ['3', '4'] },
    ]);
    assert.equal((await rows(db.session(), "LOAD CSV FROM 'file:///inside-link.csv' AS r RETURN r")).length, 3);
  });

  test('an authority, a query string, a non-URL and other protocols are refused with Neo4j texts', async () => {
    await refused("LOAD CSV FROM 'file://host/people.csv' AS r RETURN r", /may not contain an authority section/);
    await refused("LOAD CSV FROM 'file:///people.csv?x=1' AS r RETURN r", /may not contain a query component/);
    await refused("LOAD CSV FROM '/etc/passwd' AS r RETURN r", /Invalid URL '\/etc\/passwd'/);
    await refused("LOAD CSV FROM 'ftp://example.org/x.csv' AS r RETURN r", /unsupported protocol ftp/);
  });

  test('device files and FIFOs are not regular files and are refused (no blocking read)', async () => {
    symlinkSync('/dev/zero', join(importDir, 'zero.csv'));
    await refused("LOAD CSV FROM 'file:///zero.csv' AS r RETURN r", /points outside configured import directory/);
  });
});

describe('settings', () => {
  test('dbms.security.allow_csv_import_from_file_urls=false refuses file URLs', async () => {
    const closed = await GraphDB.open({ dataDir: join(dir, 'nofiles'), search: false, files: { allowFileUrls: false } });
    try {
      writeFileSync(join(closed.importDirectory, 'a.csv'), '1\n');
      await refused(
        "LOAD CSV FROM 'file:///a.csv' AS r RETURN r",
        /^Cannot load from URL 'file:\/\/\/a.csv': configuration property 'dbms.security.allow_csv_import_from_file_urls' is false$/,
        EXTERNAL,
        closed,
      );
    } finally {
      await closed.close();
    }
  });

  test('server.directories.import moves the root of file URLs', async () => {
    const other = join(dir, 'elsewhere');
    const moved = await GraphDB.open({ dataDir: join(dir, 'moved'), search: false, files: { importDir: other } });
    try {
      assert.equal(moved.importDirectory, other);
      writeFileSync(join(other, 'b.csv'), 'here\n');
      assert.deepEqual(await rows(moved.session(), "LOAD CSV FROM 'file:///b.csv' AS r RETURN r[0] AS v"), [{ v: 'here' }]);
    } finally {
      await moved.close();
    }
  });

  test('the LOAD privilege hook is asked with the URL before anything is opened', async () => {
    const asked: string[] = [];
    const session = db.session({
      security: {
        username: 'reader',
        roles: ['reader'],
        authorizeLoad(url) {
          asked.push(url);
          throw new Forbidden(`LOAD on URL '${url}' is not allowed for user 'reader'`);
        },
      },
    });
    await assert.rejects(rows(session, "LOAD CSV FROM 'file:///people.csv' AS r RETURN r"), (error: { code?: string }) => {
      assert.equal(error.code, 'Neo.ClientError.Security.Forbidden');
      return true;
    });
    assert.deepEqual(asked, ['file:///people.csv']);
  });
});

describe('endless and huge input', () => {
  test('a file of 8 GiB is streamed: LIMIT 3 answers at once', async () => {
    const path = join(importDir, 'huge.csv');
    writeFileSync(path, 'a,b\n'.repeat(1000));
    const fd = openSync(path, 'r+');
    ftruncateSync(fd, 8 * 1024 ** 3);
    closeSync(fd);
    const out = await rows(db.session(), "LOAD CSV FROM 'file:///huge.csv' AS r RETURN r LIMIT 3");
    assert.deepEqual(out, [{ r: ['a', 'b'] }, { r: ['a', 'b'] }, { r: ['a', 'b'] }]);
  });

  test('a record without end (NUL bytes, as /dev/zero) fails at dbms.import.csv.buffer_size', async () => {
    const small = await GraphDB.open({ dataDir: join(dir, 'small'), search: false, files: { csvBufferSize: 64 * 1024 } });
    try {
      const path = join(small.importDirectory, 'zeros.csv');
      const fd = openSync(path, 'w');
      ftruncateSync(fd, 8 * 1024 ** 3);
      closeSync(fd);
      const rssBefore = process.memoryUsage().rss;
      await refused(
        "LOAD CSV FROM 'file:///zeros.csv' AS r RETURN count(r)",
        /larger than the current buffer size.*dbms\.import\.csv\.buffer_size/,
        EXTERNAL,
        small,
      );
      assert.ok(process.memoryUsage().rss - rssBefore < 256 * 1024 ** 2, 'memory stayed bounded');
    } finally {
      await small.close();
    }
  });

  test('the transaction timeout stops a long LOAD CSV', async () => {
    const timed = await GraphDB.open({ dataDir: join(dir, 'timed'), search: false, transactionTimeoutMs: 150 });
    try {
      writeFileSync(join(timed.importDirectory, 'many.csv'), 'x,y\n'.repeat(2_000_000));
      await refused(
        "LOAD CSV FROM 'file:///many.csv' AS r WITH r WHERE r[0] = 'x' UNWIND range(1, 20) AS i RETURN count(*)",
        /./,
        'Neo.ClientError.Transaction.TransactionTimedOut',
        timed,
      );
    } finally {
      await timed.close();
    }
  });
});

describe('HTTP(S) URLs', () => {
  let server: Server;
  let base: string;
  before(async () => {
    server = createServer((request, response) => {
      if (request.url === '/redirect') {
        response.writeHead(302, { location: '/private/x.csv' }).end();
        return;
      }
      if (request.url === '/private/x.csv') {
        response.end('private\n');
        return;
      }
      response.end('1,2\n3,4\n');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(() => new Promise<void>((resolve) => server.close(() => resolve())));

  test('refused unless allowlisted (the default allows none)', async () => {
    await refused(
      `LOAD CSV FROM '${base}/data/x.csv' AS r RETURN r`,
      /not allowed by the configuration property 'dbms.security.load_url_allowlist'/,
    );
  });

  test('an allowlisted prefix is streamed; a redirect outside the prefix is refused', async () => {
    const open = await GraphDB.open({ dataDir: join(dir, 'http'), search: false, files: { urlAllowlist: [`${base}/data/`] } });
    try {
      assert.deepEqual(await rows(open.session(), `LOAD CSV FROM '${base}/data/x.csv' AS r RETURN r`), [
        { r: ['1', '2'] },
        { r: ['3', '4'] },
      ]);
      await refused(`LOAD CSV FROM '${base}/private/x.csv' AS r RETURN r`, /load_url_allowlist/, EXTERNAL, open);
      await refused(`LOAD CSV FROM '${base}/data/../redirect' AS r RETURN r`, /load_url_allowlist/, EXTERNAL, open);
    } finally {
      await open.close();
    }
  });
});
