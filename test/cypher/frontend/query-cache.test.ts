import assert from 'node:assert/strict';
import { test } from 'node:test';
import { compile, QueryCache } from '../../../src/engine/cypher/query-cache.js';
import type { ProcedureSignature } from '../../../src/engine/cypher/semantic/index.js';
import { CypherSyntaxError, ParameterMissing } from '../../../src/engine/errors/index.js';

test('repeated statements come from the cache (same objects), new ones are compiled', () => {
  const cache = new QueryCache();
  const first = cache.compile('MATCH (n {id: $id}) RETURN n');
  const again = cache.compile('MATCH (n {id: $id}) RETURN n');
  assert.equal(again, first);
  assert.deepEqual(first.analysis.columns, ['n']);
  cache.compile('RETURN 1');
  assert.deepEqual(cache.stats, { hits: 1, misses: 2 });
  assert.equal(cache.size, 2);
});

test('failures are cached and rethrown', () => {
  const cache = new QueryCache();
  assert.throws(() => cache.compile('MATCH (n RETURN n'), CypherSyntaxError);
  assert.throws(() => cache.compile('MATCH (n RETURN n'), CypherSyntaxError);
  assert.deepEqual(cache.stats, { hits: 1, misses: 1 });
});

test('least recently used entries are evicted at capacity', () => {
  const cache = new QueryCache({ capacity: 2 });
  const a = cache.compile('RETURN 1 AS a');
  cache.compile('RETURN 2 AS b');
  cache.compile('RETURN 1 AS a');
  cache.compile('RETURN 3 AS c');
  assert.equal(cache.size, 2);
  assert.equal(cache.compile('RETURN 1 AS a'), a, 'recently used entry kept');
  cache.compile('RETURN 2 AS b');
  assert.equal(cache.stats.misses, 4, 'evicted entry recompiled');
});

test('statements over maxTextLength are compiled but not cached', () => {
  const cache = new QueryCache({ maxTextLength: 20 });
  assert.deepEqual(cache.compile('RETURN 1 AS a, 2 AS b, 3 AS c').analysis.columns, ['a', 'b', 'c']);
  cache.compile('RETURN 1 AS a');
  assert.equal(cache.size, 1);
});

test('implicit procedure arguments are checked against each request', () => {
  const proc: ProcedureSignature = { name: 'my.proc', inputs: [{ name: 'x', type: 'INTEGER?' }], outputs: [] };
  const cache = new QueryCache({ procedures: (name) => (name === 'my.proc' ? proc : undefined) });
  assert.ok(cache.compile('CALL my.proc', new Set(['x'])));
  assert.throws(() => cache.compile('CALL my.proc', new Set()), ParameterMissing);
});

test('registering, replacing or removing a procedure invalidates the statements that looked it up', () => {
  const procedures = new Map<string, ProcedureSignature>();
  const cache = new QueryCache({ procedures: (name) => procedures.get(name) });
  assert.throws(
    () => cache.compile('CALL my.proc() YIELD out RETURN out'),
    (error: Error & { code?: string }) => error.code === 'Neo.ClientError.Procedure.ProcedureNotFound',
  );
  procedures.set('my.proc', { name: 'my.proc', inputs: [], outputs: [{ name: 'out', type: 'STRING?' }] });
  assert.deepEqual(cache.compile('CALL my.proc() YIELD out RETURN out').analysis.columns, ['out']);
  const unrelated = cache.compile('RETURN 1 AS one');
  procedures.set('my.proc', { name: 'my.proc', inputs: [{ name: 'x', type: 'INTEGER?' }], outputs: [{ name: 'out', type: 'STRING?' }] });
  assert.throws(
    () => cache.compile('CALL my.proc() YIELD out RETURN out'),
    (error: Error & { detail?: string }) => error.detail === 'InvalidNumberOfArguments',
  );
  assert.equal(cache.compile('RETURN 1 AS one'), unrelated, 'statements that did not use it stay cached');
});

test('compile() is the engine entry point', () => {
  const { ast, analysis } = compile('UNWIND [1, 2] AS x RETURN x');
  assert.equal(ast.kind, 'Statement');
  assert.deepEqual(analysis.columns, ['x']);
});
