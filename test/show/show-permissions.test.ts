/**
 * A SHOW command planned under YIELD/WHERE/RETURN keeps the permissions of its target:
 * server information needs nothing, schema listings need `read`, accounts need `admin`.
 */
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

test('SHOW permissions do not depend on YIELD / WHERE / RETURN', () => {
  assert.deepEqual(permissions('SHOW DATABASES'), []);
  assert.deepEqual(permissions('SHOW DATABASES YIELD name WHERE name <> "x" RETURN name'), []);
  assert.deepEqual(permissions('SHOW FUNCTIONS YIELD name RETURN count(*) AS c'), []);
  assert.deepEqual(permissions('SHOW INDEXES'), ['read']);
  assert.deepEqual(permissions("SHOW INDEXES YIELD type WHERE type = 'TEXT' RETURN type, count(*)"), ['read']);
  assert.deepEqual(permissions('SHOW CONSTRAINTS YIELD * ORDER BY name LIMIT 1'), ['read']);
  assert.deepEqual(permissions('CREATE INDEX i FOR (n:L) ON (n.p)'), ['schema']);
  assert.deepEqual(permissions('MATCH (n) RETURN n'), ['read']);
});
