import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { GraphDB } from '../../src/engine/index.js';
import { BulkLoader, StorageEngine, type ChangeEvent, type DatabaseStore } from '../../src/engine/storage/index.js';
import type { CypherValue } from '../../src/engine/values/types.js';
import { props, sameValue, scalarArbitraries, storableValue, tempEngine } from './helpers.js';
import { storeOf } from '../../src/engine/engine-internals.js';

const loaderScript = fileURLToPath(new URL('./fixtures/bulk-loader.ts', import.meta.url));

async function withDb(run: (db: GraphDB, dir: string) => Promise<void>): Promise<void> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'graphdb-bulk-'));
  const db = await GraphDB.open({ dataDir: dir, search: false });
  try {
    await run(db, dir);
  } finally {
    await db.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

async function query(db: GraphDB, text: string, params: Record<string, CypherValue> = {}): Promise<CypherValue[][]> {
  const session = db.session();
  try {
    const result = await session.run(text, new Map(Object.entries(params)));
    return (await result.pull(-1)).records.map((r) => [...r] as CypherValue[]);
  } finally {
    await session.close();
  }
}

async function planOperators(db: GraphDB, text: string, params: Record<string, CypherValue> = {}): Promise<string[]> {
  const session = db.session();
  try {
    const result = await session.run(`EXPLAIN ${text}`, new Map(Object.entries(params)));
    await result.pull(-1);
    const names: string[] = [];
    const walk = (plan: { operatorType: string; children: readonly unknown[] } | undefined): void => {
      if (plan === undefined) return;
      names.push(plan.operatorType);
      for (const child of plan.children) walk(child as typeof plan);
    };
    walk(result.summary().plan);
    return names;
  } finally {
    await session.close();
  }
}

/** A deterministic random graph: out/in neighbour lists computed on the side. */
function loadRandomGraph(
  loader: BulkLoader,
  nodes: number,
  rels: number,
  seed: number,
): { ids: bigint[]; out: bigint[][]; in: bigint[][] } {
  const ids: bigint[] = [];
  for (let i = 0; i < nodes; i++) {
    ids.push(
      loader.addNode(
        i % 3 === 0 ? ['Person', 'Admin'] : ['Person'],
        props({ uid: BigInt(i), email: `u${i}@example.org`, name: `user ${i}` }),
      ),
    );
  }
  const out: bigint[][] = ids.map(() => []);
  const inn: bigint[][] = ids.map(() => []);
  let x = seed;
  const next = (): number => {
    x = (Math.imul(x, 1103515245) + 12345) >>> 0;
    return x >>> 8;
  };
  for (let i = 0; i < rels; i++) {
    const a = next() % nodes;
    const b = next() % nodes;
    loader.addRelationship(
      i % 5 === 0 ? 'FOLLOWS' : 'KNOWS',
      ids[a],
      ids[b],
      i % 5 === 0 ? props({ since: BigInt(2000 + (i % 20)) }) : new Map(),
    );
    out[a].push(ids[b]);
    inn[b].push(ids[a]);
  }
  return { ids, out, in: inn };
}

function sorted(values: readonly bigint[]): bigint[] {
  return [...values].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}

test('bulk load into an empty database: counts, labels, adjacency both ways, index seeks, one version', async () => {
  await withDb(async (db) => {
    await query(db, 'CREATE INDEX person_email FOR (p:Person) ON (p.email)');
    await query(db, 'CREATE INDEX person_uid FOR (p:Person) ON (p.uid)');
    const store = storeOf(db);
    const before = store.version;
    const loader = await BulkLoader.open(store);
    const graph = loadRandomGraph(loader, 600, 3000, 7);
    const result = await loader.finish();
    assert.equal(result.version, before + 1n, 'the whole load is one commit');
    assert.equal(result.nodes, 600);
    assert.equal(result.relationships, 3000);
    assert.equal(result.labels, 600 + 200);
    assert.equal(result.indexEntries, 1200);
    assert.equal(result.rebuiltIndexes, true);

    assert.deepEqual(await query(db, 'MATCH (n) RETURN count(n)'), [[600n]]);
    assert.deepEqual(await query(db, 'MATCH (n:Admin) RETURN count(n)'), [[200n]]);
    assert.deepEqual(await query(db, 'MATCH ()-[r:FOLLOWS]->() RETURN count(r)'), [[600n]]);
    assert.deepEqual(await query(db, 'MATCH ()-[r]->() RETURN count(r)'), [[3000n]]);
    const stats = store.stats();
    assert.equal(stats.nodes, 600);
    assert.equal(stats.relationships, 3000);

    const reader = store.beginRead();
    try {
      assert.equal(reader.countNodes('Person'), 600);
      assert.equal(reader.countRelationships('KNOWS'), 2400);
      for (const i of [0, 1, 2, 299, 599]) {
        const id = graph.ids[i];
        const outgoing = [...reader.expand(id, 'out')].map((r) => r.endId);
        const incoming = [...reader.expand(id, 'in')].map((r) => r.startId);
        assert.deepEqual(sorted(outgoing), sorted(graph.out[i]), `outgoing of ${i}`);
        assert.deepEqual(sorted(incoming), sorted(graph.in[i]), `incoming of ${i}`);
        const node = reader.getNode(id)!;
        assert.deepEqual([...node.labels].sort(), i % 3 === 0 ? ['Admin', 'Person'] : ['Person']);
        assert.equal(node.properties.get('email'), `u${i}@example.org`);
      }
      const follows = [...reader.allRelationships(['FOLLOWS'])];
      assert.equal(follows.length, 600);
      assert.ok(follows.every((r) => typeof reader.relationshipProperty(r.id, 'since') === 'bigint'));
    } finally {
      reader.close();
    }

    const seek = 'MATCH (p:Person {email: $e}) RETURN p.uid';
    assert.ok((await planOperators(db, seek, { e: 'x' })).includes('NodeIndexSeek'), 'the email index is used');
    assert.deepEqual(await query(db, seek, { e: 'u42@example.org' }), [[42n]]);
    assert.deepEqual(await query(db, 'MATCH (p:Person {uid: 599}) RETURN p.name'), [['user 599']]);
    assert.deepEqual(await query(db, 'MATCH (p:Person) WHERE p.uid >= 598 RETURN p.uid ORDER BY p.uid'), [[598n], [599n]]);
    const out7 = graph.out[7].length;
    assert.deepEqual(await query(db, 'MATCH (p:Person {uid: 7})-->(q) RETURN count(q)'), [[BigInt(out7)]]);

    // the store keeps working after the load: ordinary writes get fresh ids and counts stay right
    await query(db, 'CREATE (:Person {uid: 1000, email: "late@example.org"})-[:KNOWS]->(:Person {uid: 1001})');
    assert.deepEqual(await query(db, 'MATCH (n) RETURN count(n)'), [[602n]]);
    assert.deepEqual(await query(db, 'MATCH (p:Person {email: "late@example.org"})-->(q) RETURN q.uid'), [[1001n]]);
  });
});

test('every property value type round-trips through a bulk load', async () => {
  const env = tempEngine();
  try {
    const db = env.engine.database();
    const values: CypherValue[] = [];
    for (const kind of Object.keys(scalarArbitraries)) values.push(...fc.sample(scalarArbitraries[kind], { numRuns: 8, seed: 11 }));
    values.push(...fc.sample(storableValue, { numRuns: 60, seed: 12 }));
    const loader = await BulkLoader.open(db);
    const ids = values.map((value) => loader.addNode(['V'], new Map([['v', value]])));
    loader.addRelationship('R', ids[0], ids[1], new Map(values.slice(0, 20).map((v, i) => [`p${i}`, v])));
    await loader.finish();
    const reader = db.beginRead();
    try {
      values.forEach((value, i) => assert.ok(sameValue(reader.nodeProperty(ids[i], 'v') ?? undefined, value), `value ${i} round-trips`));
      const [rel] = [...reader.allRelationships(['R'])];
      const record = reader.getRelationship(rel.id)!;
      values.slice(0, 20).forEach((value, i) => assert.ok(sameValue(record.properties.get(`p${i}`), value), `relationship value ${i}`));
    } finally {
      reader.close();
    }
  } finally {
    env.dispose();
  }
});

test('invalid values, unknown endpoints and existence constraints refuse the row only', async () => {
  await withDb(async (db) => {
    await query(db, 'CREATE CONSTRAINT must_have_name FOR (p:Named) REQUIRE p.name IS NOT NULL');
    const loader = await db.bulkLoader();
    const a = loader.addNode(['Named'], props({ name: 'a' }));
    assert.throws(() => loader.addNode(['Named'], props({ other: 1n })), /must have the property `name`/);
    assert.throws(
      () => loader.addNode(['X'], new Map([['m', new Map()]])),
      (e: Error & { code?: string }) => e.code === 'Neo.ClientError.Statement.TypeError',
    );
    assert.throws(
      () => loader.addRelationship('R', a, 999n, new Map()),
      (e: Error & { code?: string }) => e.code === 'Neo.ClientError.Statement.EntityNotFound',
    );
    const b = loader.addNode(['Named'], props({ name: 'b' }));
    loader.addRelationship('R', a, b, new Map());
    const result = await loader.finish();
    assert.equal(result.nodes, 2);
    assert.deepEqual(await query(db, 'MATCH (n) RETURN n.name ORDER BY n.name'), [['a'], ['b']]);
    assert.deepEqual(await query(db, 'MATCH ()-[r]->() RETURN count(r)'), [[1n]]);
  });
});

test('a uniqueness violation fails the whole load and leaves the database as it was', async () => {
  await withDb(async (db) => {
    await query(db, 'CREATE CONSTRAINT person_key FOR (p:Person) REQUIRE p.key IS UNIQUE');
    await query(db, 'CREATE (:Person {key: "taken"})');
    const store = storeOf(db);
    const version = store.version;

    const within = await BulkLoader.open(store);
    const x = within.addNode(['Person'], props({ key: 'k1' }));
    within.addNode(['Person'], props({ key: 'k2' }));
    const y = within.addNode(['Person'], props({ key: 'k1' }));
    within.addRelationship('R', x, y, new Map());
    await assert.rejects(
      () => within.finish(),
      (e: Error & { code?: string }) =>
        e.code === 'Neo.ClientError.Schema.ConstraintValidationFailed' &&
        /already exists with label `Person` and property `key` = 'k1'/.test(e.message),
    );

    const against = await BulkLoader.open(store);
    against.addNode(['Person'], props({ key: 'fresh' }));
    against.addNode(['Person'], props({ key: 'taken' }));
    await assert.rejects(() => against.finish(), /property `key` = 'taken'/);

    assert.equal(store.version, version, 'no version was committed');
    assert.deepEqual(await query(db, 'MATCH (n) RETURN n.key'), [['taken']]);
    assert.deepEqual(await query(db, 'MATCH ()-[r]->() RETURN count(r)'), [[0n]]);
    assert.deepEqual(await query(db, 'MATCH (p:Person {key: "k2"}) RETURN count(p)'), [[0n]], 'no index entry survived');

    const perRow = await BulkLoader.open(store, { uniqueChecks: 'per-row' });
    perRow.addNode(['Person'], props({ key: 'k1' }));
    assert.throws(() => perRow.addNode(['Person'], props({ key: 'k1' })), /already exists/);
    assert.throws(() => perRow.addNode(['Person'], props({ key: 'taken' })), /already exists/);
    perRow.addNode(['Person'], props({ key: 'k2' }));
    assert.equal((await perRow.finish()).nodes, 2);
    assert.deepEqual(await query(db, 'MATCH (p:Person) RETURN p.key ORDER BY p.key'), [['k1'], ['k2'], ['taken']]);
  });
});

test('loading into a non-empty database keeps the old state readable at the previous version', async () => {
  await withDb(async (db) => {
    await query(db, 'CREATE INDEX person_uid FOR (p:Person) ON (p.uid)');
    await query(db, 'UNWIND range(0, 9) AS i CREATE (:Person {uid: i})');
    await query(db, 'MATCH (a:Person {uid: 0}), (b:Person {uid: 1}) CREATE (a)-[:KNOWS]->(b)');
    const store = storeOf(db);
    const previous = store.version;
    const old = store.beginRead();
    const existing = [...old.nodeIdsByLabel('Person')];
    old.close();

    const loader = await BulkLoader.open(store);
    const fresh = loader.addNode(['Person'], props({ uid: 100n }));
    loader.addRelationship('KNOWS', existing[0], fresh, new Map());
    loader.addRelationship('KNOWS', fresh, existing[5], new Map());
    const result = await loader.finish();
    assert.equal(result.rebuiltIndexes, true, 'the load at least doubles the relationships: indexes rebuilt');
    assert.equal(result.version, previous + 1n);

    assert.deepEqual(await query(db, 'MATCH (n) RETURN count(n)'), [[11n]]);
    assert.deepEqual(await query(db, 'MATCH (:Person {uid: 0})-->(q) RETURN q.uid ORDER BY q.uid'), [[1n], [100n]]);
    assert.deepEqual(await query(db, 'MATCH (p {uid: 100})-->(q) RETURN q.uid'), [[5n]]);
    assert.deepEqual(await query(db, 'MATCH (p:Person) WHERE p.uid > 50 RETURN p.uid'), [[100n]]);

    const then = store.readAt(previous);
    try {
      assert.equal(then.countNodes(), 10);
      assert.equal(then.countRelationships(), 1);
      assert.equal(then.nodeExists(fresh), false);
      assert.deepEqual([...then.expand(existing[0], 'out')].length, 1);
    } finally {
      then.close();
    }
    assert.equal(store.stats().relationships, 3);

    const small = await BulkLoader.open(store);
    small.addRelationship('KNOWS', existing[9], fresh, new Map());
    assert.equal((await small.finish()).rebuiltIndexes, false, 'fewer than existing: indexes maintained during the insert');
    assert.deepEqual(await query(db, 'MATCH (p {uid: 100})<--(q) RETURN q.uid ORDER BY q.uid'), [[0n], [9n]]);
    assert.deepEqual(await query(db, 'MATCH ()-[r:KNOWS]->() RETURN count(r)'), [[4n]]);
  });
});

test('change subscribers get every created entity; abort keeps nothing', async () => {
  const env = tempEngine();
  try {
    const events: ChangeEvent[] = [];
    const unsubscribe = env.engine.events.subscribe((batch) => events.push(...batch));
    const db: DatabaseStore = env.engine.database();
    const aborted = await BulkLoader.open(db);
    aborted.addNode(['Gone'], new Map());
    aborted.abort();
    assert.equal(db.version, 0n);
    const loader = await BulkLoader.open(db);
    const a = loader.addNode(['A'], new Map());
    const b = loader.addNode(['B'], props({ x: 1n }));
    loader.addRelationship('T', a, b, new Map());
    await loader.finish();
    unsubscribe();
    assert.deepEqual(
      events.map((e) => e.kind),
      ['nodeCreated', 'nodeCreated', 'relationshipCreated'],
    );
    const reader = db.beginRead();
    assert.deepEqual([...reader.labels()].sort(), ['A', 'B']);
    reader.close();
    assert.throws(() => loader.addNode(['Late'], new Map()), /finished/);
  } finally {
    env.dispose();
  }
});

test('a sliced load gives the event loop back while it finishes and commits the same graph', async () => {
  const env = tempEngine();
  try {
    const events: ChangeEvent[] = [];
    const unsubscribe = env.engine.events.subscribe((batch) => events.push(...batch));
    const db: DatabaseStore = env.engine.database();
    const loader = await BulkLoader.open(db, { sliced: true });
    const nodes = 20_000;
    const ids: bigint[] = [];
    for (let i = 0; i < nodes; i++) ids.push(loader.addNode(['N'], props({ i: BigInt(i) })));
    for (let i = 0; i < nodes; i++) loader.addRelationship('R', ids[i], ids[(i * 7919) % nodes], new Map());
    let turns = 0;
    let finished = false;
    const tick = (): void => {
      turns++;
      if (!finished) setImmediate(tick);
    };
    setImmediate(tick);
    const result = await loader.finish();
    finished = true;
    unsubscribe();
    assert.ok(turns > 1, `the event loop turned ${turns} times during finish`);
    assert.equal(result.rebuiltIndexes, false, 'a sliced load maintains the relationship indexes');
    assert.equal(events.length, 2 * nodes);
    const reader = db.beginRead();
    try {
      assert.equal(reader.countNodes(), nodes);
      assert.equal(reader.countRelationships(), nodes);
      for (const k of [0, 1234, nodes - 1]) {
        const target = ids[(k * 7919) % nodes];
        assert.deepEqual(
          [...reader.expand(ids[k], 'out')].map((r) => r.endId),
          [target],
        );
        assert.ok([...reader.expand(target, 'in')].some((r) => r.startId === ids[k]));
      }
    } finally {
      reader.close();
    }
  } finally {
    env.dispose();
  }
});

/** Runs the fixture, SIGKILLs it on `signal`, returns what it printed. */
async function killDuring(dir: string, args: readonly string[], signal: string): Promise<string> {
  const child = spawn(process.execPath, ['--import', 'tsx', loaderScript, dir, ...args], { stdio: ['ignore', 'pipe', 'inherit'] });
  let printed = '';
  await new Promise<void>((resolve, reject) => {
    child.on('error', reject);
    child.on('exit', () => resolve());
    child.stdout.on('data', (chunk: Buffer) => {
      printed += chunk.toString('utf8');
      if (printed.includes(signal)) child.kill('SIGKILL');
    });
  });
  return printed;
}

test('kill -9 during a bulk load leaves the database as before', { timeout: 120_000 }, async () => {
  const env = tempEngine();
  env.engine.close();
  try {
    await killDuring(env.dir, ['20000', '40000', 'yes'], 'adding');
    let engine = StorageEngine.open({ dataDir: env.dir });
    try {
      const reader = engine.database().beginRead();
      assert.equal(reader.version, 1n, 'only the baseline commit');
      assert.equal(reader.countNodes(), 1);
      assert.deepEqual(reader.labels(), ['Baseline']);
      assert.equal(reader.countRelationships(), 0);
      reader.close();
    } finally {
      engine.close();
    }

    fs.rmSync(env.dir, { recursive: true, force: true });
    fs.mkdirSync(env.dir);
    const printed = await killDuring(env.dir, ['20000', '60000', 'no'], 'finishing');
    engine = StorageEngine.open({ dataDir: env.dir });
    try {
      const db = engine.database();
      const reader = db.beginRead();
      const loaded = reader.version === 2n;
      assert.ok(reader.version === 1n || loaded, `version ${reader.version}`);
      assert.ok(loaded || !printed.includes('finished'));
      assert.equal(reader.countNodes(), loaded ? 20001 : 1, 'all or nothing');
      assert.equal(reader.countRelationships(), loaded ? 60000 : 0);
      assert.equal([...reader.allRelationships()].length, loaded ? 60000 : 0);
      reader.close();
      const tx = await db.beginWrite();
      const id = tx.createNode(['After'], new Map());
      tx.createRelationship('AFTER', id, id, new Map());
      tx.commit();
      const after = db.beginRead();
      assert.equal([...after.expand(id, 'out')].length, 1, 'adjacency indexes exist after recovery');
      after.close();
    } finally {
      engine.close();
    }
  } finally {
    fs.rmSync(env.dir, { recursive: true, force: true });
  }
});
