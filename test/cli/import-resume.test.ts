/**
 * Resumable batched imports (`graphdb import --batch-size N`): a run killed with SIGKILL, or stopped by
 * bad entries past the tolerance, is refused on a plain re-run (the message says how to resume) and
 * finished with --resume, ending with exactly the graph of an uninterrupted import (compared through
 * a JSON Lines export, ids included, and the import summaries).
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { cli, cliOutputWhileRunning, ensureBuilt, oneLine } from './cli-process.js';
import { tempDir } from './helpers.js';

const temp = tempDir('graphdb-resume-');
before(() => ensureBuilt());
after(() => temp.cleanup());

function file(name: string, text: string): string {
  const path = join(temp.dir, name);
  writeFileSync(path, text);
  return path;
}

/** The JSON Lines export of a data dir (node and relationship ids included). */
function exported(dataDir: string): string {
  const target = join(temp.dir, `${dataDir.split('/').at(-1)}.jsonl`);
  const run = cli(['export', target, '--data-dir', dataDir]);
  assert.equal(run.status, 0, run.stderr);
  return readFileSync(target, 'utf8');
}

interface Summary {
  nodes: number;
  relationships: number;
  properties: number;
  skipped: number;
  completed: boolean;
  errors: { file: string; line: number; message: string }[];
  resumedAfter?: { file: string; line: number; batches: number };
}

function summaryOf(stdout: string): Summary {
  return JSON.parse(stdout) as Summary;
}

/** What two summaries of the same import must share. */
function outcome(s: Summary): unknown {
  return {
    nodes: s.nodes,
    relationships: s.relationships,
    properties: s.properties,
    skipped: s.skipped,
    errors: s.errors,
    completed: s.completed,
  };
}

test('an import killed with SIGKILL mid-way is refused on a plain re-run and finished by --resume, as an uninterrupted import', async () => {
  const count = 40_000;
  const nodeLines = ['id:ID,name,age:int,tags:string[]'];
  for (let i = 0; i < count; i++) nodeLines.push(`${i},"n, ${i}",${i % 90},a;b${i % 7}`);
  const relLines = [':START_ID,:END_ID,:TYPE,w:float'];
  for (let i = 0; i < count; i++) relLines.push(`${i},${(i * 7919) % count},${i % 3 === 0 ? 'KNOWS' : 'LIKES'},${i / 4}`);
  const nodes = file('people.csv', nodeLines.join('\n') + '\n');
  const rels = file('links.csv', relLines.join('\n') + '\n');
  const args = (dataDir: string) => [
    'import',
    '--data-dir',
    dataDir,
    `--nodes=Person=${nodes}`,
    `--relationships=${rels}`,
    '--batch-size',
    '1000',
  ];

  const killedDir = join(temp.dir, 'killed');
  const killed = await cliOutputWhileRunning(
    [...args(killedDir), '--create', '--progress'],
    /[1-9]\d* batch(?:es)? committed/,
    120_000,
    'stderr',
  );
  assert.equal(killed.running, true, 'the import was killed while it ran');

  const plain = cli(args(killedDir));
  assert.equal(plain.status, 1);
  const refusal = oneLine(plain.stderr);
  assert.match(
    refusal,
    /holds an unfinished import of these files: \d+ batch(?:es)? committed \(\d+ nodes, \d+ relationships\), through .*\.csv:\d+/,
  );
  assert.match(refusal, /Run the same command with --resume to continue it/);

  const resumed = cli([...args(killedDir), '--resume', '--json']);
  assert.equal(resumed.status, 0, resumed.stderr);
  const resumedSummary = summaryOf(resumed.stdout);
  assert.ok(resumedSummary.resumedAfter !== undefined && resumedSummary.resumedAfter.batches > 0, resumed.stdout.slice(0, 500));

  const cleanDir = join(temp.dir, 'clean');
  const clean = cli([...args(cleanDir), '--create', '--json']);
  assert.equal(clean.status, 0, clean.stderr);
  assert.deepEqual(outcome(resumedSummary), outcome(summaryOf(clean.stdout)));
  assert.equal(summaryOf(clean.stdout).nodes, count);
  const expected = exported(cleanDir);
  assert.equal(expected.split('\n').length, 2 * count + 1);
  assert.ok(exported(killedDir) === expected, 'the resumed import made the same graph, node and relationship ids included');

  const again = cli([...args(killedDir), '--resume']);
  assert.equal(again.status, 1, 'a finished import leaves no checkpoint behind');
  assert.match(oneLine(again.stderr), /holds no unfinished import of these files/);
});

test('an import stopped past --bad-tolerance resumes with a higher tolerance; the files or options changed are another import', () => {
  const nodeLines = ['id:ID(P),name'];
  for (let i = 0; i < 300; i++) nodeLines.push(`${i},p${i}`);
  const relLines = [':START_ID(P),:END_ID(P),since:int'];
  for (let i = 0; i < 300; i++) relLines.push(i === 120 || i === 250 || i === 251 ? `${i},missing${i},${i}` : `${i},${(i + 1) % 300},${i}`);
  const nodes = file('p.csv', nodeLines.join('\n') + '\n');
  const rels = file('k.csv', relLines.join('\n') + '\n');
  const base = (dataDir: string) => [
    'import',
    '--data-dir',
    dataDir,
    `--nodes=P=${nodes}`,
    `--relationships=KNOWS=${rels}`,
    '--batch-size',
    '100',
  ];
  const dataDir = join(temp.dir, 'tolerance');

  const stopped = cli([...base(dataDir), '--create', '--skip-bad-relationships', '--bad-tolerance', '1']);
  assert.equal(stopped.status, 1);
  const stop = oneLine(stopped.stderr);
  assert.match(stop, /k\.csv:252\s*│\s*Relationship refers to unknown node id 'missing250'/);
  assert.match(
    stop,
    /5 batches stay committed, through .*k\.csv:\d+\. Fix the cause \(or raise --bad-tolerance\) and run the same command with --resume/,
  );

  const edited = file('k2.csv', relLines.join('\n') + '\n');
  const other = cli([
    'import',
    '--data-dir',
    dataDir,
    `--nodes=P=${nodes}`,
    `--relationships=KNOWS=${edited}`,
    '--batch-size',
    '100',
    '--resume',
  ]);
  assert.equal(other.status, 1);
  assert.match(
    oneLine(other.stderr),
    /holds no unfinished import of these files with these options.*Unfinished imports it holds:.*p\.csv, .*k\.csv: 5 batches committed/,
  );
  const otherDelimiter = cli([...base(dataDir), '--resume', '--array-delimiter', '|']);
  assert.equal(otherDelimiter.status, 1, 'the options that shape the graph are part of the import');

  const resumed = cli([...base(dataDir), '--skip-bad-relationships', '--bad-tolerance', '3', '--resume', '--json']);
  assert.equal(resumed.status, 0, resumed.stderr);
  const cleanDir = join(temp.dir, 'tolerance-clean');
  const clean = cli([...base(cleanDir), '--create', '--skip-bad-relationships', '--bad-tolerance', '3', '--json']);
  assert.equal(clean.status, 0, clean.stderr);
  const summary = summaryOf(resumed.stdout);
  assert.deepEqual(outcome(summary), outcome(summaryOf(clean.stdout)));
  assert.deepEqual(
    summary.errors.map((e) => e.line),
    [122, 252, 253],
    'the bad entry of a batch committed before the stop is reported once, the others again',
  );
  assert.equal(exported(dataDir), exported(cleanDir));
});

test('JSON Lines: a resumed import refers to nodes of the batches committed before it stopped', () => {
  const lines: string[] = [];
  for (let i = 0; i < 50; i++) lines.push(JSON.stringify({ type: 'node', id: `n${i}`, labels: ['N'], properties: { i } }));
  for (let i = 0; i < 50; i++)
    lines.push(
      JSON.stringify({ type: 'relationship', label: 'NEXT', start: { id: `n${i}` }, end: { id: i === 30 ? 'gone' : `n${(i + 1) % 50}` } }),
    );
  const input = file('chain.jsonl', lines.join('\n') + '\n');
  const dataDir = join(temp.dir, 'jsonl');
  const first = cli(['import', input, '--data-dir', dataDir, '--create', '--batch-size', '20']);
  assert.equal(first.status, 1);
  assert.match(
    oneLine(first.stderr),
    /chain\.jsonl:81\s*│\s*Relationship refers to unknown node id 'gone'.*4 batches stay committed, through .*chain\.jsonl:80/,
  );
  const resumed = cli(['import', input, '--data-dir', dataDir, '--batch-size', '20', '--on-error', 'skip', '--resume', '--json']);
  assert.equal(resumed.status, 0, resumed.stderr);
  assert.deepEqual(
    { nodes: summaryOf(resumed.stdout).nodes, relationships: summaryOf(resumed.stdout).relationships },
    { nodes: 50, relationships: 49 },
  );
  const cleanDir = join(temp.dir, 'jsonl-clean');
  assert.equal(cli(['import', input, '--data-dir', cleanDir, '--create', '--batch-size', '20', '--on-error', 'skip']).status, 0);
  assert.equal(exported(dataDir), exported(cleanDir));
});

test('standard input cannot be resumed', () => {
  const run = cli(
    ['import', '-', '--format', 'jsonl', '--data-dir', join(temp.dir, 'stdin'), '--create', '--batch-size', '5', '--resume'],
    {
      input: '{"type":"node","id":"a","labels":[],"properties":{}}\n',
    },
  );
  assert.equal(run.status, 1);
  assert.match(oneLine(run.stderr), /An import from standard input cannot be resumed/);
});
