/**
 * The replication log entry in-process: every commit of a "leader" engine becomes one encoded
 * entry; a "follower" engine applies the decoded entries and ends with the same content hash,
 * the same versions and element ids. Re-applying is a no-op; a write that bypasses the log on a
 * replicated database is refused.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { GraphDB } from '../../src/engine/index.js';
import type { CypherValue, Session } from '../../src/engine/index.js';
import type { DatabaseStore } from '../../src/engine/storage/database-store.js';
import { decodeLogEntry, encodeLogEntry, entryDigest } from '../../src/engine/cluster/log-entry.js';
import { ReplicaDivergence, applyLogEntry, storeContentHash } from '../../src/engine/cluster/apply-entry.js';
import { storeOf } from '../../src/engine/engine-internals.js';

async function rows(session: Session, query: string): Promise<CypherValue[][]> {
  return (await (await session.run(query)).pull(-1)).records.map((r) => [...r]);
}

/** A leader whose commits are captured as encoded entries, and a follower applying them. */
async function pair(): Promise<{
  leader: GraphDB;
  follower: GraphDB;
  log: Buffer[];
  sync: () => Promise<void>;
  close: () => Promise<void>;
}> {
  const leader = await GraphDB.open({ search: false });
  const follower = await GraphDB.open({ search: false });
  const log: Buffer[] = [];
  const store = storeOf(leader);
  store.replicateThrough({
    append: (database, record) => {
      const entry = encodeLogEntry({ database: database.name, uuid: database.uuid, record, previous: store.appliedDigest });
      log.push(entry);
      return Promise.resolve({ sequence: BigInt(log.length), digest: entryDigest(entry) });
    },
  });
  const target = storeOf(follower);
  target.replicateThrough({ append: () => Promise.reject(new Error('follower')) });
  return {
    leader,
    follower,
    log,
    async sync() {
      for (let i = Number(target.appliedSequence); i < log.length; i++) {
        await applyLogEntry(target, log[i], BigInt(i + 1));
      }
    },
    async close() {
      await leader.close();
      await follower.close();
    },
  };
}

function hashes(a: DatabaseStore, b: DatabaseStore): [string, string] {
  return [storeContentHash(a), storeContentHash(b)];
}

test('a follower applying the leader entries ends with the same content, versions and element ids', async () => {
  const { leader, follower, log, sync, close } = await pair();
  try {
    const s = leader.session();
    await rows(s, 'CREATE CONSTRAINT person_name FOR (p:Person) REQUIRE p.name IS UNIQUE');
    await rows(s, 'CREATE INDEX city_name FOR (c:City) ON (c.name)');
    await rows(
      s,
      "CREATE (:Person {name: 'Ann', born: date('1990-01-02'), tags: ['a', 'b']})-[:LIVES_IN {since: 2001}]->(:City {name: 'Oslo', at: point({x: 1, y: 2})})",
    );
    await rows(s, "MATCH (p:Person {name: 'Ann'}) SET p:Admin, p.score = 1.5, p.blob = null REMOVE p.tags");
    await rows(s, "MERGE (p:Person {name: 'Bob'}) ON CREATE SET p.n = 1 MERGE (c:City {name: 'Oslo'}) MERGE (p)-[:LIVES_IN]->(c)");
    const tx = await s.beginTransaction();
    await (await tx.run("UNWIND range(1, 50) AS i CREATE (:Item {i: i, d: duration('P1DT2H')})")).discard();
    await (await tx.run('MATCH (i:Item) WHERE i.i % 2 = 0 DETACH DELETE i')).discard();
    await (await tx.run("MATCH (i:Item) WHERE i.i = 1 SET i = {i: 100, s: 'replaced'}")).discard();
    await tx.commit();
    // Swap unique values through an intermediate: the follower sees only final states.
    await rows(s, "MATCH (a:Person {name: 'Ann'}), (b:Person {name: 'Bob'}) SET a.name = 'tmp' SET b.name = 'Ann' SET a.name = 'Bob'");
    await rows(s, "MATCH (:Person {name: 'Bob'})-[r:LIVES_IN]->() SET r.since = 1999");
    await rows(s, 'MATCH (n:Person)-[r]->() WHERE r.since = 1999 DELETE r');
    await rows(s, 'DROP INDEX city_name');
    await rows(s, 'MATCH (n:Item) WHERE n.i > 40 DELETE n');
    await rows(s, 'MATCH (n) RETURN count(n)'); // a read produces no entry
    assert.equal(BigInt(log.length), storeOf(leader).version);
    await sync();
    const [a, b] = hashes(storeOf(leader), storeOf(follower));
    assert.equal(b, a);
    assert.equal(storeOf(follower).version, storeOf(leader).version);
    const ids = 'MATCH (n) RETURN elementId(n) ORDER BY elementId(n)';
    assert.deepEqual(await rows(follower.session(), ids), await rows(s, ids));
    const shows = 'SHOW CONSTRAINTS YIELD name, type RETURN name, type';
    assert.deepEqual(await rows(follower.session(), shows), await rows(s, shows));
    assert.deepEqual(await rows(follower.session(), 'MATCH (c:City) RETURN c.name'), [['Oslo']]);
    // New ids continue from the same allocators.
    await rows(s, 'CREATE (:Late)');
    await sync();
    assert.deepEqual(await rows(follower.session(), 'MATCH (n:Late) RETURN id(n)'), await rows(s, 'MATCH (n:Late) RETURN id(n)'));
    assert.equal(...hashes(storeOf(leader), storeOf(follower)));
  } finally {
    await close();
  }
});

test('entries encode deterministically and re-applying one is a no-op', async () => {
  const { leader, follower, log, sync, close } = await pair();
  try {
    await rows(leader.session(), "CREATE (:A {x: 1, y: [1, 2], z: 'text', t: datetime('2024-01-02T03:04:05Z')})");
    const entry = decodeLogEntry(log[0]);
    assert.deepEqual(encodeLogEntry(entry), log[0]);
    assert.equal(entry.record.version, 1n);
    await sync();
    const store = storeOf(follower);
    const before = storeContentHash(store);
    assert.equal(await applyLogEntry(store, log[0], 1n), false);
    assert.equal(store.version, 1n);
    assert.equal(store.appliedSequence, 1n);
    assert.equal(storeContentHash(store), before);
    assert.throws(() => decodeLogEntry(Buffer.from([1, 2, 3])));
  } finally {
    await close();
  }
});

test('the applied sequence is stored with the data and survives a reopen', async () => {
  const leader = await GraphDB.open({ search: false });
  const { mkdtempSync, rmSync } = await import('node:fs');
  const { tmpdir } = await import('node:os');
  const path = await import('node:path');
  const join = path.join.bind(path);
  const dir = mkdtempSync(join(tmpdir(), 'graphdb-repl-'));
  try {
    const log: Buffer[] = [];
    storeOf(leader).replicateThrough({
      append: (database, record) => {
        const entry = encodeLogEntry({ database: database.name, uuid: database.uuid, record, previous: storeOf(leader).appliedDigest });
        log.push(entry);
        return Promise.resolve({ sequence: BigInt(log.length), digest: entryDigest(entry) });
      },
    });
    await rows(leader.session(), 'CREATE (:A)');
    await rows(leader.session(), 'CREATE (:B)');
    let follower = await GraphDB.open({ dataDir: dir, search: false });
    await applyLogEntry(storeOf(follower), log[0], 1n);
    await follower.close();
    follower = await GraphDB.open({ dataDir: dir, search: false });
    assert.equal(storeOf(follower).appliedSequence, 1n);
    assert.equal(storeOf(follower).appliedDigest, entryDigest(log[0]));
    assert.equal(await applyLogEntry(storeOf(follower), log[0], 1n), false);
    assert.equal(await applyLogEntry(storeOf(follower), log[1], 2n), true);
    assert.equal(storeContentHash(storeOf(follower)), storeContentHash(storeOf(leader)));
    await follower.close();
  } finally {
    await leader.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a replicated database refuses commits that did not reach the log', async () => {
  const db = await GraphDB.open({ search: false });
  try {
    storeOf(db).replicateThrough({
      append: () => Promise.reject(Object.assign(new Error('not the leader'), { code: 'Neo.ClientError.Cluster.NotALeader' })),
    });
    await assert.rejects(rows(db.session(), 'CREATE (:X)'), /not the leader/);
    const tx = await db.session().beginTransaction();
    await (await tx.run('CREATE (:Y)')).discard();
    await assert.rejects(tx.commit(), /not the leader/);
    storeOf(db).replicateThrough(null);
    assert.deepEqual(await rows(db.session(), 'MATCH (n) RETURN count(n)'), [[0n]]);
  } finally {
    await db.close();
  }
});

test('createdAt/updatedAt and reads at a time replicate identically (entries carry the commit time)', async () => {
  const { leader, follower, sync, close } = await pair();
  try {
    const s = leader.session();
    await rows(s, 'CREATE (:Stamp {n: 1})-[:R {w: 1}]->(:Stamp {n: 2})');
    const created = Date.now();
    while (Date.now() <= created) await new Promise((resolve) => setImmediate(resolve));
    await rows(s, 'MATCH (a:Stamp {n: 1}) SET a.n = 10');
    await rows(s, 'MATCH ()-[r:R]->() SET r.w = 2');
    // The follower applies later: without the leader's commit times its own clock would differ.
    const applyAfter = Date.now() + 2;
    while (Date.now() <= applyAfter) await new Promise((resolve) => setImmediate(resolve));
    await sync();
    const nodeIds = (await rows(s, 'MATCH (n:Stamp) RETURN id(n) ORDER BY id(n)')).map((r) => r[0] as bigint);
    const relId = (await rows(s, 'MATCH ()-[r:R]->() RETURN id(r)'))[0][0] as bigint;
    for (const id of nodeIds) {
      const stamps = storeOf(leader).entityTimestamps('node', id);
      assert.ok(stamps !== null && stamps.createdAt !== null);
      assert.deepEqual(storeOf(follower).entityTimestamps('node', id), stamps);
    }
    const updated = storeOf(leader).entityTimestamps('node', nodeIds[0])!;
    assert.ok(updated.updatedAt! > updated.createdAt!, 'the update moved updatedAt, not createdAt');
    assert.deepEqual(storeOf(follower).entityTimestamps('relationship', relId), storeOf(leader).entityTimestamps('relationship', relId));
    assert.equal(storeOf(follower).versionAt(new Date(created)), storeOf(leader).versionAt(new Date(created)));
  } finally {
    await close();
  }
});

test('an entry that does not continue the applied history is refused, and nothing is applied', async () => {
  const { leader, follower, log, sync, close } = await pair();
  try {
    const s = leader.session();
    await rows(s, 'CREATE (:A {n: 1})');
    await rows(s, 'CREATE (:A {n: 2})');
    const store = storeOf(follower);
    await applyLogEntry(store, log[0], 1n);
    const first = decodeLogEntry(log[0]);
    assert.equal(first.previous, 0n);
    assert.equal(decodeLogEntry(log[1]).previous, entryDigest(log[0]));
    // Another entry at the applied sequence (what a replica cut off from its quorum can deliver).
    const other = encodeLogEntry({ ...first, record: { ...first.record, committedAt: (first.record.committedAt ?? 0) + 1 } });
    const isDivergence = (error: unknown): boolean => error instanceof ReplicaDivergence && error.reason === 'diverged';
    await assert.rejects(applyLogEntry(store, other, 1n), isDivergence);
    // The next entry names another predecessor than the one applied.
    const second = decodeLogEntry(log[1]);
    const forked = encodeLogEntry({ ...second, previous: entryDigest(other) });
    await assert.rejects(applyLogEntry(store, forked, 2n), isDivergence);
    // A gap: the log no longer holds the entry after the applied one.
    await assert.rejects(
      applyLogEntry(store, log[1], 3n),
      (error: unknown) => error instanceof ReplicaDivergence && error.reason === 'behind',
    );
    assert.equal(store.appliedSequence, 1n);
    await sync();
    assert.equal(storeContentHash(store), storeContentHash(storeOf(leader)));
  } finally {
    await close();
  }
});
