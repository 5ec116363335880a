/**
 * Cypher script import and export: the export's batched shape (`:param rows` + `UNWIND $rows`)
 * loads through the bulk loader and gives the graph a CSV import gives, and so does running the
 * same script statement by statement; hand-written scripts with cypher-shell's `:param`,
 * `:begin` / `:commit` / `:rollback`; scripts that leave the export's shape fall back to Cypher's
 * own result; progress; the plain-literal reader against the engine.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { isDeepStrictEqual } from 'node:util';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { GraphDB } from '../../src/engine/index.js';
import { exportGraph, importGraph, type ImportProgress } from '../../src/engine/transfer/index.js';
import { literalValue } from '../../src/engine/transfer/cypher-params.js';
import { EVERY_TYPE_SCRIPT, fingerprint, runAll, tempDir } from './helpers.js';

const temp = tempDir();
let source: GraphDB;
let script: string;
let csvCopy: string[];

before(async () => {
  source = await GraphDB.open({ dataDir: join(temp.dir, 'source') });
  await runAll(source, EVERY_TYPE_SCRIPT);
  // Enough rows for several batches of each shape, and shapes that change from row to row.
  await runAll(
    source,
    'UNWIND range(0, 2499) AS i CREATE (:Item {i: i, name: "item " + i, odd: CASE WHEN i % 2 = 1 THEN true END})',
    'MATCH (a:Item), (b:Item) WHERE b.i = (a.i * 7 + 3) % 2500 CREATE (a)-[:NEXT {weight: a.i % 5}]->(b)',
    'MATCH (a:Item {i: 1}), (b:Item {i: 2}) CREATE (a)-[:NEXT]->(b)',
  );
  script = join(temp.dir, 'graph.cypher');
  await exportGraph(source, { format: 'cypher', target: script });
  const csvDir = join(temp.dir, 'csv');
  await exportGraph(source, { format: 'csv', target: csvDir });
  const db = await GraphDB.open({ dataDir: join(temp.dir, 'csv-copy') });
  const imported = await importGraph(db, {
    format: 'csv',
    inputs: [
      { file: join(csvDir, 'nodes.csv'), kind: 'nodes' },
      { file: join(csvDir, 'relationships.csv'), kind: 'relationships' },
    ],
  });
  assert.equal(imported.completed, true, JSON.stringify(imported.errors));
  csvCopy = await fingerprint(db);
  await db.close();
});
after(async () => {
  await source.close();
  temp.cleanup();
});

/** Imports `file` into a fresh database; returns the summary, the graph's fingerprint and whether the temporary schema is gone. */
async function importInto(name: string, file: string, progress?: (p: ImportProgress) => void) {
  const db = await GraphDB.open({ dataDir: join(temp.dir, name) });
  try {
    const summary = await importGraph(db, {
      format: 'cypher',
      inputs: [{ file }],
      ...(progress ? { onProgress: progress, progressIntervalMs: 1 } : {}),
    });
    const session = db.session();
    const { records } = await (await session.run('SHOW CONSTRAINTS YIELD name RETURN collect(name) AS names')).pull(-1);
    await session.close();
    const jsonl = join(temp.dir, `${name}.jsonl`);
    await exportGraph(db, { format: 'jsonl', target: jsonl });
    return { summary, graph: await fingerprint(db), constraints: records[0][0], jsonl: readFileSync(jsonl, 'utf8') };
  } finally {
    await db.close();
  }
}

/** The Item part of a graph (the every-type part has values CSV cannot hold). */
function items(lines: string[]): string[] {
  return lines.filter((l) => l.startsWith('(Item '));
}

test('the export is batched: :param rows, UNWIND $rows, :begin/:commit, the temporary constraint around it', () => {
  const text = readFileSync(script, 'utf8');
  const lines = text.split('\n');
  assert.match(lines[1], /^CREATE CONSTRAINT __graphdb_import_id IF NOT EXISTS/);
  const params = lines.filter((l) => l.startsWith(':param rows => ['));
  assert.ok(params.length >= 6, `${params.length} batches`);
  assert.ok(
    lines.includes(
      'UNWIND $rows AS row MATCH (a:__GraphdbImport {__graphdb_id: row[0]}), (b:__GraphdbImport {__graphdb_id: row[1]}) CREATE (a)-[:NEXT {weight: row[2]}]->(b);',
    ),
  );
  assert.ok(lines.includes('UNWIND $rows AS row CREATE (n:__GraphdbImport:Item {__graphdb_id: row[0], i: row[1], name: row[2]});'));
  assert.deepEqual(lines.slice(-5), [
    ':begin',
    'MATCH (n:__GraphdbImport) REMOVE n:__GraphdbImport, n.__graphdb_id;',
    ':commit',
    'DROP CONSTRAINT __graphdb_import_id;',
    '',
  ]);
});

test('an exported script loads in bulk, with progress, into the source graph, whose Item part a CSV import gives too', async () => {
  const seen: ImportProgress[] = [];
  const { summary, graph, constraints } = await importInto('bulk', script, (p) => seen.push(p));
  assert.equal(summary.completed, true, JSON.stringify(summary.errors));
  assert.equal(summary.bulkLoaded, true);
  assert.equal(summary.nodes, 2503);
  assert.deepEqual(graph, await fingerprint(source));
  assert.deepEqual(items(graph), items(csvCopy));
  assert.deepEqual(constraints, [], 'the temporary constraint is dropped');
  const last = seen.at(-1)!;
  assert.equal(last.bytesRead, last.totalBytes);
  assert.equal(last.nodes, 2503);
  assert.equal(last.relationships, summary.relationships);
});

test('the same script run statement by statement (it leaves the export shape) gives the same graph, node ids included', async () => {
  const text = readFileSync(script, 'utf8');
  const edited = join(temp.dir, 'edited.cypher');
  writeFileSync(edited, text.replace(':begin\nMATCH (n:__GraphdbImport) REMOVE', 'RETURN 1;\n:begin\nMATCH (n:__GraphdbImport) REMOVE'));
  const { summary, graph, constraints, jsonl } = await importInto('statements', edited);
  assert.equal(summary.completed, true, JSON.stringify(summary.errors));
  assert.equal(summary.bulkLoaded, false);
  // Node ids are the same; the bulk loader numbers relationships in its own order (as for CSV).
  const canonical = (text: string) =>
    text
      .split('\n')
      .map((line) => line.replace(/^\{"type":"relationship","id":"\d+",/, '{"type":"relationship",'))
      .sort();
  assert.deepEqual(canonical(jsonl), canonical((await importInto('bulk-again', script)).jsonl));
  assert.deepEqual(graph, await fingerprint(source));
  assert.deepEqual(items(graph), items(csvCopy));
  assert.deepEqual(constraints, []);
});

test('a relationship to a node no batch created is left out, as MATCH does, and a duplicate id fails with the constraint error', async () => {
  const rows = (ids: string) => `:param rows => [${ids}]`;
  const head = 'CREATE CONSTRAINT __graphdb_import_id IF NOT EXISTS FOR (n:__GraphdbImport) REQUIRE n.__graphdb_id IS UNIQUE;';
  const nodes = 'UNWIND $rows AS row CREATE (n:__GraphdbImport:P {__graphdb_id: row[0]});';
  const rels =
    'UNWIND $rows AS row MATCH (a:__GraphdbImport {__graphdb_id: row[0]}), (b:__GraphdbImport {__graphdb_id: row[1]}) CREATE (a)-[:R]->(b);';
  const tail = 'MATCH (n:__GraphdbImport) REMOVE n:__GraphdbImport, n.__graphdb_id;\nDROP CONSTRAINT __graphdb_import_id;\n';
  const missing = join(temp.dir, 'missing.cypher');
  writeFileSync(missing, [head, rows('[1], [2]'), nodes, rows('[1, 2], [1, 99]'), rels, tail].join('\n'));
  const loose = await importInto('missing', missing);
  assert.equal(loose.summary.completed, true, JSON.stringify(loose.summary.errors));
  assert.equal(loose.summary.bulkLoaded, false);
  assert.deepEqual(loose.graph, ['(P )', '(P )', '(P )-[R ]->(P )']);

  const duplicate = join(temp.dir, 'duplicate.cypher');
  writeFileSync(duplicate, [head, rows('[1], [1]'), nodes, tail].join('\n'));
  const failed = await importInto('duplicate', duplicate);
  assert.equal(failed.summary.completed, false);
  assert.equal(failed.summary.errors[0].line, 3);
  assert.match(failed.summary.errors[0].message, /already exists with label `__GraphdbImport` and property `__graphdb_id` = 1/);
  assert.deepEqual(failed.graph, []);
});

test('hand-written scripts: :param forms, :commit keeps what ran before a later error, :rollback discards, :param clear', async () => {
  const file = join(temp.dir, 'hand.cypher');
  writeFileSync(
    file,
    [
      ':param day => date("2020-01-31")',
      ':param {n: 2, names: ["a", "b"]}',
      ':begin',
      'UNWIND $names AS name CREATE (:H {name: name, day: $day, n: $n});',
      ':commit',
      'CREATE (:H {name: "discarded"});',
      ':rollback',
      ':param `odd name` => 1 + 2',
      'CREATE (:H {name: "sum", v: $`odd name`});',
      ':commit',
      ':param clear',
      'CREATE (:H {name: "late", v: $n});',
      '',
    ].join('\n'),
  );
  const { summary, graph } = await importInto('hand', file);
  assert.equal(summary.completed, false);
  assert.equal(summary.errors[0].line, 12);
  assert.match(summary.errors[0].message, /Expected parameter\(s\): n/);
  assert.deepEqual(graph, [
    '(H day={"$type":"date","value":"2020-01-31","epochDay":18292},n=2,name="a")',
    '(H day={"$type":"date","value":"2020-01-31","epochDay":18292},n=2,name="b")',
    '(H name="sum",v=3)',
  ]);

  const bad = join(temp.dir, 'bad-param.cypher');
  writeFileSync(bad, 'CREATE (:X);\n:param oops\n');
  const refused = await importInto('bad-param', bad);
  assert.equal(refused.summary.completed, false);
  assert.equal(refused.summary.errors[0].line, 2);
  assert.match(refused.summary.errors[0].message, /:param name => expression/);
  assert.deepEqual(refused.graph, [], 'nothing of the failed transaction is kept');
});

test('--batch-size and --resume are refused for Cypher scripts', async () => {
  const db = await GraphDB.open({ dataDir: join(temp.dir, 'refused') });
  try {
    await assert.rejects(
      importGraph(db, { format: 'cypher', inputs: [{ file: script }], batchSize: 10 }),
      /commits where its :commit lines say/,
    );
    await assert.rejects(importGraph(db, { format: 'cypher', inputs: [{ file: script }], resume: true }), /not resumable/);
  } finally {
    await db.close();
  }
});

test('plain literals read directly give the values the engine gives; anything else is left to the engine', async () => {
  const db = await GraphDB.open({ dataDir: join(temp.dir, 'literals') });
  const session = db.session();
  try {
    const same = [
      `[[0, 'p0', 0], [1, 'a\\'b\\n\\t\\\\ "q"', -1.5], [2, "dq \\" x", 1e5]]`,
      '{a: 1, `b c`: [true, false, null], d: {}}',
      '-9223372036854775808',
      ' [ 1 , 2 ] ',
      '-0.0',
      '1.0e300',
      `'\\u00e9x'`,
      'TRUE',
    ];
    for (const text of same) {
      const { records } = await (await session.run(`RETURN ${text} AS v`)).pull(-1);
      assert.ok(isDeepStrictEqual(literalValue(text), records[0][0]), text);
    }
    for (const text of ["date('2020-01-01')", '0x1F', '9223372036854775808', '[1,]', '1_000', '.5', '1 + 2', '[1] // c']) {
      assert.equal(literalValue(text), undefined, text);
    }
  } finally {
    await session.close();
    await db.close();
  }
});
