import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parse } from '../../src/engine/cypher/parser/index.js';
import type { CypherValue } from '../../src/engine/values/types.js';
import { pureCreateEstimate } from '../../src/engine/cypher/pure-create.js';

const estimate = (text: string, parameters: Record<string, CypherValue> = {}) =>
  pureCreateEstimate(parse(text), new Map(Object.entries(parameters)));

describe('pure CREATE classification (from the AST)', () => {
  it('accepts CREATE-only statements and estimates what they create', () => {
    assert.deepEqual(estimate('CREATE (:A {x: 1})'), { nodes: 1, relationships: 0 });
    assert.deepEqual(estimate('CREATE (a:A)-[:R]->(b:B)<-[:S]-(:C)'), { nodes: 3, relationships: 2 });
    assert.deepEqual(estimate('CREATE (a:A) CREATE (a)-[:R]->(:B)'), { nodes: 2, relationships: 1 }, 'a bound node is not created twice');
    assert.deepEqual(estimate('CREATE (:A), (:B)'), { nodes: 2, relationships: 0 });
  });

  it('multiplies by UNWIND of a parameter or literal list', () => {
    assert.deepEqual(estimate('UNWIND $rows AS r CREATE (:P {id: r.id})', { rows: [1n, 2n, 3n, 4n] }), { nodes: 4, relationships: 0 });
    assert.deepEqual(estimate('UNWIND [1, 2] AS x UNWIND [1, 2, 3] AS y CREATE (:P)-[:R]->(:Q)'), { nodes: 12, relationships: 6 });
  });

  it('rejects everything else', () => {
    for (const text of [
      'MATCH (a) CREATE (a)-[:R]->(:B)',
      'MERGE (:A)',
      'CREATE (n:A) SET n.x = 1',
      'CREATE (n:A) RETURN n',
      'CREATE (n:A) WITH n CREATE (:B)',
      'CREATE (:A {c: COUNT { MATCH (m) RETURN m }})',
      'CREATE (:A {c: size([(m)-->() | m])})',
      'EXPLAIN CREATE (:A)',
      'USE other CREATE (:A)',
      'CREATE INDEX i FOR (n:A) ON (n.x)',
      'CREATE DATABASE d',
      'RETURN 1',
      'CREATE (:A) UNION CREATE (:B)',
    ]) {
      let result: unknown;
      try {
        result = estimate(text);
      } catch {
        result = null;
      }
      assert.equal(result, null, text);
    }
  });
});
