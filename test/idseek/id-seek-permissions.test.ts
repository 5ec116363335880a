import assert from 'node:assert/strict';
import { test } from 'node:test';
import { compile } from '../../src/engine/cypher/query-cache.js';
import { statementAccess } from '../../src/engine/cypher/semantic/access.js';

/** The privilege actions a statement needs, whatever operator the planner picks (an id seek or a scan). */
function actions(query: string): string[] {
  return [...new Set(statementAccess(compile(query).ast).requirements.map((r) => r.action))].sort();
}

test('statements reading through an id seek still need traverse', () => {
  assert.deepEqual(actions('MATCH (n) WHERE id(n) = $id DETACH DELETE n'), ['delete_element', 'traverse']);
  assert.deepEqual(actions('MATCH (n:L) WHERE elementId(n) IN $ids SET n.x = 1'), ['set_property', 'traverse']);
  assert.deepEqual(actions('MATCH ()-[r]->() WHERE id(r) = 1 DELETE r'), ['delete_element', 'traverse']);
  assert.deepEqual(actions('MATCH ()-[r]-() WHERE elementId(r) = $e SET r.x = 1'), ['set_property', 'traverse']);
});
