/**
 * Too-deep input is a ClientError naming the limit, never a stack overflow reported as
 * `Neo.DatabaseError.General.UnknownError`: nested parentheses, lists, maps, NOT and unary minus
 * past 200 levels, and operator chains past 800.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { GraphDB } from '../../src/engine/index.js';
import type { Session } from '../../src/engine/index.js';

let db: GraphDB;
let session: Session;
before(async () => {
  db = await GraphDB.open();
  session = db.session();
});
after(() => db.close());

async function outcome(query: string): Promise<string> {
  try {
    await (await session.run(query)).pull(-1);
    return 'ok';
  } catch (error) {
    const { code, message } = error as { code?: string; message: string };
    return code === 'Neo.ClientError.Statement.SyntaxError' && /nested too deeply.*200 levels.*800 levels/.test(message)
      ? 'limit'
      : `${code}: ${message}`;
  }
}

test('nesting within the limits runs', async () => {
  for (const query of [
    `RETURN ${'('.repeat(150)}1${')'.repeat(150)}`,
    `RETURN ${'['.repeat(150)}${']'.repeat(150)}`,
    `RETURN 1${' + 1'.repeat(700)}`,
  ])
    assert.equal(await outcome(query), 'ok');
});

test('deeper input is a SyntaxError naming the limit', async () => {
  for (const n of [201, 5_000]) {
    assert.equal(await outcome(`RETURN ${'('.repeat(n)}1${')'.repeat(n)}`), 'limit');
    assert.equal(await outcome(`RETURN ${'['.repeat(n)}${']'.repeat(n)}`), 'limit');
    assert.equal(await outcome(`RETURN ${'{a: '.repeat(n)}1${'}'.repeat(n)}`), 'limit');
    assert.equal(await outcome(`RETURN ${'NOT '.repeat(n)}true`), 'limit');
    assert.equal(await outcome(`RETURN ${'- '.repeat(n)}1`), 'limit');
  }
  assert.equal(await outcome(`RETURN 1${' + 1'.repeat(50_000)}`), 'limit');
  assert.equal(await outcome(`RETURN true${' AND true'.repeat(50_000)}`), 'limit');
  assert.equal(await outcome('RETURN 1'), 'ok', 'the session still works');
});
