/**
 * POST /admin/restore into the running server, under concurrent read and write load through
 * neo4j-driver (Bolt) and fetch (HTTP): every reader sees the whole old state or the whole
 * restored state, never a mix; an explicit read transaction that began before the swap keeps
 * the old state to its end; writers are quiesced for the swap and resume afterwards (a write
 * that raced the swap is retried by the driver); a dry run changes nothing; the directory format
 * and the JSON backup file both restore; bad inputs are refused and change nothing.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import neo4j, { type Driver } from 'neo4j-driver';
import { commit, request, startTestServer, type TestServer } from '../http/helpers.js';

/** What one read saw: the generation of every Item and how many there were. */
type Seen = string;

const STATE_QUERY = 'MATCH (n:Item) WITH n.gen AS gen, count(*) AS c ORDER BY gen RETURN collect(gen + ":" + toString(c)) AS s';

describe('restore into the running server', () => {
  let t: TestServer;
  let driver: Driver;
  let scratch: string;
  before(async () => {
    scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'graphdb-restore-running-'));
    // Read workers: auto-commit reads run on worker threads with connections of their own, so the
    // swap is checked on that path too (explicit transactions run on the main thread).
    t = await startTestServer({
      'server.bolt_enabled': true,
      'server.bolt_port': 0,
      'server.bolt_address': '127.0.0.1',
      'server.read_workers': 2,
      // The setup writes must be durable when answered: a pure CREATE would otherwise be answered 202 before its flush.
      'async_writes.enabled': false,
    });
    driver = neo4j.driver(`bolt://127.0.0.1:${t.server.bolt!.port}`, neo4j.auth.basic('neo4j', 'any'), {
      maxTransactionRetryTime: 30_000,
    });
  });
  after(async () => {
    await driver.close();
    await t.stop();
    fs.rmSync(scratch, { recursive: true, force: true });
  });

  async function state(): Promise<Seen> {
    const result = await driver.executeQuery(STATE_QUERY, {}, { routing: neo4j.routing.READ });
    return (result.records[0].get('s') as string[]).join(',');
  }

  async function run(statement: string): Promise<void> {
    const answer = await commit(t.url, [statement]);
    assert.deepEqual(answer.body.errors, [], JSON.stringify(answer.body.errors));
  }

  it('restores a backup directory under read and write load: no reader sees a mix, writes resume', async () => {
    await run('UNWIND range(1, 300) AS i CREATE (:Item {gen: "A", i: i})');
    await run('CREATE INDEX item_i FOR (n:Item) ON (n.i)');
    const output = path.join(scratch, 'backup-a');
    const backup = await request(`${t.url}/admin/backup`, { method: 'POST', json: { output } });
    assert.equal(backup.status, 200, backup.text);
    await run('MATCH (n:Item) SET n.gen = "B"');
    await run('UNWIND range(301, 350) AS i CREATE (:Item {gen: "B", i: i})');
    const OLD = 'B:350';
    const RESTORED = 'A:300';
    assert.equal(await state(), OLD);

    const dry = await request(`${t.url}/admin/restore`, { method: 'POST', json: { input: output, dryRun: true } });
    assert.equal(dry.status, 200, dry.text);
    assert.equal(dry.body.dryRun, true);
    assert.equal(dry.body.format, 'directory');
    assert.deepEqual(
      dry.body.databases.map((d: { database: string; action: string; current: { nodes: number }; restored: { nodes: number } }) => [
        d.database,
        d.action,
        d.current.nodes,
        d.restored.nodes,
      ]),
      [['graphdb', 'replace', 350, 300]],
    );
    assert.equal(dry.body.skipped[0].database, 'system');
    assert.equal(await state(), OLD, 'the dry run changed nothing');

    // An explicit read transaction that saw the old state before the swap.
    const longSession = driver.session({ defaultAccessMode: neo4j.session.READ });
    const longTx = longSession.beginTransaction();
    const before = await longTx.run(STATE_QUERY);
    assert.equal((before.records[0].get('s') as string[]).join(','), OLD);

    let restoring = true;
    const seen = new Map<Seen, number>();
    const note = (s: Seen) => seen.set(s, (seen.get(s) ?? 0) + 1);
    const boltReader = async () => {
      do note(await state());
      while (restoring);
      note(await state());
    };
    const httpReader = async () => {
      do {
        const answer = await commit(t.url, [STATE_QUERY]);
        assert.deepEqual(answer.body.errors, [], JSON.stringify(answer.body.errors));
        note((answer.body.results[0].data[0].row[0] as string[]).join(','));
      } while (restoring);
    };
    let writes = 0;
    const writer = async () => {
      do {
        await driver.executeQuery('CREATE (:W {at: timestamp()})');
        writes++;
      } while (restoring);
    };
    const load = [boltReader(), boltReader(), boltReader(), httpReader(), httpReader(), writer()];
    // Let every reader finish at least one read of the old state first.
    while ((seen.get(OLD) ?? 0) < 5) await new Promise((resolve) => setImmediate(resolve));

    const restore = await request(`${t.url}/admin/restore`, { method: 'POST', json: { input: path.join(output, 'manifest.json') } });
    restoring = false;
    await Promise.all(load);
    assert.equal(restore.status, 200, restore.text);
    assert.equal(restore.body.dryRun, false);
    assert.deepEqual(
      restore.body.databases.map((d: { database: string; action: string }) => [d.database, d.action]),
      [['graphdb', 'replace']],
    );

    assert.deepEqual([...seen.keys()].sort(), [OLD, RESTORED].sort(), `states seen: ${JSON.stringify([...seen])}`);
    assert.ok((seen.get(RESTORED) ?? 0) >= 3, 'every Bolt reader read the restored state after the swap');
    assert.ok(writes > 0);

    const after = await longTx.run(STATE_QUERY);
    assert.equal((after.records[0].get('s') as string[]).join(','), OLD, 'a reader that began before the swap keeps the old state');
    await longTx.commit();
    await longSession.close();

    assert.equal(await state(), RESTORED);
    const created = await driver.executeQuery('CREATE (w:After {k: 1}) RETURN w.k AS k');
    assert.equal(Number(created.records[0].get('k')), 1, 'writes resume after the restore');
    const count = await driver.executeQuery('MATCH (w:After) RETURN count(w) AS c');
    assert.equal(Number(count.records[0].get('c')), 1);
    const indexes = await driver.executeQuery('SHOW INDEXES YIELD name WHERE name = "item_i" RETURN name');
    assert.equal(indexes.records.length, 1, 'the schema came back with the file');
    const seek = await driver.executeQuery('MATCH (n:Item {i: 42}) RETURN n.gen AS gen');
    assert.equal(seek.records[0].get('gen'), 'A');
  });

  it('restores a JSON backup file (written by POST /admin/backup to a .json output) into a new and an existing database', async () => {
    await run('CREATE DATABASE jsondb');
    const http = (statement: string) => commit(t.url, [statement], 'jsondb');
    assert.deepEqual(
      (await http('CREATE (:P {name: "Ann", born: date("1990-01-02")})-[:KNOWS {since: 2020}]->(:P {name: "Bob"})')).body.errors,
      [],
    );
    assert.deepEqual((await http('CREATE CONSTRAINT p_name FOR (p:P) REQUIRE p.name IS UNIQUE')).body.errors, []);
    const file = path.join(scratch, 'jsondb.json');
    const backup = await request(`${t.url}/admin/backup`, { method: 'POST', json: { output: file, databases: ['jsondb'] } });
    assert.equal(backup.status, 200, backup.text);
    assert.equal(JSON.parse(fs.readFileSync(file, 'utf8')).format, 'graphdb-json-backup');
    assert.deepEqual((await http('MATCH (n) DETACH DELETE n')).body.errors, []);
    assert.deepEqual((await http('CREATE (:Other)')).body.errors, []);

    const restore = await request(`${t.url}/admin/restore`, { method: 'POST', json: { input: file } });
    assert.equal(restore.status, 200, restore.text);
    assert.equal(restore.body.format, 'json');
    const rows = await http(
      'MATCH (a:P)-[r:KNOWS]->(b:P) OPTIONAL MATCH (o:Other) RETURN a.name, toString(a.born), r.since, b.name, count(o)',
    );
    assert.deepEqual(rows.body.results[0].data[0].row, ['Ann', '1990-01-02', 2020, 'Bob', 0]);
    await assert.rejects(
      driver.executeQuery('CREATE (:P {name: "Ann"})', {}, { database: 'jsondb' }),
      (error: { code: string }) => error.code === 'Neo.ClientError.Schema.ConstraintValidationFailed',
      'the constraint came back',
    );

    // The same file restores a database the server does not have under a selected name list.
    await run('DROP DATABASE jsondb');
    const again = await request(`${t.url}/admin/restore`, { method: 'POST', json: { input: file, databases: ['jsondb'] } });
    assert.equal(again.status, 200, again.text);
    assert.equal(again.body.databases[0].action, 'create');
    const back = await commit(t.url, ['MATCH (n:P) RETURN count(n)'], 'jsondb');
    assert.deepEqual(back.body.results[0].data[0].row, [2]);
  });

  it('refuses a missing input, a non-backup, a corrupt file and an unknown database, changing nothing', async () => {
    const before = await state();
    const missing = await request(`${t.url}/admin/restore`, { method: 'POST', json: { input: path.join(scratch, 'nope') } });
    assert.equal(missing.status, 400);
    const notJson = path.join(scratch, 'bad.json');
    fs.writeFileSync(notJson, '{"format": "something-else"}');
    const bad = await request(`${t.url}/admin/restore`, { method: 'POST', json: { input: notJson } });
    assert.equal(bad.status, 400);
    assert.match(bad.body.errors[0].message, /not a graphdb JSON backup/);
    const output = path.join(scratch, 'backup-c');
    assert.equal((await request(`${t.url}/admin/backup`, { method: 'POST', json: { output } })).status, 200);
    const unknown = await request(`${t.url}/admin/restore`, { method: 'POST', json: { input: output, databases: ['zzz'] } });
    assert.equal(unknown.status, 400);
    assert.match(unknown.body.errors[0].message, /no database named 'zzz'/);
    const manifest = JSON.parse(fs.readFileSync(path.join(output, 'manifest.json'), 'utf8')) as {
      databases: { name: string; file: string }[];
    };
    fs.appendFileSync(path.join(output, manifest.databases.find((d) => d.name === 'graphdb')!.file), 'x');
    const corrupt = await request(`${t.url}/admin/restore`, { method: 'POST', json: { input: output } });
    assert.equal(corrupt.status, 400);
    assert.match(corrupt.body.errors[0].message, /checksum/);
    assert.equal(await state(), before);
    const files = fs.readdirSync(t.dataDir).filter((f) => f.startsWith('graphdb.restored-') && !f.endsWith('-wal') && !f.endsWith('-shm'));
    assert.ok(files.length <= 1, `one live restored file at most: ${files.join(', ')}`);
  });
});
