import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import type { GraphReader, IndexPredicate } from '../../src/engine/storage/index.js';
import { CypherDate, type CypherValue } from '../../src/engine/values/types.js';
import { props, tempEngine } from './helpers.js';

/** Reference semantics, independent of the key encoding. */
function kindOf(v: CypherValue): string {
  if (typeof v === 'bigint' || typeof v === 'number') return 'number';
  if (v instanceof CypherDate) return 'date';
  return typeof v;
}

function compare(a: CypherValue, b: CypherValue): number | null {
  if (kindOf(a) !== kindOf(b)) return null;
  if (typeof a === 'number' && Number.isNaN(a)) return null;
  if (typeof b === 'number' && Number.isNaN(b)) return null;
  if (a instanceof CypherDate) return Math.sign(a.epochDay - (b as CypherDate).epochDay);
  if (typeof a === 'string') {
    const x = [...a].map((c) => c.codePointAt(0)!);
    const y = [...(b as string)].map((c) => c.codePointAt(0)!);
    for (let i = 0; i < Math.min(x.length, y.length); i++) if (x[i] !== y[i]) return Math.sign(x[i] - y[i]);
    return Math.sign(x.length - y.length);
  }
  if (typeof a === 'boolean') return Number(a) - Number(b);
  // numbers: exact via rationals on bigint when both integral, else float compare is exact enough for this data
  const fa = typeof a === 'bigint' ? a : (a as number);
  const fb = typeof b === 'bigint' ? b : (b as number);
  return fa < fb ? -1 : fa > fb ? 1 : 0;
}

function matches(value: CypherValue | undefined, predicate: IndexPredicate): boolean {
  if (value === undefined || value === null) return false;
  switch (predicate.kind) {
    case 'exists':
      return true;
    case 'equals':
      return compare(value, predicate.value) === 0;
    case 'in':
      return predicate.values.some((v) => compare(value, v) === 0);
    case 'range': {
      const { lower, upper } = predicate;
      if (lower !== undefined) {
        const c = compare(value, lower.value);
        if (c === null || c < 0 || (c === 0 && !lower.inclusive)) return false;
      }
      if (upper !== undefined) {
        const c = compare(value, upper.value);
        if (c === null || c > 0 || (c === 0 && !upper.inclusive)) return false;
      }
      return true;
    }
    case 'prefix':
      return typeof value === 'string' && value.startsWith(predicate.prefix);
    case 'contains':
      return typeof value === 'string' && value.includes(predicate.substring);
    case 'suffix':
      return typeof value === 'string' && value.endsWith(predicate.suffix);
  }
}

const value: fc.Arbitrary<CypherValue> = fc.oneof(
  fc.bigInt({ min: -50n, max: 50n }),
  fc.integer({ min: -100, max: 100 }).map((n) => n / 4),
  fc.constantFrom(NaN, Infinity, -Infinity, -0, 2n ** 62n, 2 ** 62),
  fc.string({ unit: fc.constantFrom('a', 'b', 'c', 'é', '😀'), maxLength: 4 }),
  fc.boolean(),
  fc.integer({ min: -5, max: 5 }).map((d) => new CypherDate(d)),
);

const bound = fc.record({ value, inclusive: fc.boolean() });
const fragment = fc.string({ unit: fc.constantFrom('a', 'b', 'c', 'é', '😀'), maxLength: 2 });
const predicate: fc.Arbitrary<IndexPredicate> = fc.oneof(
  fc.constant({ kind: 'exists' } as const),
  value.map((v) => ({ kind: 'equals', value: v }) as const),
  fc.array(value, { maxLength: 4 }).map((values) => ({ kind: 'in', values }) as const),
  fc
    .tuple(fc.option(bound, { nil: undefined }), fc.option(bound, { nil: undefined }))
    .map(([lower, upper]) => ({ kind: 'range', lower, upper }) as const),
  bound.chain((lower) =>
    value
      .filter((v) => kindOf(v) === kindOf(lower.value))
      .map((v) => ({ kind: 'range', lower, upper: { value: v, inclusive: lower.inclusive } }) as const),
  ),
  fragment.map((prefix) => ({ kind: 'prefix', prefix }) as const),
  fragment.map((substring) => ({ kind: 'contains', substring }) as const),
  fragment.map((suffix) => ({ kind: 'suffix', suffix }) as const),
);

function sorted(ids: Iterable<bigint>): bigint[] {
  return [...ids].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}

function checkAll(reader: GraphReader, predicates: readonly IndexPredicate[]): void {
  const scanIds = [...reader.nodeIdsByLabel('L')];
  for (const p of predicates) {
    const expected = scanIds.filter((id) => matches(reader.nodeProperty(id, 'v'), p));
    const actual = sorted(reader.seekNodes('L', 'v', p));
    assert.deepEqual(actual, expected, `predicate ${JSON.stringify(p, (_k, x) => (typeof x === 'bigint' ? `${x}n` : x))}`);
    const relExpected = [...reader.allRelationships(['R'])]
      .filter((r) => matches(reader.relationshipProperty(r.id, 'v'), p))
      .map((r) => r.id);
    const relActual = sorted([...reader.seekRelationships('R', 'v', p)].map((r) => r.id));
    assert.deepEqual(relActual, relExpected, `relationships ${JSON.stringify(p, (_k, x) => (typeof x === 'bigint' ? `${x}n` : x))}`);
    if (p.kind === 'prefix' || p.kind === 'contains' || p.kind === 'suffix') {
      const textExpected = [...reader.nodeIdsByLabel('T')].filter((id) => matches(reader.nodeProperty(id, 'v'), p));
      assert.deepEqual(sorted(reader.seekNodes('T', 'v', p)), textExpected, `text ${JSON.stringify(p)}`);
    }
  }
}

test('index seeks return exactly the ids a full scan finds, for every predicate kind, through updates', async () => {
  const env = tempEngine();
  try {
    const db = env.engine.database();
    const setup = await db.beginWrite();
    setup.createIndex(
      { name: 'l_v', type: 'RANGE', entityType: 'NODE', labelsOrTypes: ['L'], properties: ['v'], options: new Map() },
      false,
    );
    setup.createIndex(
      { name: 't_v', type: 'TEXT', entityType: 'NODE', labelsOrTypes: ['T'], properties: ['v'], options: new Map() },
      false,
    );
    setup.createIndex(
      { name: 'r_v', type: 'RANGE', entityType: 'RELATIONSHIP', labelsOrTypes: ['R'], properties: ['v'], options: new Map() },
      false,
    );
    const values = fc.sample(fc.option(value, { nil: undefined, freq: 8 }), 400);
    let previous: bigint | null = null;
    for (const v of values) {
      const id = setup.createNode(['L', 'T'], v === undefined ? new Map() : props({ v }));
      if (previous !== null) setup.createRelationship('R', previous, id, v === undefined ? new Map() : props({ v }));
      previous = id;
    }
    setup.commit();
    const predicates = fc.sample(predicate, 250);
    const reader = db.beginRead();
    checkAll(reader, predicates);
    reader.close();

    const update = await db.beginWrite();
    const ids = [...update.nodeIdsByLabel('L')];
    const newValues = fc.sample(value, ids.length);
    ids.forEach((id, i) => {
      if (i % 5 === 0) update.setNodeProperty(id, 'v', newValues[i]);
      else if (i % 5 === 1) update.setNodeProperty(id, 'v', null);
      else if (i % 5 === 2) update.removeLabels(id, ['L']);
      else if (i % 7 === 3) update.deleteNode(id, true);
      else if (i % 7 === 4) update.replaceNodeProperties(id, props({ v: newValues[i]!, w: 1n }));
    });
    for (const rel of [...update.allRelationships(['R'])].slice(0, 100)) update.setRelationshipProperty(rel.id, 'v', 'abc');
    checkAll(update, predicates);
    update.commit();
    const after = db.beginRead();
    checkAll(after, predicates);
    after.close();
    // history reads apply the same semantics without indexes
    const old = db.readAt(1n);
    checkAll(old, predicates.slice(0, 60));
    old.close();
  } finally {
    env.dispose();
  }
});

test('findIndex reports usable indexes; seeking without one fails clearly', async () => {
  const env = tempEngine();
  try {
    const db = env.engine.database();
    const tx = await db.beginWrite();
    tx.createNode(['P'], props({ name: 'x' }));
    assert.equal(tx.findIndex('NODE', 'P', 'name'), null);
    assert.throws(() => tx.seekNodes('P', 'name', { kind: 'exists' }), /No index covers/);
    tx.createIndex(
      { name: 'p_name', type: 'TEXT', entityType: 'NODE', labelsOrTypes: ['P'], properties: ['name'], options: new Map() },
      false,
    );
    assert.equal(tx.findIndex('NODE', 'P', 'name')?.type, 'TEXT');
    tx.createIndex({ name: '', type: 'RANGE', entityType: 'NODE', labelsOrTypes: ['P'], properties: ['name'], options: new Map() }, false);
    assert.equal(tx.findIndex('NODE', 'P', 'name')?.type, 'RANGE');
    assert.deepEqual([...tx.seekNodes('P', 'name', { kind: 'equals', value: 'x' })], [0n]);
    assert.ok(tx.indexes().some((i) => i.type === 'LOOKUP' && i.entityType === 'NODE'));
    assert.equal(
      tx.createIndex(
        { name: 'p_name', type: 'TEXT', entityType: 'NODE', labelsOrTypes: ['P'], properties: ['name'], options: new Map() },
        true,
      ),
      false,
    );
    assert.throws(
      () =>
        tx.createIndex(
          { name: 'other', type: 'TEXT', entityType: 'NODE', labelsOrTypes: ['P'], properties: ['name'], options: new Map() },
          false,
        ),
      { code: 'Neo.ClientError.Schema.EquivalentSchemaRuleAlreadyExists' },
    );
    assert.equal(tx.dropIndex('p_name', false), true);
    assert.throws(() => tx.dropIndex('p_name', false), { code: 'Neo.DatabaseError.Schema.IndexDropFailed' });
    assert.equal(tx.counters.indexesAdded, 2);
    assert.equal(tx.counters.indexesRemoved, 1);
    tx.commit();
    const reopened = env.reopen().database().beginRead();
    assert.equal(reopened.findIndex('NODE', 'P', 'name')?.type, 'RANGE');
    assert.deepEqual([...reopened.seekNodes('P', 'name', { kind: 'prefix', prefix: 'x' })], [0n]);
    reopened.close();
  } finally {
    env.dispose();
  }
});
