import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import type { GraphReader, WriteTransaction } from '../../src/engine/storage/index.js';
import { tempEngine } from './helpers.js';

/** The expected graph at one version. */
interface Model {
  nodes: Map<bigint, { labels: Set<string>; props: Map<string, bigint> }>;
  rels: Map<bigint, { type: string; src: bigint; dst: bigint; props: Map<string, bigint> }>;
}

function clone(model: Model): Model {
  return {
    nodes: new Map([...model.nodes].map(([id, n]) => [id, { labels: new Set(n.labels), props: new Map(n.props) }])),
    rels: new Map([...model.rels].map(([id, r]) => [id, { ...r, props: new Map(r.props) }])),
  };
}

type Op =
  | { kind: 'createNode'; label: string; value: bigint }
  | { kind: 'setProp'; pick: number; key: string; value: bigint | null }
  | { kind: 'addLabel'; pick: number; label: string }
  | { kind: 'removeLabel'; pick: number; label: string }
  | { kind: 'deleteNode'; pick: number }
  | { kind: 'createRel'; pickA: number; pickB: number; type: string }
  | { kind: 'setRelProp'; pick: number; value: bigint }
  | { kind: 'deleteRel'; pick: number };

const label = fc.constantFrom('A', 'B', 'C');
const op: fc.Arbitrary<Op> = fc.oneof(
  fc.record({ kind: fc.constant('createNode' as const), label, value: fc.bigInt({ min: -5n, max: 5n }) }),
  fc.record({
    kind: fc.constant('setProp' as const),
    pick: fc.nat(),
    key: fc.constantFrom('x', 'y'),
    value: fc.option(fc.bigInt({ min: -5n, max: 5n }), { nil: null }),
  }),
  fc.record({ kind: fc.constant('addLabel' as const), pick: fc.nat(), label }),
  fc.record({ kind: fc.constant('removeLabel' as const), pick: fc.nat(), label }),
  fc.record({ kind: fc.constant('deleteNode' as const), pick: fc.nat() }),
  fc.record({ kind: fc.constant('createRel' as const), pickA: fc.nat(), pickB: fc.nat(), type: fc.constantFrom('R', 'S') }),
  fc.record({ kind: fc.constant('setRelProp' as const), pick: fc.nat(), value: fc.bigInt({ min: -5n, max: 5n }) }),
  fc.record({ kind: fc.constant('deleteRel' as const), pick: fc.nat() }),
);
const transaction = fc.record({ ops: fc.array(op, { minLength: 1, maxLength: 8 }), rollback: fc.boolean() });

function pickFrom<T>(map: Map<bigint, T>, pick: number): bigint | null {
  if (map.size === 0) return null;
  return [...map.keys()][pick % map.size];
}

function apply(tx: WriteTransaction, model: Model, o: Op): void {
  switch (o.kind) {
    case 'createNode': {
      const id = tx.createNode([o.label], new Map([['x', o.value]]));
      model.nodes.set(id, { labels: new Set([o.label]), props: new Map([['x', o.value]]) });
      return;
    }
    case 'setProp': {
      const id = pickFrom(model.nodes, o.pick);
      if (id === null) return;
      tx.setNodeProperty(id, o.key, o.value);
      if (o.value === null) model.nodes.get(id)!.props.delete(o.key);
      else model.nodes.get(id)!.props.set(o.key, o.value);
      return;
    }
    case 'addLabel':
    case 'removeLabel': {
      const id = pickFrom(model.nodes, o.pick);
      if (id === null) return;
      if (o.kind === 'addLabel') {
        tx.addLabels(id, [o.label]);
        model.nodes.get(id)!.labels.add(o.label);
      } else {
        tx.removeLabels(id, [o.label]);
        model.nodes.get(id)!.labels.delete(o.label);
      }
      return;
    }
    case 'deleteNode': {
      const id = pickFrom(model.nodes, o.pick);
      if (id === null) return;
      tx.deleteNode(id, true);
      model.nodes.delete(id);
      for (const [relId, rel] of model.rels) if (rel.src === id || rel.dst === id) model.rels.delete(relId);
      return;
    }
    case 'createRel': {
      const a = pickFrom(model.nodes, o.pickA);
      const b = pickFrom(model.nodes, o.pickB);
      if (a === null || b === null) return;
      const id = tx.createRelationship(o.type, a, b, new Map());
      model.rels.set(id, { type: o.type, src: a, dst: b, props: new Map() });
      return;
    }
    case 'setRelProp': {
      const id = pickFrom(model.rels, o.pick);
      if (id === null) return;
      tx.setRelationshipProperty(id, 'w', o.value);
      model.rels.get(id)!.props.set('w', o.value);
      return;
    }
    case 'deleteRel': {
      const id = pickFrom(model.rels, o.pick);
      if (id === null) return;
      tx.deleteRelationship(id);
      model.rels.delete(id);
      return;
    }
  }
}

function sortIds(ids: Iterable<bigint>): bigint[] {
  return [...ids].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}

function assertMatches(reader: GraphReader, model: Model, what: string): void {
  assert.deepEqual(sortIds(reader.allNodeIds()), sortIds(model.nodes.keys()), `${what}: node ids`);
  for (const [id, node] of model.nodes) {
    const record = reader.getNode(id)!;
    assert.deepEqual([...record.labels].sort(), [...node.labels].sort(), `${what}: labels of ${id}`);
    assert.deepEqual(new Map([...record.properties].sort()), new Map([...node.props].sort()), `${what}: props of ${id}`);
  }
  for (const l of ['A', 'B', 'C']) {
    const expected = sortIds([...model.nodes].filter(([, n]) => n.labels.has(l)).map(([id]) => id));
    assert.deepEqual(sortIds(reader.nodeIdsByLabel(l)), expected, `${what}: label ${l}`);
    assert.equal(reader.countNodes(l), expected.length, `${what}: count ${l}`);
  }
  assert.equal(reader.countNodes(), model.nodes.size, `${what}: node count`);
  assert.equal(reader.countRelationships(), model.rels.size, `${what}: relationship count`);
  assert.deepEqual(sortIds([...reader.allRelationships()].map((r) => r.id)), sortIds(model.rels.keys()), `${what}: relationship ids`);
  for (const [id, rel] of model.rels) {
    const record = reader.getRelationship(id)!;
    assert.deepEqual([record.type, record.startId, record.endId], [rel.type, rel.src, rel.dst], `${what}: rel ${id}`);
    assert.equal(reader.relationshipProperty(id, 'w'), rel.props.get('w') ?? null, `${what}: rel prop ${id}`);
  }
  for (const id of model.nodes.keys()) {
    const out = sortIds([...model.rels].filter(([, r]) => r.src === id).map(([rid]) => rid));
    assert.deepEqual(sortIds([...reader.expand(id, 'out')].map((r) => r.id)), out, `${what}: expand out of ${id}`);
    const both = [...model.rels].filter(([, r]) => r.src === id || r.dst === id).length;
    assert.equal(reader.degree(id, 'both'), both, `${what}: degree of ${id}`);
  }
}

test('every committed version reads back exactly as a model of the history predicts', { timeout: 120_000 }, async () => {
  await fc.assert(
    fc.asyncProperty(fc.array(transaction, { minLength: 1, maxLength: 10 }), async (transactions) => {
      const env = tempEngine();
      try {
        const db = env.engine.database();
        let model: Model = { nodes: new Map(), rels: new Map() };
        const versions: { version: bigint; model: Model }[] = [{ version: 0n, model: clone(model) }];
        for (const { ops, rollback } of transactions) {
          const tx = await db.beginWrite();
          const working = clone(model);
          for (const o of ops) apply(tx, working, o);
          if (rollback) {
            tx.rollback();
            continue;
          }
          const before = db.version;
          const version = tx.commit();
          model = working;
          if (version !== before) versions.push({ version, model: clone(model) });
        }
        for (const { version, model: expected } of versions) {
          const reader = db.readAt(version);
          assertMatches(reader, expected, `version ${version}`);
          reader.close();
        }
        const head = db.beginRead();
        assertMatches(head, model, 'head');
        head.close();
      } finally {
        env.dispose();
      }
    }),
    { numRuns: 25 },
  );
});
