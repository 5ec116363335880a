import assert from 'node:assert/strict';
import { test } from 'node:test';
import { print } from '../../../src/engine/cypher/ast/index.js';
import { parse } from '../../../src/engine/cypher/parser/index.js';
import { sameAst } from '../../../src/engine/cypher/semantic/ast-utils.js';

const kitchenSink = [
  "CYPHER 5 EXPLAIN MATCH p = (a:Person:Admin {name: 'x\\'y', `odd key`: [1, 2.5, -3, null, true]})-[r:KNOWS|LIKES*1..3 {since: $since}]->(b WHERE b.age > 3) USING INDEX a:Person(name) WHERE a.name STARTS WITH 'A' AND NOT b:Blocked|Ghost AND (a)-[:T]->(b) OPTIONAL MATCH (b)<-[:R]-(c) WITH DISTINCT a, collect(b) AS bs, count(*) AS n ORDER BY n DESC SKIP 1 LIMIT 10 WHERE n > 1 UNWIND bs AS b RETURN a {.name, .*, friends: [x IN bs WHERE x.age > 1 | x.name]} AS m, CASE WHEN n > 1 THEN 'many' ELSE 'one' END AS c, reduce(s = 0, x IN range(1, 3) | s + x) AS total, [(a)-->(z) | z.name] AS zs, EXISTS { MATCH (a)-->(q) } AS e, COUNT { (a)-->() } AS k, COLLECT { MATCH (a)-->(q) RETURN q.x } AS qs, all(x IN [1] WHERE x > 0) AS ok, a.list[1..2] AS sl, n ^ 2 % 3 AS mod, a.name =~ 'A.*' AS re, a.x IS NOT NULL AS nn, a.x IS :: INTEGER NOT NULL AS typed",
  'MATCH (n) CALL (n) { WITH n MERGE (n)-[:T]->(m:M {id: 1}) ON CREATE SET m.created = timestamp() ON MATCH SET m += {seen: true}, m:Seen RETURN m } IN TRANSACTIONS OF 100 ROWS ON ERROR CONTINUE SET n.x = 1 REMOVE n.y, n:Old DETACH DELETE n',
  'FOREACH (i IN range(0, 3) | CREATE (:N {i: i})) WITH 1 AS one CALL db.labels() YIELD label AS l WHERE l <> "x" RETURN l UNION ALL RETURN "y" AS l',
  "LOAD CSV WITH HEADERS FROM 'file:///a.csv' AS row FIELDTERMINATOR ';' MATCH (a) ((x)-[:R]->(y)){1,3} (b) MATCH SHORTEST 2 GROUPS (a)-->+(c) RETURN row, shortestPath((a)-[*]-(b)) AS sp",
  'CREATE CONSTRAINT c IF NOT EXISTS FOR (n:P) REQUIRE (n.a, n.b) IS NODE KEY OPTIONS {}',
  'SHOW UNIQUE CONSTRAINTS YIELD name, type ORDER BY name SKIP 1 LIMIT 2 WHERE type = "x" RETURN name',
  "ALTER DATABASE `my.db` IF EXISTS SET LIMIT max_nodes 100 SET OPTION txLogEnrichment 'FULL' REMOVE OPTION other",
];

test('print() output parses back to the same AST (kitchen sink)', () => {
  for (const text of kitchenSink) {
    const ast = parse(text);
    const printed = print(ast);
    assert.ok(sameAst(parse(printed), ast), `${text}\n  printed: ${printed}`);
    assert.equal(print(parse(printed)), printed, 'printing is idempotent');
  }
});

test('print() is canonical: upper-case keywords, minimal parentheses, quoting where needed', () => {
  assert.equal(
    print(parse('match (n) where (n.a + 1) * 2 > 3 return n.`a b`, n.`count`, count(n)')),
    'MATCH (n) WHERE (n.a + 1) * 2 > 3 RETURN n.`a b`, n.count, count(n)',
  );
  assert.equal(print(parse('MATCH (`where`:`Match`) RETURN `where`')), 'MATCH (`where`:Match) RETURN `where`');
  assert.equal(print(parse('RETURN r IS A IS B, r:A:B')), 'RETURN (r:A):B, r:A:B');
  assert.equal(print(parse("RETURN 'it''s'".replace("''", "\\'"))), "RETURN 'it\\'s'");
  assert.equal(print(parse('RETURN 1.0, 1e21, -(-1)')), 'RETURN 1.0, 1e+21, - -1');
});
