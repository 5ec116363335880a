/**
 * `graphdb import` at neo4j-admin parity: header files (`header.csv,part1.csv,part2.csv.gz`), gzipped
 * input, TAB delimiters, standard input, bad-entry tolerance with a report file, one JSON document
 * on --json whether the import succeeds or fails, and the progress bar on a terminal (pty) only.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { cli, cliInPty, ensureBuilt, oneLine, shellQuery } from './cli-process.js';
import { tempDir } from './helpers.js';

const temp = tempDir();
before(() => ensureBuilt());
after(() => temp.cleanup());

function file(name: string, text: string): string {
  const path = join(temp.dir, name);
  writeFileSync(path, name.endsWith('.gz') ? gzipSync(text) : text);
  return path;
}

test('header files with TAB-delimited parts, one of them gzipped', () => {
  const header = file('people-header.tsv', 'personId:ID(Person)\tname\tage:int\ttags:string[]\n');
  const part1 = file('people-1.tsv', '1\tAnn\t42\ta;b\n2\tBob\t7\t\n');
  const part2 = file('people-2.tsv.gz', '3\t"Carol, Jr."\t35\tc\n');
  const relHeader = file('knows-header.tsv', ':START_ID(Person)\t:END_ID(Person)\tsince:int\n');
  const rels = file('knows-1.tsv.gz', '1\t2\t2001\n2\t3\t2002\n');
  const dataDir = join(temp.dir, 'parts');
  const run = cli([
    'import',
    '--data-dir',
    dataDir,
    '--create',
    '--delimiter',
    'TAB',
    `--nodes=Person=${header},${part1},${part2}`,
    `--relationships=KNOWS=${relHeader},${rels}`,
    '--json',
  ]);
  assert.equal(run.status, 0, run.stderr);
  const summary = JSON.parse(run.stdout) as { nodes: number; relationships: number; completed: boolean };
  assert.equal(summary.completed, true);
  assert.equal(summary.nodes, 3);
  assert.equal(summary.relationships, 2);
  assert.equal(
    shellQuery(dataDir, 'MATCH (p:Person) RETURN p.personId AS id, p.name AS name, p.age AS age, p.tags AS tags ORDER BY id'),
    'id, name, age, tags\n"1", "Ann", 42, [\'a\', \'b\']\n"2", "Bob", 7, null\n"3", "Carol, Jr.", 35, [\'c\']\n',
  );
  assert.equal(
    shellQuery(dataDir, 'MATCH (a)-[k:KNOWS]->(b) RETURN a.name AS a, k.since AS since, b.name AS b ORDER BY since'),
    'a, since, b\n"Ann", 2001, "Bob"\n"Bob", 2002, "Carol, Jr."\n',
  );
});

test('a delimiter that is neither one character, TAB nor \\t is refused', () => {
  const nodes = file('d.csv', 'id:ID\n1\n');
  const run = cli(['import', '--data-dir', join(temp.dir, 'delim'), '--create', `--nodes=${nodes}`, '--delimiter', 'tab-ish']);
  assert.equal(run.status, 2);
  assert.match(run.stderr, /--delimiter must be one character, TAB or \\t/);
});

test('JSON Lines from standard input', () => {
  const lines = [
    '{"type":"node","id":"a","labels":["Doc"],"properties":{"title":"one"}}',
    '{"type":"node","id":"b","labels":["Doc"],"properties":{"title":"two"}}',
    '{"type":"relationship","label":"CITES","start":{"id":"a"},"end":{"id":"b"},"properties":{}}',
  ].join('\n');
  const dataDir = join(temp.dir, 'stdin');
  const run = cli(['import', '-', '--format', 'jsonl', '--data-dir', dataDir, '--create', '--json'], { input: lines + '\n' });
  assert.equal(run.status, 0, run.stderr);
  assert.equal(JSON.parse(run.stdout).nodes, 2);
  assert.equal(shellQuery(dataDir, 'MATCH (:Doc {title: "one"})-[:CITES]->(d) RETURN d.title AS t'), 't\n"two"\n');
});

test('bad relationships skipped within --bad-tolerance and reported; past it the import fails and keeps nothing', () => {
  const nodes = file('n.csv', 'id:ID,name\n1,a\n2,b\n');
  const rels = file('r.csv', ':START_ID,:END_ID,:TYPE\n1,2,LINK\n1,99,LINK\n98,2,LINK\n2,97,LINK\n');
  const report = join(temp.dir, 'import.report');
  const tolerated = join(temp.dir, 'tolerated');
  const ok = cli([
    'import',
    '--data-dir',
    tolerated,
    '--create',
    `--nodes=${nodes}`,
    `--relationships=${rels}`,
    '--skip-bad-relationships',
    '--bad-tolerance',
    '3',
    '--report-file',
    report,
  ]);
  assert.equal(ok.status, 0, ok.stderr);
  assert.equal(shellQuery(tolerated, 'MATCH ()-[r:LINK]->() RETURN count(r) AS n'), 'n\n1\n');
  const lines = readFileSync(report, 'utf8').trim().split('\n');
  assert.deepEqual(
    lines.map((l) => l.replace(/^.*r\.csv:/, 'r.csv:')),
    [
      "r.csv:3: Relationship refers to unknown node id '99'",
      "r.csv:4: Relationship refers to unknown node id '98'",
      "r.csv:5: Relationship refers to unknown node id '97'",
    ],
  );

  const strict = join(temp.dir, 'strict');
  const failed = cli([
    'import',
    '--data-dir',
    strict,
    '--create',
    `--nodes=${nodes}`,
    `--relationships=${rels}`,
    '--skip-bad-relationships',
    '--bad-tolerance',
    '2',
    '--json',
  ]);
  assert.equal(failed.status, 1);
  const summary = JSON.parse(failed.stdout) as { completed: boolean; errors: { line: number; message: string }[] };
  assert.equal(summary.completed, false, 'exactly one JSON document, saying the import failed');
  assert.match(summary.errors.at(-1)!.message, /the bad-entry tolerance is exceeded/);
  assert.equal(shellQuery(strict, 'MATCH (n) RETURN count(n) AS n'), 'n\n0\n', 'nothing of the failed import is kept');

  const noSkip = cli(['import', '--data-dir', join(temp.dir, 'no-skip'), '--create', `--nodes=${nodes}`, `--relationships=${rels}`]);
  assert.equal(noSkip.status, 1, 'without --skip-bad-relationships the first bad relationship fails the import');
  assert.match(noSkip.stderr, /r\.csv:3/);
});

test('duplicate node ids skipped with --skip-duplicate-nodes', () => {
  const nodes = file('dup.csv', 'id:ID,name\n1,first\n1,second\n2,other\n');
  const dataDir = join(temp.dir, 'dups');
  const failed = cli(['import', '--data-dir', dataDir, '--create', `--nodes=${nodes}`]);
  assert.equal(failed.status, 1);
  const ok = cli(['import', '--data-dir', dataDir, `--nodes=${nodes}`, '--skip-duplicate-nodes']);
  assert.equal(ok.status, 0, ok.stderr);
  assert.equal(shellQuery(dataDir, 'MATCH (n) RETURN n.name AS name ORDER BY name'), 'name\n"first"\n"other"\n');
});

test('--quote sets the quote character, doubled inside a quoted field', () => {
  const nodes = file('quoted.csv', "id:ID,name\n1,'Ann, Jr.'\n2,'it''s'\n3,\"plain\"\n");
  const dataDir = join(temp.dir, 'quote');
  const run = cli(['import', '--data-dir', dataDir, '--create', `--nodes=Q=${nodes}`, '--quote', "'"]);
  assert.equal(run.status, 0, run.stderr);
  assert.equal(shellQuery(dataDir, 'MATCH (q:Q) RETURN q.name AS name ORDER BY q.id'), 'name\n"Ann, Jr."\n"it\'s"\n"\\"plain\\""\n');
  const clash = cli(['import', '--data-dir', dataDir, `--nodes=${nodes}`, '--quote', ',']);
  assert.equal(clash.status, 2);
  assert.match(oneLine(clash.stderr), /--delimiter, --array-delimiter and --quote must be different characters/);
});

test('a full import (the default) into a database that is not empty is refused: running an import twice never duplicates', () => {
  const nodes = file('once.csv', 'id:ID,name\n1,a\n2,b\n');
  const dataDir = join(temp.dir, 'twice');
  assert.equal(cli(['import', '--data-dir', dataDir, '--create', `--nodes=${nodes}`]).status, 0);
  const again = cli(['import', '--data-dir', dataDir, `--nodes=${nodes}`, '--json']);
  assert.equal(again.status, 1);
  assert.match(oneLine(again.stdout + again.stderr), /is not empty: a full import needs an empty database.*--mode incremental/);
  assert.equal(shellQuery(dataDir, 'MATCH (n) RETURN count(n) AS n'), 'n\n2\n');
});

test('--mode incremental: relationships refer to nodes already in the database; a re-run is refused, or a no-op with --skip-duplicate-nodes', () => {
  const dataDir = join(temp.dir, 'incremental');
  const people = file('inc-people.csv', 'uuid:ID(Person){label:Person},name\np1,Ann\np2,Bob\n');
  assert.equal(cli(['import', '--data-dir', dataDir, '--create', `--nodes=Person=${people}`]).status, 0);

  const morePeople = file('inc-more.csv', 'uuid:ID(Person){label:Person},name\np3,Cid\n');
  const knows = file('inc-knows.csv', ':START_ID(Person),:END_ID(Person),since:int\np1,p2,2001\np3,p1,2003\n');
  const args = ['import', '--data-dir', dataDir, '--mode', 'incremental', `--nodes=Person=${morePeople}`, `--relationships=KNOWS=${knows}`];
  const unconstrained = cli(args);
  assert.equal(unconstrained.status, 1);
  assert.match(
    oneLine(unconstrained.stderr),
    /property uniqueness constraint, and there is none on :Person\(uuid\).*CREATE CONSTRAINT FOR \(n:Person\) REQUIRE n\.uuid IS UNIQUE/,
  );
  shellQuery(dataDir, 'CREATE CONSTRAINT FOR (n:Person) REQUIRE n.uuid IS UNIQUE');

  const added = cli([...args, '--json']);
  assert.equal(added.status, 0, added.stderr + added.stdout);
  assert.deepEqual(pick(JSON.parse(added.stdout)), { nodes: 1, relationships: 2, skipped: 0 });
  const graph = 'MATCH (a:Person)-[k:KNOWS]->(b:Person) RETURN a.name AS a, k.since AS since, b.name AS b ORDER BY since';
  const expected = 'a, since, b\n"Ann", 2001, "Bob"\n"Cid", 2003, "Ann"\n';
  assert.equal(shellQuery(dataDir, graph), expected);

  const rerun = cli(args);
  assert.equal(rerun.status, 1, 'the same incremental import again is refused');
  assert.match(rerun.stderr, /Node with id 'p3' is already in the database \(:Person \{uuid\}\)/);
  const idempotent = cli([...args, '--skip-duplicate-nodes', '--json']);
  assert.equal(idempotent.status, 0, idempotent.stderr);
  assert.deepEqual(pick(JSON.parse(idempotent.stdout)), { nodes: 0, relationships: 0, skipped: 3 });
  assert.equal(shellQuery(dataDir, graph), expected, 'nothing was written twice');
  assert.equal(shellQuery(dataDir, 'MATCH (n) RETURN count(n) AS n'), 'n\n3\n');
});

test('--id-type integer compares ids as numbers and stores them as INTEGER; a header id-type overrides it', () => {
  const dataDir = join(temp.dir, 'integer-ids');
  const people = file('int-people.csv', 'pid:ID(P),name\n007,Bond\n8,Other\n');
  const teams = file('int-teams.csv', 'tid:ID(T){id-type:string},name\n007,Blue\n');
  const rels = file('int-rels.csv', ':START_ID(P),:END_ID(T)\n7,007\n0008,007\n');
  const bad = file('int-bad.csv', 'pid:ID(Q),name\nx1,Nope\n');
  const run = cli([
    'import',
    '--data-dir',
    dataDir,
    '--create',
    '--id-type',
    'integer',
    `--nodes=Person=${people}`,
    `--nodes=Team=${teams}`,
    `--relationships=IN=${rels}`,
  ]);
  assert.equal(run.status, 0, run.stderr);
  assert.equal(
    shellQuery(dataDir, 'MATCH (p:Person)-[:IN]->(t:Team) RETURN p.pid AS pid, t.tid AS tid ORDER BY pid'),
    'pid, tid\n7, "007"\n8, "007"\n',
  );
  const refused = cli(['import', '--data-dir', join(temp.dir, 'bad-int'), '--create', '--id-type', 'integer', `--nodes=${bad}`]);
  assert.equal(refused.status, 1);
  assert.match(refused.stderr, /'x1' is not an integer id/);
});

test("--id-type actual: relationship files refer to the database's node ids", () => {
  const dataDir = join(temp.dir, 'actual-ids');
  assert.equal(cli(['shell', '--data-dir', dataDir, '--create', 'CREATE (:A {n: 1}), (:A {n: 2})']).status, 0);
  const ids = shellQuery(dataDir, 'MATCH (a:A) RETURN id(a) AS id ORDER BY a.n').trim().split('\n').slice(1);
  const rels = file('actual-rels.csv', `:START_ID,:END_ID,:TYPE\n${ids[0]},${ids[1]},NEXT\n${ids[1]},999999,NEXT\n`);
  const args = ['import', '--data-dir', dataDir, '--mode', 'incremental', '--id-type', 'actual', `--relationships=${rels}`];
  const run = cli([...args, '--skip-bad-relationships']);
  assert.equal(run.status, 0, run.stderr);
  assert.equal(shellQuery(dataDir, 'MATCH (a:A)-[:NEXT]->(b:A) RETURN a.n AS a, b.n AS b'), 'a, b\n1, 2\n');
  const nodes = file('actual-nodes.csv', ':ID,name\n5,x\n');
  const refused = cli(['import', '--data-dir', join(temp.dir, 'actual-nodes'), '--create', '--id-type', 'actual', `--nodes=${nodes}`]);
  assert.equal(refused.status, 1);
  assert.match(refused.stderr, /a node file cannot have an :ID column/);
});

test('a Cypher script honours --mode: refused by a non-empty database in full mode, run as written in incremental mode', () => {
  const script = file('seed.cypher', 'CREATE (:Seed {n: 1});\nMERGE (m:Seed {n: 2}) RETURN m;\n');
  const dataDir = join(temp.dir, 'cypher-mode');
  const first = cli(['import', script, '--data-dir', dataDir, '--create']);
  assert.equal(first.status, 0, first.stderr);
  const again = cli(['import', script, '--data-dir', dataDir]);
  assert.equal(again.status, 1);
  assert.match(
    oneLine(again.stderr),
    /is not empty: a full import needs an empty database.*--mode incremental to run the script on it as written/,
  );
  assert.equal(shellQuery(dataDir, 'MATCH (s:Seed) RETURN count(s) AS n'), 'n\n2\n');
  const added = cli(['import', script, '--data-dir', dataDir, '--mode', 'incremental']);
  assert.equal(added.status, 0, added.stderr);
  assert.equal(shellQuery(dataDir, 'MATCH (s:Seed) RETURN s.n AS n ORDER BY n'), 'n\n1\n1\n2\n', 'CREATE ran again, MERGE found its node');
});

test('the progress bar shows percent, rate, ETA and batches on a terminal, and nothing when stderr is not one', () => {
  const rows = ['id:ID,name'];
  for (let i = 0; i < 20_000; i++) rows.push(`${i},name-${i}`);
  const nodes = file('progress.csv', rows.join('\n') + '\n');
  const args = (dataDir: string) => ['import', '--data-dir', dataDir, '--create', `--nodes=${nodes}`, '--batch-size', '5000'];
  const run = cliInPty(args(join(temp.dir, 'progress-tty')), [{ expect: 'imported' }], { columns: 160 });
  assert.equal(run.status, 0, run.stderr + run.stdout);
  assert.match(run.stdout, /\r\[#{24}\] 100\.0% {2}20000 nodes, 0 rels, 0 bad {2}\d+ rows\/s {2}ETA 0s {2}4 batches committed/);
  const piped = cli(args(join(temp.dir, 'progress-piped')));
  assert.equal(piped.status, 0, piped.stderr);
  assert.doesNotMatch(piped.stderr + piped.stdout, /rows\/s|ETA|batches committed/, 'no progress line when stderr is not a terminal');
  assert.match(piped.stdout, /nodes\s+│ 20000/);
});

function pick(summary: { nodes: number; relationships: number; skipped: number }): {
  nodes: number;
  relationships: number;
  skipped: number;
} {
  return { nodes: summary.nodes, relationships: summary.relationships, skipped: summary.skipped };
}

test('a Cypher script export imports through the CLI with --progress, from a file in bulk and from standard input statement by statement', () => {
  const sourceDir = join(temp.dir, 'script-source');
  const nodes = file(
    'script-people.csv',
    'id:ID,name,age:int\n' + Array.from({ length: 1500 }, (_, i) => `${i},p${i},${i % 90}`).join('\n') + '\n',
  );
  const rels = file(
    'script-knows.csv',
    ':START_ID,:END_ID,:TYPE\n' + Array.from({ length: 1500 }, (_, i) => `${i},${(i * 7) % 1500},KNOWS`).join('\n') + '\n',
  );
  assert.equal(cli(['import', '--data-dir', sourceDir, '--create', `--nodes=Person=${nodes}`, `--relationships=${rels}`]).status, 0);
  const script = join(temp.dir, 'people.cypher');
  const exported = cli(['export', script, '--format', 'cypher', '--data-dir', sourceDir]);
  assert.equal(exported.status, 0, exported.stderr);
  const graph = 'MATCH (a:Person)-[:KNOWS]->(b) RETURN count(*) AS n, sum(a.age * 1000 + b.age) AS s, count(DISTINCT a.name) AS names';
  const expected = shellQuery(sourceDir, graph);

  const fromFile = join(temp.dir, 'script-file');
  const run = cli(['import', script, '--data-dir', fromFile, '--create', '--progress', '--json']);
  assert.equal(run.status, 0, run.stderr);
  const summary = JSON.parse(run.stdout) as { nodes: number; relationships: number; bulkLoaded: boolean };
  assert.deepEqual([summary.nodes, summary.relationships, summary.bulkLoaded], [1500, 1500, true]);
  assert.match(run.stderr, /\[#+\] 100\.0% {2}1500 nodes, 1500 rels/, 'the final progress line');
  assert.equal(shellQuery(fromFile, graph), expected);

  const fromStdin = join(temp.dir, 'script-stdin');
  const piped = cli(['import', '-', '--format', 'cypher', '--data-dir', fromStdin, '--create', '--json'], {
    input: readFileSync(script, 'utf8'),
  });
  assert.equal(piped.status, 0, piped.stderr);
  assert.equal((JSON.parse(piped.stdout) as { bulkLoaded: boolean }).bulkLoaded, false);
  assert.equal(shellQuery(fromStdin, graph), expected);
  assert.equal(shellQuery(fromStdin, 'MATCH (n:__GraphdbImport) RETURN count(n) AS n'), 'n\n0\n');
});
