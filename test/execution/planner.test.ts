/**
 * Planner tests: compact plan strings (Kuzu's optimizer tests) for anchor choice, filter
 * push-down and index seek selection, against a fake catalog.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parse } from '../../src/engine/cypher/parser/index.js';
import { planStatement } from '../../src/engine/cypher/planner/plan-statement.js';
import { PlannerContext } from '../../src/engine/cypher/planner/planner-context.js';
import type { PlannerCatalog } from '../../src/engine/cypher/planner/planner-context.js';
import { printPlan } from '../../src/engine/cypher/planner/print-plan.js';
import type { IndexDefinition } from '../../src/engine/storage/graph-store.js';

function catalog(counts: Record<string, number>, indexed: readonly string[] = []): PlannerCatalog {
  return {
    countNodes: (label?: string) => (label === undefined ? 1000 : (counts[label] ?? 0)),
    countRelationships: () => 0,
    findIndex: (_entity, label, property): IndexDefinition | null =>
      indexed.includes(`${label}.${property}`)
        ? {
            name: `idx_${label}_${property}`,
            type: 'RANGE',
            entityType: 'NODE',
            labelsOrTypes: [label],
            properties: [property],
            owningConstraint: null,
            options: new Map(),
            state: 'ONLINE',
          }
        : null,
  };
}

function plan(query: string, cat: PlannerCatalog): string {
  const ctx = new PlannerContext(cat, () => ({ inputs: [], outputs: [] }));
  return printPlan(planStatement(parse(query), ctx).plan);
}

test('the anchor is the smaller label; the other end is expanded into', () => {
  const text = plan('MATCH (a:Big)-[:R]->(b:Small) RETURN a', catalog({ Big: 900, Small: 3 }));
  const lines = text.split('\n').map((l) => l.trim());
  const scan = lines.find((l) => l.startsWith('NodeByLabelScan'));
  assert.equal(scan, 'NodeByLabelScan b:Small');
  assert.ok(
    lines.some((l) => l.startsWith('Expand (b)<-[')),
    text,
  );
});

test('WHERE conjuncts are split and pushed down to the operator binding their variables', () => {
  const text = plan('MATCH (a:A)-[:R]->(b) WHERE a.x = 1 AND b.y = 2 RETURN b', catalog({ A: 5 }));
  const lines = text.split('\n').map((l) => l.trim());
  const expand = lines.findIndex((l) => l.startsWith('Expand'));
  const filterA = lines.indexOf('Filter a.x = 1');
  const filterB = lines.indexOf('Filter b.y = 2');
  assert.ok(filterB < expand && expand < filterA, text);
});

test('an indexed equality turns the label scan into an index seek that answers it, keeping the other filters', () => {
  const text = plan('MATCH (p:Person) WHERE p.email = $e AND p.age > 3 RETURN p', catalog({ Person: 100 }, ['Person.email']));
  assert.match(text, /Filter p\.age > 3\n\s+NodeIndexSeek INDEX idx_Person_email p:Person\(email\) equals/);
  assert.doesNotMatch(text, /Filter p\.email/);
});

test('a range seek keeps its predicate as a filter', () => {
  const text = plan('MATCH (p:Person) WHERE p.email > $e RETURN p', catalog({ Person: 100 }, ['Person.email']));
  assert.match(text, /Filter p\.email > \$e\n\s+NodeIndexSeek INDEX idx_Person_email p:Person\(email\) range/);
});

test('a predicate depending on the scanned node itself is not used for a seek', () => {
  const text = plan('MATCH (p:Person) WHERE p.email = p.other RETURN p', catalog({ Person: 100 }, ['Person.email']));
  assert.doesNotMatch(text, /NodeIndexSeek/);
});

/** Operator names of a printed plan, top down. */
function operatorLines(text: string): string[] {
  return text.split('\n').map((l) => l.trim().split(' ')[0]);
}

test('write clauses after reads are planned behind an Eager', () => {
  for (const query of [
    'MATCH (n:A) CREATE (:A) RETURN count(*) AS c',
    'MATCH (n:A) SET n.x = 1',
    'MATCH (n) CREATE (:B)',
    'MATCH (a:A)-[:R]->(b) CREATE (a)-[:R]->(b)',
    'MATCH (a:A) WHERE size([(a)-->() | 1]) > 0 CREATE (a)-[:R]->(a)',
    'MATCH (a:A) WHERE exists { (a)-->() } CREATE (a)-[:R]->(a)',
    'MATCH (a:A) WITH a, 1 AS x CREATE (a)-[:R]->(a)',
    'MATCH (a:A) CREATE (:B:A)',
  ]) {
    const lines = operatorLines(plan(query, catalog({ A: 1 })));
    const write = lines.findIndex((op) => op === 'Create' || op === 'SetProperties');
    assert.equal(lines[write + 1], 'Eager', `${query}\n${lines.join('\n')}`);
  }
});

test('a CREATE that adds nothing its label reads can return is not behind an Eager', () => {
  for (const query of [
    'MATCH (a:A {id: $a}), (b:A {id: $b}) CREATE (a)-[:R]->(b)',
    'MATCH (a:A) WHERE a.x > 1 CREATE (a)-[:R {w: a.x}]->(:B)',
  ]) {
    const lines = operatorLines(plan(query, catalog({ A: 1 }, ['A.id'])));
    assert.ok(!lines.includes('Eager'), `${query}\n${lines.join('\n')}`);
  }
});
