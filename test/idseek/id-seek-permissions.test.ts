import assert from 'node:assert/strict';
import { test } from 'node:test';
import { requiredPermissions } from '../../src/engine/auth/statement-permissions.js';
import { planStatement } from '../../src/engine/cypher/planner/plan-statement.js';
import { PlannerContext } from '../../src/engine/cypher/planner/planner-context.js';
import { compile } from '../../src/engine/cypher/query-cache.js';

const catalog = { findIndex: () => null, countNodes: () => 0, countRelationships: () => 0 };

function permissions(query: string): string[] {
  const ctx = new PlannerContext(catalog as never, () => ({ inputs: [], outputs: [] }) as never);
  return requiredPermissions(planStatement(compile(query).ast, ctx));
}

test('statements reading through an id seek still need read permission', () => {
  assert.deepEqual(permissions('MATCH (n) WHERE id(n) = $id DETACH DELETE n'), ['read', 'delete']);
  assert.deepEqual(permissions('MATCH (n:L) WHERE elementId(n) IN $ids SET n.x = 1'), ['read', 'write']);
  assert.deepEqual(permissions('MATCH ()-[r]->() WHERE id(r) = 1 DELETE r'), ['read', 'delete']);
  assert.deepEqual(permissions('MATCH ()-[r]-() WHERE elementId(r) = $e SET r.x = 1'), ['read', 'write']);
});
