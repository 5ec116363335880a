import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { Kind, type Return, type SingleQuery } from '../../../src/engine/cypher/ast/index.js';
import { parse } from '../../../src/engine/cypher/parser/index.js';
import { analyze, validate, type AnalyzeOptions, type ProcedureSignature } from '../../../src/engine/cypher/semantic/index.js';
import { CypherTypeError, GraphError, StatusCodes } from '../../../src/engine/errors/index.js';

/** Analyzes `text` and returns the first error's detail, message and position. */
function firstError(text: string, options: AnalyzeOptions = {}): GraphError {
  const errors = validate(parse(text), options);
  assert.ok(errors.length > 0, `expected an error for ${text}`);
  return errors[0];
}

function expectError(text: string, detail: string, options: AnalyzeOptions = {}): GraphError {
  const error = firstError(text, options);
  assert.equal(error.detail, detail, `${text}: ${error.message}`);
  return error;
}

describe('semantic analysis: scoping', () => {
  test('undefined variables, with position and a suggestion', () => {
    const error = expectError('MATCH (person) RETURN persn', 'UndefinedVariable');
    assert.equal(error.message, 'Variable `persn` not defined. Did you mean `person`? (line 1, column 23 (offset: 22))');
    assert.equal(error.code, StatusCodes.SyntaxError);
    assert.deepEqual(error.position, { offset: 22, line: 1, column: 23 });
  });

  test('WITH ends the scope except for projected variables; WHERE still sees the earlier ones', () => {
    expectError('MATCH (a), (b) WITH a RETURN b', 'UndefinedVariable');
    assert.deepEqual(validate(parse('MATCH (a), (b) WITH a WHERE b.x = 1 RETURN a')), []);
    expectError('MATCH (a) WITH count(*) AS c WHERE a.x = 1 RETURN c', 'UndefinedVariable');
  });

  test('ORDER BY after DISTINCT or aggregation sees only the projection', () => {
    expectError('MATCH (a) RETURN DISTINCT a.name ORDER BY a.age', 'UndefinedVariable');
    assert.deepEqual(validate(parse('MATCH (a) RETURN DISTINCT a.name ORDER BY a.name')), []);
    assert.deepEqual(validate(parse('MATCH (a) RETURN a.name AS n ORDER BY a.age')), []);
  });

  test('rebinding and type conflicts', () => {
    expectError('MATCH (a) CREATE (a)', 'VariableAlreadyBound');
    expectError('MATCH (a) CREATE (a:L)-[:T]->()', 'VariableAlreadyBound');
    assert.deepEqual(validate(parse('MATCH (a) CREATE (a)-[:T]->(b)')), []);
    expectError('MATCH p = (p)-->() RETURN p', 'VariableAlreadyBound');
    expectError('MATCH ()-[r]-() MATCH (r) RETURN r', 'VariableTypeConflict');
    expectError('WITH true AS n MATCH (n) RETURN n', 'VariableTypeConflict');
    expectError('UNWIND [1] AS x UNWIND [2] AS x RETURN x', 'VariableAlreadyBound');
  });

  test('subqueries: EXISTS sees the outer scope, CALL imports explicitly', () => {
    assert.deepEqual(validate(parse('MATCH (n) WHERE EXISTS { MATCH (n)-->(m) WHERE m.x = n.x } RETURN n')), []);
    expectError('MATCH (n) CALL { RETURN n.x AS x } RETURN x', 'UndefinedVariable');
    assert.deepEqual(validate(parse('MATCH (n) CALL { WITH n RETURN n.x AS x } RETURN x')), []);
    assert.deepEqual(validate(parse('MATCH (n) CALL (n) { RETURN n.x AS x } RETURN x')), []);
    expectError('MATCH (n) CALL (n) { RETURN 1 AS n } RETURN n', 'VariableAlreadyBound');
  });

  test('projection rules', () => {
    expectError('MATCH (a) WITH a, count(*) RETURN a', 'NoExpressionAlias');
    expectError('RETURN 1 AS a, 2 AS a', 'ColumnNameConflict');
    expectError('MATCH (n) WITH *, 1 AS n RETURN n', 'ColumnNameConflict');
    expectError('MATCH () RETURN *', 'NoVariablesInScope');
    expectError('RETURN 1 AS a UNION RETURN 2 AS b', 'DifferentColumnsInUnion');
    expectError('MATCH (n) WHERE (n)-[r]->() RETURN n', 'UndefinedVariable');
  });
});

describe('semantic analysis: rules', () => {
  test('aggregation', () => {
    expectError('RETURN count(count(*))', 'NestedAggregation');
    expectError('RETURN count(rand())', 'NonConstantExpression');
    expectError('MATCH (n) WITH n.x AS x ORDER BY count(*) RETURN x', 'InvalidAggregation');
    expectError('MATCH (n) WHERE count(n) > 1 RETURN n', 'InvalidAggregation');
    expectError('MATCH (a)--(b) RETURN a.x + count(b.y)', 'AmbiguousAggregationExpression');
    assert.deepEqual(validate(parse('MATCH (a)--(b) RETURN a.x, a.x + count(b.y), a, a.z + count(*)')), []);
  });

  test('SKIP and LIMIT', () => {
    expectError('MATCH (n) RETURN n SKIP n.x', 'NonConstantExpression');
    expectError('RETURN 1 LIMIT -1', 'NegativeIntegerArgument');
    expectError('RETURN 1 LIMIT 1.5', 'InvalidArgumentType');
    assert.deepEqual(validate(parse('RETURN 1 SKIP $s LIMIT 2 + 3')), []);
  });

  test('writing patterns', () => {
    expectError('CREATE ()-->()', 'NoSingleRelationshipType');
    expectError('CREATE ()-[:A|B]->()', 'NoSingleRelationshipType');
    expectError('CREATE (a)-[:T]-(b)', 'RequiresDirectedRelationship');
    expectError('CREATE ()-[:T*2]->()', 'CreatingVarLength');
    assert.deepEqual(validate(parse('MERGE (a)-[:T]-(b)')), []);
    expectError('MATCH (n $p) RETURN n', 'InvalidParameterUse');
    assert.deepEqual(validate(parse('CREATE (n $p)')), []);
    expectError('MATCH (n) DELETE n:L', 'InvalidDelete');
    expectError('MATCH () DELETE 1 + 1', 'InvalidArgumentType');
  });

  test('pattern shapes', () => {
    expectError('MATCH p = shortestPath((a)-[*]->(b)-[*]->(c)) RETURN p', 'UnexpectedSyntax');
    expectError('MATCH p = shortestPath((a)-[*2..5]->(b)) RETURN p', 'UnexpectedSyntax');
    expectError('CREATE (n:A|B)', 'UnexpectedSyntax');
    expectError('MERGE (a) ((x)-[:R]->(y)){2} (b)', 'UnexpectedSyntax');
    assert.deepEqual(validate(parse('MATCH p = allShortestPaths((a)-[:R*0..]->(b)) CREATE (n:A:B), (m:C&D) RETURN p')), []);
  });

  test('update targets and relationship uniqueness', () => {
    expectError('MATCH ()-[r]->()-[r]->() RETURN r', 'VariableAlreadyBound');
    expectError('MATCH ()-[r]->() SET r:L', 'InvalidArgumentType');
    expectError('WITH {a: 1} AS m SET m.a = 2', 'InvalidArgumentType');
    expectError('MATCH p = ()-->() SET p = {}', 'InvalidArgumentType');
    assert.deepEqual(validate(parse('MATCH (a)-[r]->(b) SET r.x = 1, a:L, r += {y: 2} REMOVE b:M, r.z')), []);
    assert.match(firstError('MATCH (n) WHERE exists(n.name) RETURN n').message, /IS NOT NULL/);
  });

  test('types of expressions and functions', () => {
    expectError('RETURN 1 AND true', 'InvalidArgumentType');
    expectError('RETURN NOT {a: 1}', 'InvalidArgumentType');
    expectError("RETURN none(x IN ['a'] WHERE x % 2 = 0)", 'InvalidArgumentType');
    expectError('MATCH (n) WHERE (n) RETURN n', 'InvalidArgumentType');
    const error = expectError('WITH 1 AS x RETURN x.prop', 'InvalidArgumentType');
    assert.ok(error instanceof CypherTypeError);
    expectError('MATCH (r) RETURN type(r)', 'InvalidArgumentType');
    assert.ok(expectError('WITH true AS list, 0 AS idx RETURN list[idx]', 'InvalidArgumentType') instanceof CypherTypeError);
    assert.ok(expectError('WITH [1, 2] AS list, 4.7 AS idx RETURN list[idx]', 'InvalidArgumentType') instanceof CypherTypeError);
    assert.deepEqual(validate(parse('WITH [1, 2] AS list, {a: 1} AS m RETURN list[0], m["a"], list[$i]')), []);
    expectError('RETURN foo(1)', 'UnknownFunction');
    assert.match(firstError('RETURN toUpperr("a")').message, /Did you mean one of `toUpper`/);
    expectError('RETURN toUpper("a", "b")', 'InvalidNumberOfArguments');
    expectError('MATCH (n) RETURN size((n)-->())', 'UnexpectedSyntax');
  });

  test('clause composition', () => {
    expectError('MATCH (n) WHERE EXISTS { MATCH (n)-->(m) SET m.x = 1 } RETURN n', 'InvalidClauseComposition');
    expectError('RETURN 1 AS x MATCH (n) RETURN n', 'InvalidClauseComposition');
    expectError('MATCH (n)', 'InvalidClauseComposition');
    expectError('MATCH (n) FINISH RETURN 1 AS x', 'InvalidClauseComposition');
    expectError('MATCH (n) USE db RETURN n', 'InvalidClauseComposition');
    expectError('CALL { CALL { CREATE () } IN TRANSACTIONS } RETURN 1 AS x', 'InvalidClauseComposition');
    assert.deepEqual(validate(parse('USE db MATCH (n) CALL (n) { SET n.x = 1 } IN TRANSACTIONS FINISH')), []);
    expectError('RETURN 1 AS x UNION RETURN 2 AS x UNION ALL RETURN 3 AS x', 'InvalidClauseComposition');
  });

  test('procedures, given a lookup', () => {
    const proc: ProcedureSignature = {
      name: 'my.proc',
      inputs: [{ name: 'in', type: 'INTEGER?' }],
      outputs: [{ name: 'out', type: 'STRING?' }],
    };
    const options: AnalyzeOptions = { procedures: (name) => (name === 'my.proc' ? proc : undefined), parameterNames: new Set() };
    assert.equal(firstError('CALL other.proc()', options).code, StatusCodes.ProcedureNotFound);
    expectError('CALL my.proc(1, 2)', 'InvalidNumberOfArguments', options);
    expectError('CALL my.proc(true)', 'InvalidArgumentType', options);
    expectError('CALL my.proc YIELD out RETURN out', 'InvalidArgumentPassingMode', options);
    expectError('CALL my.proc', 'MissingParameter', options);
    expectError('CALL my.proc(1) RETURN out', 'UndefinedVariable', options);
    const analysis = analyze(parse('CALL my.proc(1)'), options);
    assert.deepEqual(analysis.columns, ['out']);
  });
});

describe('analyze() result', () => {
  test('columns, parameters, category and the updating flag', () => {
    const analysis = analyze(parse('MATCH (n:P {id: $id}) WITH n, n.x AS x RETURN *, x + $k AS y, count(*)'));
    assert.deepEqual(analysis.columns, ['n', 'x', 'y', 'count(*)']);
    assert.deepEqual([...analysis.parameters].sort(), ['id', 'k']);
    assert.equal(analysis.category, 'query');
    assert.equal(analysis.updating, false);
    assert.equal(analyze(parse('CREATE (n)')).updating, true);
    assert.equal(analyze(parse('CREATE INDEX FOR (n:L) ON (n.p)')).category, 'schema');
    assert.equal(analyze(parse('CREATE DATABASE x')).category, 'admin');
  });

  test('scopes per clause and static types for the planner', () => {
    const statement = parse('MATCH (a)-[r*]->(b) UNWIND [1, 2] AS i WITH a, i RETURN a, i');
    const analysis = analyze(statement);
    const clauses = (statement.body as SingleQuery).clauses;
    const names = (clause: (typeof clauses)[number]) =>
      analysis.clauseScopes.get(clause)!.after.map((s) => `${s.name}:${JSON.stringify(s.type)}`);
    assert.deepEqual(names(clauses[0]), ['a:"Node"', 'r:{"list":"Relationship"}', 'b:"Node"']);
    assert.deepEqual(names(clauses[2]), ['a:"Node"', 'i:"Integer"']);
    const returned = (clauses[3] as Return).projection.items[0].expression;
    assert.equal(returned.kind, Kind.Variable);
    assert.equal(analysis.typeOf(returned), 'Node');
    assert.equal(analysis.symbolOf(returned as never)?.name, 'a');
  });

  test('analyze() throws the first error; validate() lists them all', () => {
    assert.throws(
      () => analyze(parse('RETURN x, y')),
      (error: GraphError) => error.detail === 'UndefinedVariable' && /`x`/.test(error.message),
    );
    assert.equal(validate(parse('RETURN x, y')).length, 2);
  });
});
