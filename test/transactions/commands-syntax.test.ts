/**
 * Front end of the transaction and settings commands: SHOW TRANSACTIONS / SHOW SETTINGS with id
 * or name lists, TERMINATE TRANSACTIONS with YIELD/WHERE/RETURN, canonical printing that parses
 * back to the same text, and syntax errors.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Kind, print, type ListLiteral, type Show } from '../../src/engine/cypher/ast/index.js';
import { parse } from '../../src/engine/cypher/parser/index.js';

function show(text: string): Show {
  const statement = parse(text);
  assert.equal(statement.body.kind, Kind.Show, text);
  return statement.body;
}

test('SHOW TRANSACTIONS and SHOW SETTINGS take one expression or a comma-separated list', () => {
  assert.equal(show('SHOW TRANSACTIONS').name, null);
  assert.equal(show("SHOW TRANSACTION 'graphdb-transaction-1'").name?.kind, Kind.StringLiteral);
  const listed = show("SHOW TRANSACTIONS 'graphdb-transaction-1', 'graphdb-transaction-2' YIELD transactionId");
  assert.equal(listed.name?.kind, Kind.ListLiteral);
  assert.equal(listed.name.items.length, 2);
  assert.equal(listed.yieldItems?.length, 1);
  assert.equal(show('SHOW TRANSACTIONS $ids WHERE username = "neo4j"').name?.kind, Kind.Parameter);
  const settings = show("SHOW SETTINGS 'server.bolt_port', 'logging.level' YIELD *");
  assert.equal(settings.target, 'SETTINGS');
  assert.equal((settings.name as ListLiteral).items.length, 2);
  assert.equal(show('SHOW SETTING').target, 'SETTINGS');
});

test('TERMINATE TRANSACTIONS parses to a Show with the outcome tail', () => {
  const terminate = show("TERMINATE TRANSACTIONS 'graphdb-transaction-7' YIELD message WHERE message <> '' RETURN message");
  assert.equal(terminate.target, 'TERMINATE TRANSACTIONS');
  assert.equal(terminate.name?.kind, Kind.StringLiteral);
  assert.ok(terminate.where !== null && terminate.returnClause !== null);
  assert.equal(show('terminate transaction $id').target, 'TERMINATE TRANSACTIONS');
});

test('the printer writes canonical text that parses back to itself', () => {
  for (const text of [
    "TERMINATE TRANSACTIONS 'a-transaction-1'",
    "TERMINATE TRANSACTIONS ['a-transaction-1', 'a-transaction-2'] YIELD transactionId, message WHERE message = 'Transaction terminated.'",
    "SHOW TRANSACTIONS ['a-transaction-1', 'a-transaction-2'] YIELD * RETURN count(*)",
    'SHOW SETTINGS $names YIELD name, value',
  ]) {
    const printed = print(parse(text));
    assert.equal(print(parse(printed)), printed, text);
  }
  assert.match(
    print(parse("TERMINATE TRANSACTION 'x-transaction-1', 'x-transaction-2'")),
    /^TERMINATE TRANSACTIONS \['x-transaction-1', 'x-transaction-2'\]$/,
  );
});

test('syntax errors: TERMINATE needs TRANSACTIONS and at least one id', () => {
  for (const text of [
    'TERMINATE',
    'TERMINATE QUERIES',
    'TERMINATE TRANSACTIONS',
    'TERMINATE TRANSACTIONS YIELD *',
    "SHOW TRANSACTIONS 'a',",
  ]) {
    assert.throws(() => parse(text), { code: 'Neo.ClientError.Statement.SyntaxError' }, text);
  }
});
