import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  byKind,
  Kind,
  print,
  visit,
  SKIP,
  BREAK,
  type AstNode,
  type Expression,
  type Return,
  type SingleQuery,
  type Statement,
} from '../../../src/engine/cypher/ast/index.js';
import { measureFrontendThroughput, parse, parseStatements } from '../../../src/engine/cypher/parser/index.js';
import { MAX_NESTING_DEPTH } from '../../../src/engine/cypher/parser/nesting-limit.js';
import { CypherSyntaxError } from '../../../src/engine/errors/index.js';

/** The first RETURN item's expression of `RETURN <text>`. */
function parseExpression(text: string): Expression {
  const query = parse(`RETURN ${text}`).body as SingleQuery;
  return (query.clauses[0] as Return).projection.items[0].expression;
}

/** Asserts a syntax error with message, detail and 1-based line/column. */
function expectSyntaxError(text: string, expected: { message: string; detail?: string; line: number; column: number }): void {
  assert.throws(
    () => parse(text),
    (error: unknown) => {
      assert.ok(error instanceof CypherSyntaxError, String(error));
      assert.equal(error.message, expected.message);
      if (expected.detail) assert.equal(error.detail, expected.detail);
      assert.deepEqual([error.position?.line, error.position?.column], [expected.line, expected.column]);
      return true;
    },
  );
}

/** Prints an expression back, to compare structure compactly. */
function shape(text: string): string {
  return print(parseExpression(text));
}

describe('parser: expressions', () => {
  test('precedence follows Neo4j', () => {
    assert.equal(shape('1 + 2 * 3 ^ 2'), '1 + 2 * 3 ^ 2');
    assert.equal(shape('(1 + 2) * 3'), '(1 + 2) * 3');
    assert.equal(shape('NOT a = b AND c OR d XOR e'), 'NOT a = b AND c OR d XOR e');
    const or = parseExpression('a OR b AND c');
    assert.equal(or.kind === Kind.BinaryOperation && or.operator, 'OR');
    const power = parseExpression('2 ^ 3 ^ 2');
    assert.ok(power.kind === Kind.BinaryOperation && power.left.kind === Kind.BinaryOperation, '^ is left-associative');
  });

  test('a comparison chain becomes a conjunction', () => {
    const chain = parseExpression('1 < x <= 3');
    assert.ok(chain.kind === Kind.BinaryOperation && chain.operator === 'AND');
    assert.equal(print(chain), '1 < x AND x <= 3');
  });

  test('literals are decoded: bigint integers, float numbers, strings', () => {
    assert.deepEqual(parseExpression('0x1F'), { kind: Kind.IntegerLiteral, value: 31n, loc: { start: 7, end: 11, line: 1, column: 8 } });
    assert.equal((parseExpression('-9223372036854775808') as { value: bigint }).value, -9223372036854775808n);
    assert.equal((parseExpression('0o17') as { value: bigint }).value, 15n);
    assert.equal((parseExpression('1e3') as { value: number }).value, 1000);
    assert.equal((parseExpression("'a\\tb'") as { value: string }).value, 'a\tb');
  });

  test('integer and float overflow are syntax errors with the TCK detail', () => {
    expectSyntaxError('RETURN 9223372036854775808', {
      message: 'integer is too large: 9223372036854775808 (line 1, column 8 (offset: 7))',
      detail: 'IntegerOverflow',
      line: 1,
      column: 8,
    });
    expectSyntaxError('RETURN -0o1000000000000000000001', {
      message: 'integer is too large: -0o1000000000000000000001 (line 1, column 9 (offset: 8))',
      detail: 'IntegerOverflow',
      line: 1,
      column: 9,
    });
    expectSyntaxError('RETURN 1.34E999', {
      message: 'floating point number is too large: 1.34E999 (line 1, column 8 (offset: 7))',
      detail: 'FloatingPointOverflow',
      line: 1,
      column: 8,
    });
  });

  test('keywords are valid names where Neo4j allows them', () => {
    const query = parse('MATCH (end:count {match: 1}) RETURN end.count AS count, count(*)').body as SingleQuery;
    assert.equal(query.clauses.length, 2);
    const sum = parseExpression('n.end + count.x');
    assert.ok(sum.kind === Kind.BinaryOperation && sum.left.kind === Kind.PropertyAccess && sum.left.property === 'end');
    assert.ok(
      sum.kind === Kind.BinaryOperation &&
        sum.right.kind === Kind.PropertyAccess &&
        sum.right.object.kind === Kind.Variable &&
        sum.right.object.name === 'count',
    );
    assert.equal(shape('n.end + count.x'), 'n.end + `count`.x');
  });

  test('list and pattern comprehensions, quantifiers, reduce, map projection, CASE, subqueries', () => {
    assert.equal(parseExpression('[x IN xs WHERE x > 1 | x * 2]').kind, Kind.ListComprehension);
    assert.equal(parseExpression('[(a)-->(b:B) WHERE b.x | b.name]').kind, Kind.PatternComprehension);
    assert.equal(parseExpression('[p = (a)-->() | p]').kind, Kind.PatternComprehension);
    assert.equal(parseExpression('[a, b]').kind, Kind.ListLiteral);
    assert.equal(parseExpression('all(x IN xs WHERE x > 0)').kind, Kind.ListPredicate);
    assert.equal(parseExpression('reduce(s = 0, x IN xs | s + x)').kind, Kind.Reduce);
    assert.equal(parseExpression('n {.name, .*, k: 1, other}').kind, Kind.MapProjection);
    assert.equal(parseExpression('CASE x WHEN 1 THEN a ELSE b END').kind, Kind.Case);
    assert.equal(parseExpression('EXISTS { MATCH (n)-->(m) RETURN m }').kind, Kind.ExistsSubquery);
    assert.equal(parseExpression('COUNT { (n)-->() }').kind, Kind.CountSubquery);
    assert.equal(parseExpression('COLLECT { MATCH (n) RETURN n.x }').kind, Kind.CollectSubquery);
    assert.equal(parseExpression('count(*)').kind, Kind.CountStar);
    assert.equal(parseExpression('x[1..]').kind, Kind.Slice);
    assert.equal(parseExpression('x IS NOT :: INTEGER NOT NULL').kind, Kind.TypePredicate);
    assert.equal(parseExpression('n:A|B&!C').kind, Kind.LabelPredicate);
  });

  test('special function syntax is written as plain calls', () => {
    assert.equal(shape("trim(BOTH 'x' FROM s)"), "btrim(s, 'x')");
    assert.equal(shape('trim(LEADING FROM s)'), 'ltrim(s)');
    assert.equal(shape("trim(TRAILING ' ' FROM s)"), "rtrim(s, ' ')");
    assert.equal(shape("trim('x' FROM s)"), "btrim(s, 'x')");
    assert.equal(shape('normalize(s, NFKC)'), "normalize(s, 'NFKC')");
    assert.equal(shape('s IS NOT NFD NORMALIZED'), "NOT normalize(s, 'NFD') = s");
    assert.equal(shape('s IS NORMALIZED'), "normalize(s, 'NFC') = s");
  });

  test('a parenthesized node is an expression, a parenthesized path a pattern', () => {
    assert.equal(parseExpression('(n)').kind, Kind.Variable);
    assert.equal(parseExpression('(n:A)').kind, Kind.LabelPredicate);
    assert.equal(parseExpression('(n)-[:T]->()').kind, Kind.PatternExpression);
  });

  test('deeply nested parentheses parse in linear time up to the nesting limit, and are refused past it', () => {
    const depth = MAX_NESTING_DEPTH - 1;
    const started = Date.now();
    assert.equal(parseExpression('('.repeat(depth) + '1' + ')'.repeat(depth)).kind, Kind.IntegerLiteral);
    assert.ok(Date.now() - started < 2000);
    const tooDeep = MAX_NESTING_DEPTH + 1;
    assert.throws(() => parseExpression('('.repeat(tooDeep) + '1' + ')'.repeat(tooDeep)), /nested too deeply/);
  });
});

describe('parser: clauses and statements', () => {
  test('patterns: var-length, quantified paths, selectors, shortestPath, label expressions', () => {
    const match = (parse('MATCH p = shortestPath((a)-[:T*1..3]-(b)), (a) ((x)-[:R]->(y)){1,5} (b) RETURN p').body as SingleQuery)
      .clauses[0];
    assert.equal(match.kind, Kind.Match);
    const [first, second] = match.kind === Kind.Match ? match.pattern.parts : [];
    assert.equal(first.element.kind, Kind.ShortestPath);
    assert.deepEqual(second.element.kind === Kind.PathPattern && second.element.elements.map((e) => e.kind), [
      Kind.NodePattern,
      Kind.QuantifiedPath,
      Kind.NodePattern,
    ]);
    const quantified = parse('MATCH ANY SHORTEST (a)-[:R]->+(b) RETURN a');
    assert.equal(print(quantified), 'MATCH ANY SHORTEST (a) (()-[:R]->()){1,} (b) RETURN a');
  });

  test('all clause kinds parse', () => {
    const statements = [
      'USE neo4j MATCH (n) RETURN n',
      'OPTIONAL MATCH (n) USING INDEX n:L(p) WHERE n.p = 1 RETURN n',
      'UNWIND [1, 2] AS x WITH DISTINCT x ORDER BY x DESC SKIP 1 LIMIT 2 WHERE x > 0 RETURN *',
      'CREATE (a:A {x: 1})-[:T]->(b)',
      'MERGE (a:A {id: 1}) ON CREATE SET a.created = true ON MATCH SET a += {seen: 1}, a:Seen',
      'MATCH (n) SET n.x = 1, n:L, n = {}, n[$key] = 2 REMOVE n.y, n:M DETACH DELETE n',
      'FOREACH (x IN [1] | CREATE (:N {x: x}))',
      'MATCH (n) CALL (n) { RETURN n.x AS y } IN 2 CONCURRENT TRANSACTIONS OF 10 ROWS ON ERROR CONTINUE REPORT STATUS AS s RETURN y, s',
      'CALL db.labels() YIELD label AS l WHERE l <> "" RETURN l',
      'CALL db.labels',
      "LOAD CSV WITH HEADERS FROM 'file:///x.csv' AS row FIELDTERMINATOR ';' CREATE (:R {v: row.v})",
      'MATCH (n) FINISH',
      'RETURN 1 AS x UNION ALL RETURN 2 AS x',
      'CYPHER 5 runtime=slotted EXPLAIN MATCH (n) RETURN n',
      'PROFILE RETURN 1',
    ];
    for (const text of statements) assert.equal(parse(text).kind, Kind.Statement, text);
  });

  test('schema and administration commands', () => {
    const kinds = [
      ['CREATE INDEX idx IF NOT EXISTS FOR (n:Person) ON (n.name)', Kind.CreateIndex],
      ['CREATE FULLTEXT INDEX ft FOR (n:A|B) ON EACH [n.title, n.body]', Kind.CreateIndex],
      ['CREATE VECTOR INDEX v FOR (n:Doc) ON n.embedding OPTIONS {indexConfig: {`vector.dimensions`: 3}}', Kind.CreateIndex],
      ['CREATE LOOKUP INDEX FOR (n) ON EACH labels(n)', Kind.CreateIndex],
      ['CREATE INDEX ON :Person(name)', Kind.CreateIndex],
      ['DROP INDEX idx IF EXISTS', Kind.DropIndex],
      ['CREATE CONSTRAINT c FOR (n:P) REQUIRE (n.a, n.b) IS NODE KEY', Kind.CreateConstraint],
      ['CREATE CONSTRAINT FOR ()-[r:T]-() REQUIRE r.x IS :: INTEGER', Kind.CreateConstraint],
      ['DROP CONSTRAINT c', Kind.DropConstraint],
      ['SHOW FULLTEXT INDEXES YIELD name WHERE name STARTS WITH "a" RETURN name', Kind.Show],
      ['SHOW DATABASES', Kind.Show],
      ['CREATE DATABASE `my-db` IF NOT EXISTS WAIT', Kind.CreateDatabase],
      ['DROP DATABASE foo IF EXISTS DUMP DATA', Kind.DropDatabase],
      ['ALTER DATABASE foo SET LIMIT max_nodes 1000 SET ACCESS READ ONLY', Kind.AlterDatabase],
      ['CREATE ALIAS a FOR DATABASE foo', Kind.CreateAlias],
      ['DROP ALIAS a FOR DATABASE', Kind.DropAlias],
      ['SHOW ALIASES FOR DATABASE', Kind.Show],
      ['SHOW LIMITS', Kind.Show],
    ] as const;
    for (const [text, kind] of kinds) assert.equal(parse(text).body.kind, kind, text);
  });

  test('several statements separated by semicolons', () => {
    assert.equal(parseStatements('CREATE (a); ;MATCH (n) RETURN n;').length, 2);
  });

  test('syntax errors read like Neo4j', () => {
    expectSyntaxError('MATCH (n RETURN n', {
      message: "Invalid input 'RETURN': expected ')' (line 1, column 10 (offset: 9))",
      line: 1,
      column: 10,
    });
    expectSyntaxError('RETURN 1 +', {
      message: "Invalid input '': expected an expression (line 1, column 11 (offset: 10))",
      line: 1,
      column: 11,
    });
    expectSyntaxError('MATCH (n)\nRETRN n', {
      message:
        "Invalid input 'RETRN': expected 'ALTER', 'CALL', 'CREATE', 'CYPHER', 'DELETE', 'DETACH', 'DROP', 'EXPLAIN', 'FINISH', 'FOREACH', 'LOAD', 'MATCH', 'MERGE', 'NODETACH', 'OPTIONAL', 'PROFILE', 'REMOVE', 'RETURN', 'SET', 'SHOW', 'START', 'STOP', 'UNWIND', 'USE', 'WITH' or ';' (line 2, column 1 (offset: 10))",
      line: 2,
      column: 1,
    });
    expectSyntaxError('MATCH (a)-[:T..]->(b) RETURN a', {
      message: "Invalid input '..': expected '*' before a variable length range (line 1, column 14 (offset: 13))",
      detail: 'InvalidRelationshipPattern',
      line: 1,
      column: 14,
    });
    expectSyntaxError('RETURN 42 — 41', {
      message: "Invalid input '—': expected ';' or the end of the input (line 1, column 11 (offset: 10))",
      detail: 'InvalidUnicodeCharacter',
      line: 1,
      column: 11,
    });
    expectSyntaxError('', {
      message:
        "Invalid input '': expected 'ALTER', 'CALL', 'CREATE', 'CYPHER', 'DELETE', 'DETACH', 'DROP', 'EXPLAIN', 'FINISH', 'FOREACH', 'LOAD', 'MATCH', 'MERGE', 'NODETACH', 'OPTIONAL', 'PROFILE', 'REMOVE', 'RETURN', 'SET', 'SHOW', 'START', 'STOP', 'UNWIND', 'USE', 'WITH' (line 1, column 1 (offset: 0))",
      line: 1,
      column: 1,
    });
  });

  test('locations and the unaliased column text', () => {
    const statement = parse('MATCH (n)\nRETURN  count( * ) ,n.x');
    const items = ((statement.body as SingleQuery).clauses[1] as Return).projection.items;
    assert.deepEqual(
      items.map((item) => item.text),
      ['count( * )', 'n.x'],
    );
    assert.deepEqual(items[1].loc, { start: 30, end: 33, line: 2, column: 21 });
  });
});

describe('visit()', () => {
  test('visits every node in source order, SKIP prunes', () => {
    const statement: Statement = parse('MATCH (a)-[r]->(b) WHERE a.x = [1, 2] RETURN b');
    const variables: string[] = [];
    visit(statement, {
      enter(node: AstNode) {
        if (node.kind === Kind.Variable) variables.push(node.name);
      },
    });
    assert.deepEqual(variables, ['a', 'r', 'b', 'a', 'b']);
    const kinds: string[] = [];
    visit(statement, {
      enter(node: AstNode) {
        kinds.push(node.kind);
        return node.kind === Kind.Match ? SKIP : undefined;
      },
    });
    assert.ok(!kinds.includes(Kind.NodePattern));
  });

  test('byKind() narrows callbacks by kind; BREAK stops the traversal', () => {
    const statement: Statement = parse('MATCH (a:A)-[:T]->(b:B) RETURN a.x, b.y');
    const labels: string[] = [];
    const properties: string[] = [];
    visit(
      statement,
      byKind({
        [Kind.LabelName]: { enter: (node) => void labels.push(node.name) },
        [Kind.PropertyAccess]: {
          enter: (node) => {
            properties.push(node.property);
            return BREAK;
          },
        },
      }),
    );
    assert.deepEqual(labels, ['A', 'T', 'B']);
    assert.deepEqual(properties, ['x']);
  });
});

describe('measureFrontendThroughput()', () => {
  test('reports parse and compile rates and counts rejections', () => {
    const result = measureFrontendThroughput(['MATCH (n) RETURN n', 'RETURN 1 +', 'RETURN x'], 20);
    assert.equal(result.queries, 3);
    assert.equal(result.rejected, 2);
    assert.ok(result.parsePerSecond > 0 && result.compilePerSecond > 0 && result.passes >= 1);
  });
});
