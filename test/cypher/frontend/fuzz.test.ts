import assert from 'node:assert/strict';
import { test } from 'node:test';
import { print } from '../../../src/engine/cypher/ast/index.js';
import { parse, parseStatements } from '../../../src/engine/cypher/parser/index.js';
import { sameAst } from '../../../src/engine/cypher/semantic/ast-utils.js';
import { analyze } from '../../../src/engine/cypher/semantic/index.js';
import { GraphError } from '../../../src/engine/errors/index.js';
import { loadCorpus } from './tck-corpus.js';

/** Deterministic PRNG (mulberry32) so failures reproduce. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const vocabulary = [
  'MATCH',
  'OPTIONAL',
  'WHERE',
  'RETURN',
  'WITH',
  'UNWIND',
  'AS',
  'CREATE',
  'MERGE',
  'ON',
  'SET',
  'DELETE',
  'DETACH',
  'REMOVE',
  'CALL',
  'YIELD',
  'UNION',
  'ALL',
  'ORDER',
  'BY',
  'SKIP',
  'LIMIT',
  'DISTINCT',
  'CASE',
  'WHEN',
  'THEN',
  'ELSE',
  'END',
  'AND',
  'OR',
  'NOT',
  'IN',
  'IS',
  'NULL',
  'EXISTS',
  'COUNT',
  'COLLECT',
  'FOREACH',
  'SHOW',
  'INDEX',
  'CONSTRAINT',
  'FOR',
  'REQUIRE',
  'DATABASE',
  '(',
  ')',
  '[',
  ']',
  '{',
  '}',
  ',',
  '.',
  '..',
  ':',
  '::',
  ';',
  '|',
  '&',
  '!',
  '%',
  '=',
  '<>',
  '<',
  '>',
  '<=',
  '>=',
  '+',
  '+=',
  '-',
  '*',
  '/',
  '^',
  '=~',
  '||',
  '->',
  '<-',
  '--',
  'n',
  'm',
  'r',
  'p',
  'x',
  '`q`',
  '$p',
  '$0',
  '1',
  '0x1F',
  '1.5',
  '.5',
  '1e9',
  "'s'",
  '"t"',
  'true',
  'null',
  'count(*)',
  'a.b',
  'n:L',
  '-[r:T*1..2]->',
  '(a)-->(b)',
  '/* c */',
  '// c\n',
  '9223372036854775808',
];

/** A random sequence of vocabulary tokens. */
function tokenSoup(next: () => number): string {
  const length = 1 + Math.floor(next() * 25);
  const parts: string[] = [];
  for (let i = 0; i < length; i++) parts.push(vocabulary[Math.floor(next() * vocabulary.length)]);
  return parts.join(next() < 0.8 ? ' ' : '');
}

/** A valid query with one random edit: deletion, duplication, insertion, swap or truncation. */
function mutate(query: string, next: () => number): string {
  const at = Math.floor(next() * (query.length + 1));
  const span = 1 + Math.floor(next() * 8);
  switch (Math.floor(next() * 5)) {
    case 0:
      return query.slice(0, at) + query.slice(at + span);
    case 1:
      return query.slice(0, at) + query.slice(at, at + span).repeat(2) + query.slice(at);
    case 2:
      return query.slice(0, at) + vocabulary[Math.floor(next() * vocabulary.length)] + query.slice(at);
    case 3:
      return query.slice(0, at) + query.slice(at + span, at + 2 * span) + query.slice(at, at + span) + query.slice(at + 2 * span);
    default:
      return query.slice(0, at);
  }
}

test('fuzz: the front end only throws GraphErrors, never hangs, and prints what it parses back to the same AST', (t) => {
  const next = random(20261121);
  const corpus = loadCorpus().map((item) => item.query);
  const budgetMs = 15_000;
  const started = Date.now();
  const counts = { cases: 0, accepted: 0, rejected: 0 };
  let slowest = 0;
  while (counts.cases < 4000 && Date.now() - started < budgetMs) {
    const input = next() < 0.3 ? tokenSoup(next) : mutate(corpus[Math.floor(next() * corpus.length)], next);
    const caseStart = Date.now();
    try {
      for (const statement of parseStatements(input)) {
        const printed = print(statement);
        assert.ok(sameAst(parse(printed), statement), `round trip of ${JSON.stringify(input)} via ${printed}`);
        analyze(statement);
      }
      counts.accepted++;
    } catch (error) {
      if (error instanceof assert.AssertionError) throw error;
      if (!(error instanceof GraphError)) assert.fail(`non-GraphError for ${JSON.stringify(input)}: ${(error as Error)?.stack}`);
      counts.rejected++;
    }
    slowest = Math.max(slowest, Date.now() - caseStart);
    assert.ok(Date.now() - caseStart < 2000, `too slow (${Date.now() - caseStart} ms): ${JSON.stringify(input)}`);
    counts.cases++;
  }
  t.diagnostic(
    `fuzz: ${counts.cases} cases (${counts.accepted} accepted, ${counts.rejected} rejected) in ${Date.now() - started} ms, slowest ${slowest} ms`,
  );
  assert.ok(counts.cases >= 1000, 'enough cases ran within the time budget');
});
