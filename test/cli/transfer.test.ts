/** Import/export round trips of every value type, corrupt inputs, and the statement splitter. */
import { inspect } from 'node:util';
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { GraphDB } from '../../src/engine/index.js';
import { decodeValue, encodeValue, exportGraph, importGraph, splitStatements } from '../../src/engine/transfer/index.js';
import { EVERY_TYPE_SCRIPT, addBytes, fingerprint, runAll, tempDir } from './helpers.js';

const temp = tempDir();
let source: GraphDB;

before(async () => {
  source = await GraphDB.open({ dataDir: join(temp.dir, 'source') });
  await runAll(source, EVERY_TYPE_SCRIPT);
  await addBytes(source);
});
after(async () => {
  await source.close();
  temp.cleanup();
});

async function roundTrip(format: 'jsonl' | 'csv' | 'cypher', name: string): Promise<{ copy: string[]; lossy: readonly string[] }> {
  const target = format === 'csv' ? join(temp.dir, `${name}-csv`) : join(temp.dir, `${name}.${format}`);
  const exported = await exportGraph(source, { format, target });
  assert.equal(exported.nodes, 4);
  assert.equal(exported.relationships, 3);
  const db = await GraphDB.open({ dataDir: join(temp.dir, `${name}-copy`) });
  try {
    const inputs =
      format === 'csv'
        ? [
            { file: join(target, 'nodes.csv'), kind: 'nodes' as const },
            { file: join(target, 'relationships.csv'), kind: 'relationships' as const },
          ]
        : [{ file: target }];
    const summary = await importGraph(db, { format, inputs });
    assert.equal(summary.completed, true, JSON.stringify(summary.errors));
    return { copy: await fingerprint(db), lossy: exported.lossyKeys };
  } finally {
    await db.close();
  }
}

test('JSON Lines: export -> import gives an identical graph with every value type', async () => {
  const { copy, lossy } = await roundTrip('jsonl', 'jsonl');
  assert.deepEqual(lossy, []);
  assert.deepEqual(copy, await fingerprint(source));
});

test('CSV: round trip is exact except the reported keys', async () => {
  const { copy, lossy } = await roundTrip('csv', 'csv');
  assert.deepEqual([...lossy], ['tags']);
  const strip = (lines: string[]) => lines.map((l) => l.replace(/tags=\[[^\]]*\],/, ''));
  assert.deepEqual(strip(copy), strip(await fingerprint(source)));
});

test('Cypher script: round trip is exact except byte arrays (reported)', async () => {
  const { copy, lossy } = await roundTrip('cypher', 'cypher');
  assert.deepEqual([...lossy].sort(), ['data', 'none']);
  const original = (await fingerprint(source)).map((l) => (l.startsWith('(Blob ') ? '(Blob )' : l));
  assert.deepEqual(copy, original);
});

test('typed JSON keeps integers, floats and special values apart', () => {
  for (const value of [1n, 1.0, -0.0, NaN, Infinity, 2n ** 62n, 0.1, 1e300, -(2n ** 63n)]) {
    const back = decodeValue(JSON.parse(JSON.stringify(encodeValue(value))));
    assert.ok(Object.is(back, value) || back === value, `${inspect(value)} came back as ${inspect(back)}`);
  }
});

test('a corrupt JSONL file reports line numbers and leaves the database unchanged', async () => {
  const db = await GraphDB.open({ dataDir: join(temp.dir, 'corrupt') });
  try {
    await runAll(db, "CREATE (:Existing {name: 'keep'})");
    const before = await fingerprint(db);
    const file = join(temp.dir, 'corrupt.jsonl');
    writeFileSync(
      file,
      [
        '{"type":"node","id":"1","labels":["A"],"properties":{"x":1}}',
        '{"type":"node","id":"2","labels":["A"],"properties":{"x":2}}',
        '{"type":"node","id":"3", oops',
        '{"type":"relationship","label":"R","start":{"id":"1"},"end":{"id":"99"}}',
        '{"type":"node","id":"4","labels":["A"],"properties":{"when":{"$type":"date"}}}',
      ].join('\n') + '\n',
    );
    const failed = await importGraph(db, { format: 'jsonl', inputs: [{ file }] });
    assert.equal(failed.completed, false);
    assert.deepEqual(
      failed.errors.map((e) => `${e.file}:${e.line}`),
      [`${file}:3`],
    );
    assert.deepEqual(await fingerprint(db), before);

    const batched = await importGraph(db, { format: 'jsonl', inputs: [{ file }], batchSize: 1 });
    assert.equal(batched.completed, false);
    assert.equal(batched.nodes, 2, 'batches before the bad row stay committed');

    await assert.rejects(
      importGraph(db, { format: 'jsonl', inputs: [{ file }], onError: 'skip' }),
      /holds an unfinished import of these files/,
    );
    const skipped = await importGraph(db, { format: 'jsonl', inputs: [{ file }], onError: 'skip', resume: true });
    assert.equal(skipped.completed, true);
    assert.deepEqual(skipped.resumedAfter, { input: 0, file, line: 2, batches: 2 });
    assert.deepEqual(
      skipped.errors.map((e) => e.line),
      [3, 4, 5],
    );
    assert.match(skipped.errors[1].message, /unknown node id '99'/);
    assert.match(skipped.errors[2].message, /epochDay/);
    assert.equal(skipped.nodes, 2);
    assert.equal((await fingerprint(db)).length, before.length + 2, 'the resumed import wrote nothing twice');
  } finally {
    await db.close();
  }
});

test('a corrupt CSV file reports file:line and imports nothing', async () => {
  const db = await GraphDB.open({ dataDir: join(temp.dir, 'corrupt-csv') });
  try {
    const nodes = join(temp.dir, 'people.csv');
    writeFileSync(
      nodes,
      'id:ID(P),name,age:int,tags:string[],:LABEL\n1,Ann,42,a;b,Person\n2,"Bob, ""B""",x7,c,Person\n3,"multi\nline",3,,Person\n',
    );
    const failed = await importGraph(db, { format: 'csv', inputs: [{ file: nodes, kind: 'nodes' }] });
    assert.equal(failed.completed, false);
    assert.equal(failed.errors[0].line, 3);
    assert.match(failed.errors[0].message, /'x7' is not an integer/);
    assert.equal(db.stats().nodeCount, 0);
    const rels = join(temp.dir, 'knows.csv');
    writeFileSync(rels, ':START_ID(P),:END_ID(P),since:date\n1,3,2020-01-02\n');
    const skipped = await importGraph(db, {
      format: 'csv',
      onError: 'skip',
      inputs: [
        { file: nodes, kind: 'nodes', labels: ['Imported'] },
        { file: rels, kind: 'relationships', type: 'KNOWS' },
      ],
    });
    assert.equal(skipped.completed, true);
    assert.equal(skipped.nodes, 2);
    assert.equal(skipped.relationships, 1);
    const session = db.session();
    const result = await session.run(
      "MATCH (a:Person:Imported {id: '1'})-[k:KNOWS]->(b) RETURN a.tags AS tags, b.name AS name, toString(k.since) AS since",
    );
    const { records } = await result.pull(-1);
    await session.close();
    assert.deepEqual(records, [[['a', 'b'], 'multi\nline', '2020-01-02']]);
  } finally {
    await db.close();
  }
});

test('Cypher script import: :begin/:commit lines are accepted, an error rolls back with its file line', async () => {
  const db = await GraphDB.open({ dataDir: join(temp.dir, 'script') });
  try {
    const good = join(temp.dir, 'good.cypher');
    writeFileSync(good, ':begin\nCREATE (:S {v: 1});\nCREATE (:S {v: 2});\n:commit\n');
    const ok = await importGraph(db, { format: 'cypher', inputs: [{ file: good }] });
    assert.equal(ok.completed, true, JSON.stringify(ok.errors));
    assert.equal(ok.nodes, 2);
    const bad = join(temp.dir, 'bad.cypher');
    writeFileSync(bad, 'CREATE (:S {v: 3});\n\nCREATE (:S {v: 4})\nRETURN nope;\n');
    const failed = await importGraph(db, { format: 'cypher', inputs: [{ file: bad }] });
    assert.equal(failed.completed, false);
    assert.equal(failed.errors[0].line, 4);
    assert.match(failed.errors[0].message, /nope/);
    assert.equal(db.stats().nodeCount, 2, 'the failed script left nothing behind');
  } finally {
    await db.close();
  }
});

test('statement splitting ignores semicolons in strings, names and comments and keeps line numbers', () => {
  const script = 'RETURN \'a;b\' AS x;\n// c;\nMATCH (`n;`)\n/* ; */ RETURN 1;\n\nRETURN "q\\";" AS y';
  assert.deepEqual(splitStatements(script), [
    { text: "RETURN 'a;b' AS x", line: 1 },
    { text: '// c;\nMATCH (`n;`)\n/* ; */ RETURN 1', line: 3 },
    { text: 'RETURN "q\\";" AS y', line: 6 },
  ]);
});
