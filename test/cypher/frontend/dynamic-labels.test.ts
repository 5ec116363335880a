/**
 * Dynamic labels and types in the front end (`:$(expr)`, `:$all(expr)`, `:$any(expr)`, Neo4j
 * 5.26): parse shapes, `parse(print(ast))` round trips, and semantic checks (variables inside
 * are bound; CREATE/MERGE accept `$(...)`/`$all(...)` but not `$any(...)`).
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  byKind,
  Kind,
  print,
  visit,
  type DynamicLabel,
  type SetClause,
  type SetLabels,
  type SingleQuery,
} from '../../../src/engine/cypher/ast/index.js';
import { parse } from '../../../src/engine/cypher/parser/index.js';
import { analyze } from '../../../src/engine/cypher/semantic/index.js';
import { sameAst } from '../../../src/engine/cypher/semantic/ast-utils.js';
import { CypherSyntaxError } from '../../../src/engine/errors/index.js';

const roundTrips: ReadonlyArray<readonly [string, string]> = [
  ['MATCH (n:$($label)) RETURN n', 'MATCH (n:$($label)) RETURN n'],
  ['MATCH (n:$all($ls))-[r:$any($types)]->(m:A&$($x)) RETURN r', 'MATCH (n:$all($ls))-[r:$any($types)]->(m:A&$($x)) RETURN r'],
  ['MATCH (n) SET n:$(n.genre):B, n IS $("x") REMOVE n:$($l):C', "MATCH (n) SET n:B:$(n.genre), n:$('x') REMOVE n:C:$($l)"],
  ['CREATE (n:Base:$($ls))-[:$($t)]->(m)', 'CREATE (n:Base:$($ls))-[:$($t)]->(m)'],
  ["MERGE (x:$('y') {k: 1})-[:$($t)]->(z)", "MERGE (x:$('y') {k: 1})-[:$($t)]->(z)"],
  ['MATCH (n) WHERE n:$(["A", "B"]) | C RETURN n:$any($l) AS any', "MATCH (n) WHERE n:($(['A', 'B'])|C) RETURN n:$any($l) AS `any`"],
];

function check(text: string): void {
  const ast = parse(text);
  analyze(ast);
}

function expectError(text: string, fragment: string): void {
  assert.throws(
    () => check(text),
    (error: unknown) => {
      assert.ok(error instanceof CypherSyntaxError, `${text}: ${String(error)}`);
      assert.ok(error.message.includes(fragment), `${text}: ${error.message}`);
      return true;
    },
  );
}

describe('dynamic labels in the front end', () => {
  test('print() is canonical and parses back to the same AST', () => {
    for (const [text, printed] of roundTrips) {
      const ast = parse(text);
      assert.equal(print(ast), printed, text);
      assert.ok(sameAst(parse(printed), ast), `${text}\n  printed: ${printed}`);
    }
  });

  test('dynamic labels keep their quantifier and expression; SET items collect them apart from static names', () => {
    const dynamic: DynamicLabel[] = [];
    visit(
      parse('MATCH (n:$any($a)&$all($b)&$($c)) RETURN n'),
      byKind({ [Kind.DynamicLabel]: { enter: (node: DynamicLabel) => void dynamic.push(node) } }),
    );
    assert.deepEqual(
      dynamic.map((d) => [d.quantifier, d.expression.kind]),
      [
        ['any', Kind.Parameter],
        ['all', Kind.Parameter],
        [null, Kind.Parameter],
      ],
    );
    const set = (parse('MATCH (n) SET n:A:$(n.x)&B').body as SingleQuery).clauses[1] as SetClause;
    const item = set.items[0] as SetLabels;
    assert.deepEqual(item.labels, ['A', 'B']);
    assert.deepEqual(
      item.dynamicLabels.map((d) => d.expression.kind),
      [Kind.PropertyAccess],
    );
    assert.equal(parse('MATCH (n) RETURN $any').body.kind, Kind.SingleQuery, 'a parameter named any is still a parameter');
  });

  test('semantic checks: variables inside are bound; CREATE and MERGE refuse $any', () => {
    check('WITH "A" AS l MATCH (n:$(l)) SET n:$(l + "x") REMOVE n:$(l) RETURN n');
    check('UNWIND ["T"] AS t CREATE (a)-[:$(t)]->(b)');
    expectError('MATCH (n:$(nope)) RETURN n', 'Variable `nope` not defined');
    expectError('MATCH (n) SET n:$(nope)', 'Variable `nope` not defined');
    expectError('MATCH (n) REMOVE n:$(nope)', 'Variable `nope` not defined');
    expectError('CREATE (n:$any($l))', 'must be conjunctions of labels');
    expectError('CREATE ()-[:$any($t)]->()', 'Exactly one relationship type');
  });
});
