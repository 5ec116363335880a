/**
 * Cypher 25 / GQL: LET, FILTER, INSERT, NEXT and conditional queries (WHEN/THEN/ELSE): parse
 * shapes, canonical printing with round trips, semantic errors, results, and `CYPHER 5`
 * rejecting them (`CYPHER 25` and no prefix accept).
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { Kind, print, type SingleQuery, type With } from '../../../src/engine/cypher/ast/index.js';
import { parse } from '../../../src/engine/cypher/parser/index.js';
import { sameAst } from '../../../src/engine/cypher/semantic/ast-utils.js';
import { CypherSyntaxError } from '../../../src/engine/errors/index.js';
import { GraphDB } from '../../../src/engine/index.js';

const roundTrips: ReadonlyArray<readonly [string, string]> = [
  ['let x = 1 return x', 'LET x = 1 RETURN x'],
  ['LET a = 1, b = a + 1 RETURN a, b', 'LET a = 1 LET b = a + 1 RETURN a, b'],
  ['UNWIND [1, 2] AS n FILTER WHERE n > 1 RETURN n', 'UNWIND [1, 2] AS n FILTER n > 1 RETURN n'],
  ['MATCH (n) FILTER n.x = 1 LET y = n.x RETURN y', 'MATCH (n) FILTER n.x = 1 LET y = n.x RETURN y'],
  ['insert (a:A&B {k: 1})-[:R]->(b)', 'INSERT (a:A&B {k: 1})-[:R]->(b)'],
  [
    'UNWIND [1, 2] AS x RETURN x ORDER BY x DESC NEXT RETURN x + 1 AS y',
    'UNWIND [1, 2] AS x RETURN x ORDER BY x DESC NEXT RETURN x + 1 AS y',
  ],
  [
    'WHEN $a THEN RETURN 1 AS r ELSE RETURN 2 AS r',
    'FILTER coalesce($a, false) RETURN 1 AS r UNION ALL FILTER NOT coalesce($a, false) RETURN 2 AS r',
  ],
];

describe('Cypher 25 / GQL clauses', () => {
  let db: GraphDB;
  before(async () => {
    db = await GraphDB.open({ search: false });
  });
  after(() => db.close());

  const rows = async (query: string) => (await (await db.session().run(query)).pull(-1)).records.map((r) => [...r]);

  test('parse into WITH clauses that keep the scope, print back as written', () => {
    const query = parse('LET a = 1, b = 2 FILTER a < b RETURN a').body as SingleQuery;
    const clauses = query.clauses as With[];
    assert.deepEqual(
      clauses.slice(0, 3).map((c) => [c.kind, c.form, c.projection.star]),
      [
        [Kind.With, 'LET', true],
        [Kind.With, 'LET', true],
        [Kind.With, 'FILTER', true],
      ],
    );
    for (const [text, printed] of roundTrips) {
      const ast = parse(text);
      assert.equal(print(ast), printed, text);
      assert.ok(sameAst(parse(printed), ast), `${text}   printed: ${printed}`);
    }
  });

  test('results: later bindings see earlier ones; FILTER keeps matching rows', async () => {
    assert.deepEqual(await rows('LET x = 1 RETURN x'), [[1n]]);
    assert.deepEqual(await rows('CYPHER 25 LET a = 2, b = a * 3 RETURN a, b'), [[2n, 6n]]);
    assert.deepEqual(await rows('UNWIND range(1, 6) AS n FILTER n % 2 = 0 LET sq = n * n RETURN n, sq'), [
      [2n, 4n],
      [4n, 16n],
      [6n, 36n],
    ]);
    assert.deepEqual(await rows('WITH 1 AS filter, 2 AS let RETURN filter + let AS s'), [[3n]], 'still usable as names');
    assert.deepEqual(await rows('RETURN [x IN [1, 2, 3] WHERE x > 1] AS f'), [[[2n, 3n]]]);
  });

  test('INSERT creates like CREATE', async () => {
    assert.deepEqual(await rows('INSERT (n:Gql&Made {k: 1})-[:R]->(:Gql {k: 2}) RETURN labels(n) AS l'), [[['Gql', 'Made']]]);
    assert.deepEqual(await rows('MATCH (a:Gql)-[:R]->(b:Gql) RETURN a.k, b.k'), [[1n, 2n]]);
  });

  test('NEXT passes exactly the returned rows and columns on', async () => {
    assert.deepEqual(await rows('UNWIND [1, 2, 3] AS x RETURN x ORDER BY x DESC LIMIT 2 NEXT RETURN x * 10 AS x'), [[30n], [20n]]);
    assert.deepEqual(await rows('UNWIND [1, 2] AS x WITH x, 5 AS hidden RETURN x NEXT RETURN x'), [[1n], [2n]]);
    await assert.rejects(rows('UNWIND [1, 2] AS x WITH x, 5 AS hidden RETURN x NEXT RETURN hidden'), /hidden/);
    assert.deepEqual(await rows('RETURN 1 AS a UNION RETURN 2 AS a NEXT RETURN sum(a) AS s'), [[3n]]);
    assert.throws(() => parse('CREATE (n) NEXT RETURN 1'), /must end with RETURN/);
  });

  test('WHEN/THEN/ELSE runs the first branch whose condition is true', async () => {
    assert.deepEqual(await rows("WHEN 1 > 2 THEN RETURN 'a' AS r WHEN true THEN RETURN 'b' AS r ELSE RETURN 'c' AS r"), [['b']]);
    assert.deepEqual(await rows("WHEN null THEN RETURN 'a' AS r ELSE RETURN 'c' AS r"), [['c']], 'null is not true');
    assert.deepEqual(await rows("WHEN false THEN RETURN 'a' AS r"), [], 'no branch, no rows');
    assert.deepEqual(await rows("UNWIND [1, 5] AS n CALL (n) { WHEN n > 2 THEN RETURN 'big' AS s ELSE RETURN 'small' AS s } RETURN n, s"), [
      [1n, 'small'],
      [5n, 'big'],
    ]);
    await assert.rejects(rows('WHEN true THEN RETURN 1 AS a ELSE RETURN 2 AS b'), { code: 'Neo.ClientError.Statement.SyntaxError' });
  });

  test('errors: rebinding, aggregation in LET, CYPHER 5', async () => {
    await assert.rejects(rows('LET x = 1 LET x = 2 RETURN x'), {
      code: 'Neo.ClientError.Statement.SyntaxError',
      message: /Variable `x` already declared/,
    });
    await assert.rejects(rows('UNWIND [1] AS n LET c = count(n) RETURN c'), /Aggregate expressions are not allowed in LET/);
    assert.throws(() => parse('CYPHER 5 LET x = 1 RETURN x'), CypherSyntaxError);
    assert.throws(() => parse('CYPHER 5 UNWIND [1] AS n FILTER n > 0 RETURN n'), CypherSyntaxError);
    assert.throws(() => parse('CYPHER 5 INSERT (n)'), CypherSyntaxError);
    assert.throws(() => parse('CYPHER 5 RETURN 1 AS x NEXT RETURN x'), CypherSyntaxError);
    assert.throws(() => parse('CYPHER 5 WHEN true THEN RETURN 1 AS x'), CypherSyntaxError);
  });
});
