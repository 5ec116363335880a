import { inspect } from 'node:util';
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { print } from '../../../src/engine/cypher/ast/index.js';
import { parse, parseStatements } from '../../../src/engine/cypher/parser/index.js';
import { analyze } from '../../../src/engine/cypher/semantic/index.js';
import { sameAst } from '../../../src/engine/cypher/semantic/ast-utils.js';
import { GraphError, StatusCodes } from '../../../src/engine/errors/index.js';
import { loadCorpus } from './tck-corpus.js';

/** TCK error type names and the status codes they stand for. */
const expectedCodes: Readonly<Record<string, string>> = {
  SyntaxError: StatusCodes.SyntaxError,
  SemanticError: StatusCodes.SemanticError,
  TypeError: StatusCodes.TypeError,
  ProcedureError: StatusCodes.ProcedureNotFound,
  ParameterMissing: StatusCodes.ParameterMissing,
};

const corpus = loadCorpus();

test('every TCK query compiles or fails at compile time exactly as the TCK expects', (t) => {
  const counts = { compiled: 0, rejectedAsExpected: 0, eitherWay: 0 };
  const failures: string[] = [];
  for (const item of corpus) {
    let error: unknown = null;
    try {
      for (const statement of parseStatements(item.query)) {
        analyze(statement, { procedures: (name) => item.procedures.get(name), parameterNames: item.parameterNames });
      }
    } catch (caught) {
      error = caught;
    }
    if (error !== null && !(error instanceof GraphError)) {
      failures.push(`${item.id}: non-GraphError ${inspect(error)}`);
      continue;
    }
    if (item.eitherWay) {
      // Failing early is allowed; failing differently is not.
      const { errorType, detail } = item.eitherWay;
      if (error !== null) {
        const actual = error;
        if (actual.code !== expectedCodes[errorType] || (detail !== '*' && actual.detail !== detail)) {
          failures.push(`${item.id}: may fail with ${errorType}/${detail}, got ${actual.code}/${actual.detail}`);
        }
      }
      counts.eitherWay++;
      continue;
    }
    const expected = item.expectedError;
    if (expected === null) {
      if (error) failures.push(`${item.id}: expected success, got ${error.detail}: ${error.message}`);
      else counts.compiled++;
      continue;
    }
    if (!error) {
      failures.push(`${item.id}: expected ${expected.errorType}/${expected.detail}, compiled`);
      continue;
    }
    const { code, detail } = error;
    if (code !== expectedCodes[expected.errorType] || detail !== expected.detail) {
      failures.push(`${item.id}: expected ${expected.errorType}/${expected.detail}, got ${code}/${detail}`);
    } else counts.rejectedAsExpected++;
  }
  t.diagnostic(
    `TCK front end: ${counts.compiled} compiled, ${counts.rejectedAsExpected} rejected with the expected class and detail, ${counts.eitherWay} "any time" (compiled or failed with the allowed error), ${failures.length} failures (of ${corpus.length} queries)`,
  );
  assert.deepEqual(failures, []);
  assert.ok(counts.compiled > 3000 && counts.rejectedAsExpected > 500);
});

test('parse(print(ast)) equals ast over the TCK corpus', (t) => {
  let checked = 0;
  const failures: string[] = [];
  for (const item of corpus) {
    let statements;
    try {
      statements = parseStatements(item.query);
    } catch {
      continue;
    }
    for (const ast of statements) {
      const printed = print(ast);
      try {
        if (!sameAst(parse(printed), ast)) failures.push(`${item.id}: ${printed}`);
      } catch (error) {
        failures.push(`${item.id}: ${printed} -> ${(error as Error).message}`);
      }
      checked++;
    }
  }
  t.diagnostic(`round trip: ${checked} statements, ${failures.length} failures`);
  assert.deepEqual(failures, []);
  assert.ok(checked > 3500);
});
