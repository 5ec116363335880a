/**
 * Front end of the alias and limit commands: parse shapes, `parse(print(ast))` round trips and
 * the canonical printed form, and syntax errors.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { Kind, print, type AlterAlias, type AlterDatabase, type DropDatabase, type Show } from '../../../src/engine/cypher/ast/index.js';
import { parse } from '../../../src/engine/cypher/parser/index.js';
import { analyze } from '../../../src/engine/cypher/semantic/index.js';
import { sameAst } from '../../../src/engine/cypher/semantic/ast-utils.js';
import { CypherSyntaxError } from '../../../src/engine/errors/index.js';

const roundTrips: ReadonlyArray<readonly [string, string]> = [
  [
    "create alias main for database tenant1 properties {team: 'a', n: 1}",
    "CREATE ALIAS main FOR DATABASE tenant1 PROPERTIES {team: 'a', n: 1}",
  ],
  [
    'CREATE OR REPLACE ALIAS `my-alias` IF NOT EXISTS FOR DATABASE $db',
    'CREATE OR REPLACE ALIAS `my-alias` IF NOT EXISTS FOR DATABASE $db',
  ],
  [
    'ALTER ALIAS main IF EXISTS SET DATABASE TARGET other PROPERTIES $p',
    'ALTER ALIAS main IF EXISTS SET DATABASE TARGET other PROPERTIES $p',
  ],
  ['ALTER ALIAS main SET DATABASE PROPERTIES {}', 'ALTER ALIAS main SET DATABASE PROPERTIES {}'],
  ['DROP ALIAS main IF EXISTS FOR DATABASE', 'DROP ALIAS main IF EXISTS FOR DATABASE'],
  ['SHOW ALIASES FOR DATABASE', 'SHOW ALIASES FOR DATABASES'],
  [
    'SHOW ALIAS main FOR DATABASES YIELD name, database WHERE database = "x" RETURN name',
    "SHOW ALIASES main FOR DATABASES YIELD name, database WHERE database = 'x' RETURN name",
  ],
  [
    "ALTER DATABASE tenant1 SET LIMIT max_nodes = 10, max_relationships = 20, max_query_time = '30s'",
    "ALTER DATABASE tenant1 SET LIMIT max_nodes = 10 SET LIMIT max_relationships = 20 SET LIMIT max_query_time = '30s'",
  ],
  ['ALTER DATABASE tenant1 SET LIMIT max_nodes 10', 'ALTER DATABASE tenant1 SET LIMIT max_nodes = 10'],
  ['SHOW LIMITS', 'SHOW LIMITS'],
  ['SHOW LIMITS FOR DATABASE tenant1 YIELD * WHERE value IS NOT NULL', 'SHOW LIMITS FOR DATABASE tenant1 YIELD * WHERE value IS NOT NULL'],
  ['DROP DATABASE tenant1 IF EXISTS CASCADE ALIAS', 'DROP DATABASE tenant1 IF EXISTS CASCADE ALIASES'],
  ['DROP DATABASE tenant1 RESTRICT DESTROY DATA', 'DROP DATABASE tenant1'],
];

function expectSyntaxError(text: string, fragment: string): void {
  assert.throws(
    () => parse(text),
    (error: unknown) => {
      assert.ok(error instanceof CypherSyntaxError, `${text}: ${String(error)}`);
      assert.match(error.message, new RegExp(fragment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')), text);
      return true;
    },
  );
}

describe('alias and limit commands in the front end', () => {
  test('print() is canonical and parses back to the same AST', () => {
    for (const [text, printed] of roundTrips) {
      const ast = parse(text);
      assert.equal(print(ast), printed, text);
      assert.ok(sameAst(parse(printed), ast), `${text}\n  printed: ${printed}`);
    }
  });

  test('ALTER ALIAS, SET LIMIT lists and CASCADE ALIASES build the expected nodes', () => {
    const alter = parse('ALTER ALIAS a SET DATABASE TARGET b').body as AlterAlias;
    assert.equal(alter.kind, Kind.AlterAlias);
    assert.equal(alter.target?.name, 'b');
    assert.equal(alter.properties, null);
    const limits = parse('ALTER DATABASE d SET LIMIT max_nodes = 1, max_edges = 2 SET LIMIT max_query_time = $t').body as AlterDatabase;
    assert.deepEqual(
      limits.settings.map((s) => [s.category, s.key, s.value?.kind]),
      [
        ['LIMIT', 'max_nodes', Kind.IntegerLiteral],
        ['LIMIT', 'max_edges', Kind.IntegerLiteral],
        ['LIMIT', 'max_query_time', Kind.Parameter],
      ],
    );
    assert.equal((parse('DROP DATABASE d CASCADE ALIASES').body as DropDatabase).cascadeAliases, true);
    assert.equal((parse('DROP DATABASE d').body as DropDatabase).cascadeAliases, false);
    const show = parse('SHOW LIMITS FOR DATABASE d').body as Show;
    assert.deepEqual([show.target, show.name?.kind], ['LIMITS', Kind.Variable]);
  });

  test('malformed commands are syntax errors with the expected token', () => {
    expectSyntaxError('ALTER ALIAS a SET DATABASE', "expected 'TARGET' or 'PROPERTIES'");
    expectSyntaxError('ALTER ALIAS a SET TARGET b', "expected 'DATABASE'");
    expectSyntaxError('DROP DATABASE d CASCADE', "expected 'ALIASES'");
    expectSyntaxError('ALTER DATABASE d SET LIMIT', 'expected a limit name');
    expectSyntaxError('ALTER DATABASE d SET LIMIT max_nodes = 1,', 'expected a limit name');
    expectSyntaxError('SHOW LIMITS FOR tenant', "expected 'DATABASE'");
  });

  test('command values must be constants: variables are undefined, computed values refused', () => {
    analyze(parse("CREATE ALIAS a FOR DATABASE b PROPERTIES {x: [1, -2.5, 'y', $p], m: {n: null}}"));
    analyze(parse('ALTER DATABASE d SET LIMIT max_nodes = -1, max_query_time = $t'));
    const refused = (text: string, fragment: string): void => {
      assert.throws(
        () => analyze(parse(text)),
        (error: unknown) => {
          assert.ok(error instanceof CypherSyntaxError, String(error));
          assert.ok(error.message.includes(fragment), error.message);
          return true;
        },
      );
    };
    refused('CREATE ALIAS a FOR DATABASE b PROPERTIES {x: n}', 'Variable `n` not defined');
    refused('ALTER ALIAS a SET DATABASE PROPERTIES {x: [m]}', 'Variable `m` not defined');
    refused('ALTER DATABASE d SET LIMIT max_nodes = 1 + 2', 'only literal values and parameters');
    refused("ALTER DATABASE d SET LIMIT max_query_time = duration('PT1S')", 'only literal values and parameters');
  });
});
