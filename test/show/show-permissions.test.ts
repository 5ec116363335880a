/**
 * A SHOW command planned under YIELD/WHERE/RETURN keeps the privileges of its target: server
 * information needs nothing, schema listings SHOW INDEX/CONSTRAINT, accounts DBMS privileges.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { compile } from '../../src/engine/cypher/query-cache.js';
import { statementAccess } from '../../src/engine/cypher/semantic/access.js';

function privileges(query: string): string[] {
  return statementAccess(compile(query).ast).requirements.map((r) => ('privilege' in r ? r.privilege : r.action));
}

test('SHOW privileges do not depend on YIELD / WHERE / RETURN', () => {
  assert.deepEqual(privileges('SHOW DATABASES'), []);
  assert.deepEqual(privileges('SHOW DATABASES YIELD name WHERE name <> "x" RETURN name'), []);
  assert.deepEqual(privileges('SHOW FUNCTIONS YIELD name RETURN count(*) AS c'), []);
  assert.deepEqual(privileges('SHOW INDEXES'), ['show_index']);
  assert.deepEqual(privileges("SHOW INDEXES YIELD type WHERE type = 'TEXT' RETURN type, count(*)"), ['show_index']);
  assert.deepEqual(privileges('SHOW CONSTRAINTS YIELD * ORDER BY name LIMIT 1'), ['show_constraint']);
  assert.deepEqual(privileges('SHOW USERS YIELD user WHERE user <> "x" RETURN count(*) AS n'), ['show_user']);
  assert.deepEqual(privileges('SHOW ROLES WITH USERS'), ['show_role', 'show_user']);
  assert.deepEqual(privileges('SHOW PRIVILEGES AS COMMANDS'), ['show_privilege']);
  assert.deepEqual(privileges('SHOW USER PRIVILEGES'), []);
  assert.deepEqual(privileges('CREATE INDEX i FOR (n:L) ON (n.p)'), ['index']);
});
