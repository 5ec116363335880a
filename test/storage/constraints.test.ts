import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { ConstraintDefinition } from '../../src/engine/storage/index.js';
import { props, tempEngine } from './helpers.js';

const VIOLATION = 'Neo.ClientError.Schema.ConstraintValidationFailed';

function constraint(overrides: Partial<ConstraintDefinition>): ConstraintDefinition {
  return {
    name: '',
    type: 'UNIQUENESS',
    entityType: 'NODE',
    labelsOrTypes: ['Person'],
    properties: ['name'],
    propertyType: null,
    ...overrides,
  };
}

test('uniqueness is enforced on create, set and label add, with Neo4j messages', async () => {
  const env = tempEngine();
  try {
    const db = env.engine.database();
    const tx = await db.beginWrite();
    assert.equal(tx.createConstraint(constraint({ name: 'person_name' }), false), true);
    assert.equal(tx.createConstraint(constraint({ name: 'person_name' }), true), false);
    const alice = tx.createNode(['Person'], props({ name: 'Alice' }));
    assert.throws(() => tx.createNode(['Person'], props({ name: 'Alice' })), {
      code: VIOLATION,
      message: `Node(${alice}) already exists with label \`Person\` and property \`name\` = 'Alice'`,
    });
    const bob = tx.createNode(['Person'], props({ name: 'Bob' }));
    assert.throws(() => tx.setNodeProperty(bob, 'name', 'Alice'), { code: VIOLATION });
    const stranger = tx.createNode([], props({ name: 'Alice' }));
    assert.throws(() => tx.addLabels(stranger, ['Person']), { code: VIOLATION });
    tx.createNode(['Person'], props({ name: 1n }));
    assert.throws(() => tx.createNode(['Person'], props({ name: 1.0 })), { code: VIOLATION }, '1 and 1.0 are equal');
    tx.setNodeProperty(alice, 'name', 'Alicia');
    tx.createNode(['Person'], props({ name: 'Alice' }));
    assert.equal(tx.findIndex('NODE', 'Person', 'name')?.owningConstraint, 'person_name');
    assert.throws(() => tx.dropIndex('person_name', false), { code: 'Neo.DatabaseError.Schema.IndexDropFailed' });
    tx.commit();
  } finally {
    env.dispose();
  }
});

test('existence, node key and property type constraints are checked at commit', async () => {
  const env = tempEngine();
  try {
    const db = env.engine.database();
    const setup = await db.beginWrite();
    setup.createConstraint(constraint({ name: 'must_have_name', type: 'NODE_PROPERTY_EXISTENCE' }), false);
    setup.createConstraint(
      constraint({ name: 'age_int', type: 'NODE_PROPERTY_TYPE', properties: ['age'], propertyType: 'INTEGER' }),
      false,
    );
    setup.createConstraint(
      constraint({
        name: 'knows_since',
        type: 'RELATIONSHIP_PROPERTY_EXISTENCE',
        entityType: 'RELATIONSHIP',
        labelsOrTypes: ['KNOWS'],
        properties: ['since'],
      }),
      false,
    );
    setup.createConstraint(
      constraint({ name: 'key', type: 'NODE_KEY', labelsOrTypes: ['Account'], properties: ['bank', 'number'] }),
      false,
    );
    setup.commit();

    const ok = await db.beginWrite();
    const n = ok.createNode(['Person'], new Map());
    ok.setNodeProperty(n, 'name', 'set later in the same transaction');
    ok.commit();

    const missing = await db.beginWrite();
    const m = missing.createNode(['Person'], props({ age: 3n }));
    assert.throws(() => missing.commit(), {
      code: VIOLATION,
      message: `Node(${m}) with label \`Person\` must have the property \`name\``,
    });
    assert.equal(missing.isOpen, false, 'a failed commit rolls back');

    const typed = await db.beginWrite();
    const t = typed.createNode(['Person'], props({ name: 'x', age: 'old' }));
    assert.throws(() => typed.commit(), {
      code: VIOLATION,
      message: `Node(${t}) with label \`Person\` required the property \`age\` to be of type \`INTEGER\`, but was of type \`STRING\`.`,
    });

    const removed = await db.beginWrite();
    removed.setNodeProperty(n, 'name', null);
    assert.throws(() => removed.commit(), { code: VIOLATION });

    const rel = await db.beginWrite();
    rel.createRelationship('KNOWS', n, n, new Map());
    assert.throws(() => rel.commit(), { code: VIOLATION, message: /Relationship\(\d+\) with type `KNOWS` must have the property `since`/ });

    const key = await db.beginWrite();
    key.createNode(['Account'], props({ bank: 'b', number: 1n }));
    assert.throws(() => key.createNode(['Account'], props({ bank: 'b', number: 1n })), {
      code: VIOLATION,
      message: /properties `bank` = 'b', `number` = 1/,
    });
    key.createNode(['Account'], props({ bank: 'b', number: 2n }));
    key.createNode(['Account'], props({ bank: 'b' }));
    assert.throws(() => key.commit(), { code: VIOLATION, message: /must have the properties \(`bank`, `number`\)/ });

    const r = db.beginRead();
    assert.equal(r.countNodes('Person'), 1);
    assert.equal(r.countNodes('Account'), 0);
    assert.equal(r.constraints().length, 4);
    r.close();
  } finally {
    env.dispose();
  }
});

test('creating a constraint over violating data fails and leaves nothing behind', async () => {
  const env = tempEngine();
  try {
    const db = env.engine.database();
    const tx = await db.beginWrite();
    const a = tx.createNode(['Person'], props({ name: 'Same' }));
    const b = tx.createNode(['Person'], props({ name: 'Same' }));
    tx.createNode(['Person'], new Map());
    tx.commit();

    const unique = await db.beginWrite();
    assert.throws(() => unique.createConstraint(constraint({ name: 'u' }), false), {
      code: 'Neo.DatabaseError.Schema.ConstraintCreationFailed',
      message: new RegExp(`Both Node\\(${a}\\) and Node\\(${b}\\) have the label \`Person\` and property \`name\` = 'Same'`),
    });
    unique.rollback();
    const exists = await db.beginWrite();
    assert.throws(() => exists.createConstraint(constraint({ name: 'e', type: 'NODE_PROPERTY_EXISTENCE' }), false), {
      code: 'Neo.DatabaseError.Schema.ConstraintCreationFailed',
    });
    exists.rollback();
    const r = db.beginRead();
    assert.deepEqual(r.constraints(), []);
    assert.equal(r.findIndex('NODE', 'Person', 'name'), null);
    r.close();
  } finally {
    env.dispose();
  }
});

test('deleting a node that still has relationships fails (Neo4j 5 error); DETACH succeeds', async () => {
  const env = tempEngine();
  try {
    const db = env.engine.database();
    const tx = await db.beginWrite();
    const a = tx.createNode([], new Map());
    const b = tx.createNode([], new Map());
    const r = tx.createRelationship('R', a, b, new Map());
    tx.commit();

    const bad = await db.beginWrite();
    bad.deleteNode(a, false);
    assert.throws(() => bad.commit(), {
      code: 'Neo.ClientError.Schema.ConstraintValidationFailed',
      message: `Cannot delete node<${a}>, because it still has relationships. To delete this node, you must first delete its relationships.`,
    });

    const ordered = await db.beginWrite();
    ordered.deleteNode(a, false);
    ordered.deleteRelationship(r);
    ordered.commit();

    const detach = await db.beginWrite();
    const c = detach.createNode([], new Map());
    detach.createRelationship('R', b, c, new Map());
    detach.deleteNode(b, true);
    assert.equal(detach.counters.relationshipsDeleted, 1);
    detach.commit();
    const reader = db.beginRead();
    assert.equal(reader.countNodes(), 1);
    assert.equal(reader.countRelationships(), 0);
    reader.close();
  } finally {
    env.dispose();
  }
});

test('relationship uniqueness and dropping constraints', async () => {
  const env = tempEngine();
  try {
    const db = env.engine.database();
    const tx = await db.beginWrite();
    tx.createConstraint(
      constraint({
        name: 'rel_u',
        type: 'RELATIONSHIP_UNIQUENESS',
        entityType: 'RELATIONSHIP',
        labelsOrTypes: ['PAID'],
        properties: ['tx'],
      }),
      false,
    );
    const n = tx.createNode([], new Map());
    const first = tx.createRelationship('PAID', n, n, props({ tx: 'T1' }));
    assert.throws(() => tx.createRelationship('PAID', n, n, props({ tx: 'T1' })), {
      code: VIOLATION,
      message: `Relationship(${first}) already exists with type \`PAID\` and property \`tx\` = 'T1'`,
    });
    assert.equal(tx.dropConstraint('rel_u', false), true);
    assert.equal(tx.dropConstraint('rel_u', true), false);
    assert.throws(() => tx.dropConstraint('rel_u', false), { code: 'Neo.DatabaseError.Schema.ConstraintDropFailed' });
    tx.createRelationship('PAID', n, n, props({ tx: 'T1' }));
    assert.equal(tx.findIndex('RELATIONSHIP', 'PAID', 'tx'), null);
    assert.equal(tx.counters.constraintsAdded, 1);
    assert.equal(tx.counters.constraintsRemoved, 1);
    tx.commit();
  } finally {
    env.dispose();
  }
});

test('a write rejected by a constraint or a bad value leaves the transaction untouched', async () => {
  const env = tempEngine();
  try {
    const db = env.engine.database();
    const tx = await db.beginWrite();
    tx.createConstraint(constraint({ name: 'u' }), false);
    const alice = tx.createNode(['Person'], props({ name: 'Alice' }));
    const bob = tx.createNode(['Person', 'Extra'], props({ name: 'Bob', age: 3n }));
    const before = { ...tx.counters };
    assert.throws(() => tx.createNode(['Person', 'NewLabel'], props({ name: 'Alice', newKey: 1n })), { code: VIOLATION });
    assert.throws(() => tx.setNodeProperty(bob, 'name', 'Alice'), { code: VIOLATION });
    assert.throws(() => tx.replaceNodeProperties(bob, props({ name: 'Alice' })), { code: VIOLATION });
    const loose = tx.createNode([], props({ name: 'Alice' }));
    assert.throws(() => tx.addLabels(loose, ['Person']), { code: VIOLATION });
    assert.throws(() => tx.createNode(['Bad'], props({ fine: 1n, bad: [1n, null] })), { code: 'Neo.ClientError.Statement.TypeError' });
    assert.deepEqual({ ...tx.counters }, { ...before, nodesCreated: before.nodesCreated + 1, propertiesSet: before.propertiesSet + 1 });
    assert.equal(tx.countNodes('Person'), 2);
    assert.deepEqual(tx.nodeLabels(loose), []);
    assert.equal(tx.nodeProperty(bob, 'name'), 'Bob');
    assert.equal(tx.nodeProperty(bob, 'age'), 3n);
    tx.commit();
    const r = db.beginRead();
    assert.deepEqual(r.labels(), ['Person', 'Extra']);
    assert.equal(r.countNodes('NewLabel'), 0);
    assert.deepEqual([...r.seekNodes('Person', 'name', { kind: 'equals', value: 'Alice' })], [alice]);
    r.close();
  } finally {
    env.dispose();
  }
});
