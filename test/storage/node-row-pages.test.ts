import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import type { CypherValue } from '../../src/engine/values/types.js';
import { props, sameValue, storableValue, tempEngine } from './helpers.js';

const NODES = 700;

test('node scans read packed row pages that match row-by-row reads (all bytes, empty records, label sets)', async () => {
  const env = tempEngine();
  try {
    const db = env.engine.database();
    const values = fc.sample(storableValue, { numRuns: NODES, seed: 7 });
    const tx = await db.beginWrite();
    const bytes = Buffer.from([0, 0xff, 0xfe, 0xc3, 0x28, 0, 0x3b, 0x2c, 0x80]);
    for (let i = 0; i < NODES; i++) {
      const labels = i % 5 === 0 ? [] : i % 3 === 0 ? ['A', 'B'] : ['A'];
      const properties = new Map<string, CypherValue>();
      if (i % 7 !== 0) properties.set('v', values[i]);
      if (i % 4 === 0) properties.set('raw', new Uint8Array(bytes.subarray(0, i % bytes.length)));
      if (i % 11 === 0) properties.set('text', `semi;colon,comma\u0000${i}`);
      const id = tx.createNode(labels, properties);
      if (i % 13 === 0) tx.deleteNode(id, true);
    }
    tx.commit();

    const check = await db.beginWrite();
    const reader = db.beginRead();
    try {
      for (const [scanned, expected] of [
        [reader.allNodeIds(), check.allNodeIds()],
        [reader.nodeIdsByLabel('A'), check.nodeIdsByLabel('A')],
        [reader.nodeIdsByLabel('B'), check.nodeIdsByLabel('B')],
      ] as const) {
        const ids = [...scanned];
        assert.deepEqual(ids, [...expected]);
        for (const id of ids) {
          const got = reader.getNode(id)!;
          const want = check.getNode(id)!;
          assert.deepEqual(got.labels, want.labels);
          assert.equal(got.properties.size, want.properties.size);
          for (const [key, value] of want.properties) assert.ok(sameValue(got.properties.get(key), value), `node ${id} key ${key}`);
          assert.ok(sameValue(reader.nodeProperty(id, 'v'), check.nodeProperty(id, 'v')));
        }
      }
      assert.ok(reader.getNode(10_000n) === null);
    } finally {
      reader.close();
      check.rollback();
    }
  } finally {
    env.dispose();
  }
});

test('a scan abandoned after a few rows and a nested scan read the right rows', async () => {
  const env = tempEngine();
  try {
    const db = env.engine.database();
    const tx = await db.beginWrite();
    for (let i = 0; i < 300; i++) tx.createNode(i % 2 === 0 ? ['Even'] : ['Odd'], props({ i: BigInt(i) }));
    tx.commit();
    const reader = db.beginRead();
    try {
      const firstTen: bigint[] = [];
      for (const id of reader.nodeIdsByLabel('Even')) {
        firstTen.push(reader.nodeProperty(id, 'i') as bigint);
        if (firstTen.length === 10) break;
      }
      assert.deepEqual(
        firstTen,
        Array.from({ length: 10 }, (_, k) => BigInt(2 * k)),
      );
      let pairs = 0;
      for (const outer of reader.nodeIdsByLabel('Odd')) {
        const i = reader.nodeProperty(outer, 'i') as bigint;
        assert.equal(i % 2n, 1n);
        if (i > 41n) break;
        for (const inner of reader.nodeIdsByLabel('Even')) {
          assert.equal((reader.nodeProperty(inner, 'i') as bigint) % 2n, 0n);
          assert.equal(reader.nodeProperty(outer, 'i'), i, 'the outer row after an inner scan');
          pairs++;
        }
      }
      assert.equal(pairs, 21 * 150);
    } finally {
      reader.close();
    }
  } finally {
    env.dispose();
  }
});

test('rows of the nodes an expansion reaches are loaded together and match row-by-row reads', async () => {
  const env = tempEngine();
  try {
    const db = env.engine.database();
    const tx = await db.beginWrite();
    const hub = tx.createNode(['Hub'], props({ name: 'hub' }));
    const others: bigint[] = [];
    for (let i = 0; i < 40; i++)
      others.push(tx.createNode(i % 2 === 0 ? ['P'] : [], i % 3 === 0 ? props({}) : props({ i: BigInt(i), s: `x;${i},` })));
    for (let i = 0; i < 40; i++) {
      tx.createRelationship(i % 4 === 0 ? 'B' : 'A', hub, others[i], props({}));
      if (i % 5 === 0) tx.createRelationship('A', others[i], hub, props({}));
      if (i % 10 === 0) tx.createRelationship('A', hub, others[i], props({}));
    }
    tx.createRelationship('A', hub, hub, props({}));
    tx.commit();

    const check = await db.beginWrite();
    const reader = db.beginRead();
    try {
      for (const direction of ['out', 'in', 'both'] as const) {
        for (const types of [undefined, ['A'], ['B'], ['A', 'B'], ['Missing']]) {
          const handles = [...reader.expand(hub, direction, types)];
          assert.deepEqual(handles, [...check.expand(hub, direction, types)]);
          for (const handle of handles) {
            const other = handle.startId === hub ? handle.endId : handle.startId;
            assert.deepEqual(reader.getNode(other), check.getNode(other), `${direction} ${types?.join(',') ?? 'any'} node ${other}`);
            assert.equal(reader.nodeProperty(hub, 'name'), 'hub');
          }
        }
      }
    } finally {
      reader.close();
      check.rollback();
    }
  } finally {
    env.dispose();
  }
});

test('an equality seek returns its single node with the row read in the same statement; several or none page as before', async () => {
  const env = tempEngine();
  try {
    const db = env.engine.database();
    const tx = await db.beginWrite();
    tx.createIndex(
      { name: 'p_email', type: 'RANGE', entityType: 'NODE', labelsOrTypes: ['P'], properties: ['email'], options: new Map() },
      false,
    );
    const one = tx.createNode(['P', 'Q'], props({ email: 'one@x', n: 1n }));
    const twins: bigint[] = [];
    for (let i = 0; i < 70; i++) twins.push(tx.createNode(['P'], props({ email: 'twin@x', n: BigInt(i) })));
    const gone = tx.createNode(['P'], props({ email: 'gone@x' }));
    tx.commit();
    const del = await db.beginWrite();
    del.deleteNode(gone, true);
    del.setNodeProperty(one, 'n', 2n);
    del.commit();

    const reader = db.beginRead();
    try {
      assert.deepEqual([...reader.seekNodes('P', 'email', { kind: 'equals', value: 'one@x' })], [one]);
      assert.equal(reader.nodeProperty(one, 'n'), 2n);
      assert.deepEqual(reader.nodeLabels(one), ['P', 'Q']);
      assert.deepEqual([...reader.seekNodes('P', 'email', { kind: 'equals', value: 'twin@x' })], twins, 'more than one page of matches');
      assert.deepEqual([...reader.seekNodes('P', 'email', { kind: 'equals', value: 'gone@x' })], []);
      assert.deepEqual([...reader.seekNodes('P', 'email', { kind: 'equals', value: 'nobody@x' })], []);
      assert.equal(reader.nodeProperty(twins[3], 'n'), 3n);
      assert.deepEqual([...reader.seekNodes('P', 'email', { kind: 'in', values: ['one@x', 'gone@x'] })], [one]);
    } finally {
      reader.close();
    }
  } finally {
    env.dispose();
  }
});

test('a scan told how many ids to expect (LIMIT above it) returns the same ids and rows, past its first page too', async () => {
  const env = tempEngine();
  try {
    const db = env.engine.database();
    const tx = await db.beginWrite();
    const made = new Map<bigint, bigint>();
    for (let i = 0; i < 5_300; i++)
      made.set(tx.createNode(i % 3 === 0 ? ['A', 'B'] : i % 3 === 1 ? ['A'] : [], props({ i: BigInt(i) })), BigInt(i));
    tx.commit();
    const reader = db.beginRead();
    try {
      const all = [...reader.allNodeIds()];
      const labelled = [...reader.nodeIdsByLabel('A')];
      assert.equal(all.length, 5_300);
      for (const expected of [0.5, 1, 5, 31, 32, 100, 128, 1_000, 4_096, 5_000, 100_000]) {
        assert.deepEqual([...reader.allNodeIds(expected)], all, `all nodes, expected ${expected}`);
        assert.deepEqual([...reader.nodeIdsByLabel('A', expected)], labelled, `label A, expected ${expected}`);
        let read = 0;
        for (const id of reader.nodeIdsByLabel('A', expected)) {
          assert.equal(reader.nodeProperty(id, 'i'), made.get(id), `row of ${id}, expected ${expected}`);
          if (++read === 300) break;
        }
      }
    } finally {
      reader.close();
    }
  } finally {
    env.dispose();
  }
});
