/**
 * `graphdb import` at neo4j-admin parity: header files (`header.csv,part1.csv,part2.csv.gz`), gzipped
 * input, TAB delimiters, standard input, bad-entry tolerance with a report file, and one JSON document
 * on --json whether the import succeeds or fails.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { cli, ensureBuilt, shellQuery } from './cli-process.js';
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
