/** Shell building blocks: highlighting, completion, rendering, the core's commands on an embedded engine. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { GraphDB } from '../../src/engine/index.js';
import { highlight } from '../../src/cli/shell/highlight.js';
import { complete } from '../../src/cli/shell/completion.js';
import { EmbeddedClient } from '../../src/cli/shell/client.js';
import { ShellCore } from '../../src/cli/shell/core.js';
import { renderRecords } from '../../src/cli/render.js';
import { progressLine } from '../../src/cli/progress.js';
import { splitKeyBurst } from '../../src/cli/shell/line-editor.js';

const vocabulary = {
  labels: ['Person', 'Movie'],
  types: ['ACTED_IN'],
  propertyKeys: ['name', 'born'],
  procedures: ['db.labels', 'db.propertyKeys'],
  functions: ['toUpper', 'toLower'],
};

test('highlighting styles keywords, labels, strings, numbers, parameters and functions; text is preserved', () => {
  const text = "MATCH (p:Person) WHERE p.name = 'x' AND p.born > $year RETURN toUpper(p.name), 42 // done";
  const segments = highlight(text);
  assert.equal(segments.map((s) => s.text).join(''), text);
  const styleOf = (t: string) => segments.find((s) => s.text === t)?.style;
  assert.equal(styleOf('MATCH'), 'keyword');
  assert.equal(styleOf('Person'), 'label');
  assert.equal(styleOf("'x'"), 'string');
  assert.equal(styleOf('$year'), 'parameter');
  assert.equal(styleOf('toUpper'), 'function');
  assert.equal(styleOf('42'), 'number');
  assert.equal(segments[segments.length - 1].style, 'comment');
  assert.deepEqual(highlight("RETURN 'unterminated"), [{ text: "RETURN 'unterminated", style: 'plain' }]);
});

test('completion of keywords, labels, property keys, procedures and commands', () => {
  assert.deepEqual(complete('mat', 3, vocabulary), { text: 'match ', cursor: 6, candidates: [] });
  assert.equal(complete('MATCH (n:Per', 12, vocabulary).text, 'MATCH (n:Person ');
  assert.equal(complete('RETURN n.bo', 11, vocabulary).text, 'RETURN n.born ');
  assert.deepEqual(complete('CALL db.', 8, vocabulary).candidates, ['db.labels', 'db.propertyKeys']);
  assert.equal(complete('CALL db.l', 9, vocabulary).text, 'CALL db.labels ');
  assert.equal(complete('RETURN toU', 10, vocabulary).text, 'RETURN toUpper(');
  assert.equal(complete(':pa', 3, vocabulary).text, ':param');
});

test('rendering formats: table, plain, csv, json', () => {
  const keys = ['name', 'n'];
  const rows = [
    ['a,"b"', 1n],
    [null, 1.5],
  ] as const;
  assert.equal(renderRecords(keys, rows, 'plain'), 'name, n\n"a,\\"b\\"", 1\nnull, 1.5');
  assert.equal(renderRecords(keys, rows, 'csv'), 'name,n\n"a,""b""",1\nnull,1.5');
  assert.equal(renderRecords(keys, rows, 'json'), '{"name":"a,\\"b\\"","n":1}\n{"name":null,"n":1.5}');
  assert.match(renderRecords(keys, rows, 'table'), /│ name\s+│ n\s+│/);
});

test('a chunk of several keys is split into control characters and text runs; one key or a paste is not', () => {
  assert.deepEqual(splitKeyBurst('ab\x01\x06\x06cd\x0b\r'), ['ab', '\x01', '\x06', '\x06', 'cd', '\x0b', '\r']);
  assert.equal(splitKeyBurst('\x01'), null);
  assert.equal(splitKeyBurst('RETURN 1;\rRETURN 2;\r'), null, 'a pasted script keeps its line breaks');
  assert.equal(splitKeyBurst('\x1b[3~'), null);
});

test('progress line shows percent, rate and ETA', () => {
  const line = progressLine({ bytesRead: 50, totalBytes: 100, nodes: 1000, relationships: 0, errors: 2, batches: 0, elapsedMs: 1000 });
  assert.match(line, /50\.0%/);
  assert.match(line, /1000 rows\/s/);
  assert.match(line, /ETA 1s/);
  assert.match(line, /2 bad/);
  assert.doesNotMatch(line, /batches/, 'an import in one transaction has no batches to count');
  const batched = progressLine({ bytesRead: 50, totalBytes: 100, nodes: 1000, relationships: 0, errors: 0, batches: 3, elapsedMs: 1000 });
  assert.match(batched, /3 batches committed/);
});

test('shell core: :use, :params, :begin/:rollback, unknown commands, prompts', async () => {
  const db = await GraphDB.open();
  const out: string[] = [];
  const sink = { info: () => {}, result: (t: string) => out.push(t), error: (t: string) => out.push(`ERR ${t}`) };
  const core = new ShellCore(new EmbeddedClient(db), sink, { format: 'plain', summaries: false });
  try {
    assert.equal(core.prompt, 'graphdb> ');
    assert.equal(await core.line('CREATE DATABASE other;'), 'ok');
    assert.equal(await core.line(':use other'), 'ok');
    assert.equal(core.prompt, 'other> ');
    assert.equal(await core.line(':param {a: 1, b: [2, 3]}'), 'ok');
    assert.equal(await core.line(':params'), 'ok');
    assert.equal(out.pop(), ':param a => 1\n:param b => [2, 3]');
    assert.equal(await core.line(':begin'), 'ok');
    assert.equal(core.prompt, 'other# ');
    assert.equal(await core.line('CREATE (:X {v: $a})'), 'pending');
    assert.equal(core.prompt, '     | ');
    assert.equal(await core.line(';'), 'ok');
    assert.equal(await core.line(':rollback'), 'ok');
    assert.equal(await core.line('MATCH (x:X) RETURN count(x) AS c;'), 'ok');
    assert.equal(out.pop(), 'c\n0');
    assert.equal(await core.line(':nope'), 'error');
    assert.match(out.pop()!, /Could not find command :nope/);
    assert.equal(await core.line(':exit'), 'exit');
  } finally {
    await core.client.close();
    await db.close();
  }
});
