import { inspect } from 'node:util';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { encodePropertyValue, decodePropertyValue } from '../../src/engine/storage/index.js';
import { codecValue, props, sameValue, scalarArbitraries, storableValue, tempEngine } from './helpers.js';
import type { CypherValue } from '../../src/engine/values/types.js';

test('codec round-trips every value type exactly', () => {
  fc.assert(
    fc.property(codecValue, (value) => {
      const decoded = decodePropertyValue(encodePropertyValue(value));
      assert.ok(sameValue(value, decoded), `mismatch for ${inspect(value)}`);
    }),
    { numRuns: 2000 },
  );
});

test('codec edge cases: 64-bit limits, NaN, infinities, negative zero, empty containers', () => {
  const cases: CypherValue[] = [
    -(2n ** 63n),
    2n ** 63n - 1n,
    2147483647n,
    2147483648n,
    -2147483648n,
    -2147483649n,
    NaN,
    Infinity,
    -Infinity,
    -0,
    0,
    '',
    'näive 🎉 \u0000 end',
    new Uint8Array(),
    [],
    new Map(),
    [1n, null, 'x'],
  ];
  for (const value of cases) assert.ok(sameValue(value, decodePropertyValue(encodePropertyValue(value))), inspect(value));
  const negativeZero = decodePropertyValue(encodePropertyValue(-0));
  assert.ok(Object.is(negativeZero, -0));
});

test('codec is compact for small values', () => {
  assert.equal(encodePropertyValue(5n).length, 2);
  assert.equal(encodePropertyValue(true).length, 1);
  assert.equal(encodePropertyValue('abc').length, 5);
});

test('every property value kind round-trips through node and relationship writes and reads', async () => {
  const env = tempEngine();
  try {
    const db = env.engine.database();
    const samples = fc.sample(fc.array(storableValue, { minLength: 1, maxLength: 8 }), 60);
    const written: { node: bigint; rel: bigint; values: CypherValue[] }[] = [];
    const tx = await db.beginWrite();
    for (const values of samples) {
      const properties = props(Object.fromEntries(values.map((v, i) => [`p${i}`, v])));
      const node = tx.createNode(['Sample'], properties);
      const rel = tx.createRelationship('HAS', node, node, properties);
      written.push({ node, rel, values });
    }
    tx.commit();
    const check = (reader: ReturnType<typeof db.beginRead>): void => {
      for (const { node, rel, values } of written) {
        const record = reader.getNode(node)!;
        const relRecord = reader.getRelationship(rel)!;
        values.forEach((value, i) => {
          assert.ok(sameValue(record.properties.get(`p${i}`), value), `node p${i}`);
          assert.ok(sameValue(reader.nodeProperty(node, `p${i}`), value), `nodeProperty p${i}`);
          assert.ok(sameValue(relRecord.properties.get(`p${i}`), value), `rel p${i}`);
          assert.ok(sameValue(reader.relationshipProperty(rel, `p${i}`), value), `relationshipProperty p${i}`);
        });
      }
    };
    const reader = db.beginRead();
    check(reader);
    reader.close();
    const reopened = env.reopen().database().beginRead();
    check(reopened);
    reopened.close();
  } finally {
    env.dispose();
  }
});

test('every scalar kind is storable; maps, nulls in lists and mixed lists are rejected with TypeError', async () => {
  const env = tempEngine();
  try {
    const tx = await env.engine.database().beginWrite();
    for (const [kind, arbitrary] of Object.entries(scalarArbitraries)) {
      const [value] = fc.sample(arbitrary, 1);
      tx.createNode(['K'], props({ [kind]: value! }));
    }
    const node = tx.createNode([], new Map());
    for (const bad of [new Map([['a', 1n]]), [1n, null], [1n, 'x'], [[1n]]] as CypherValue[]) {
      assert.throws(() => tx.setNodeProperty(node, 'bad', bad), { code: 'Neo.ClientError.Statement.TypeError' });
    }
    tx.rollback();
  } finally {
    env.dispose();
  }
});
