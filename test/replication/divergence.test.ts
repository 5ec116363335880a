/**
 * The divergence the network-partition test found once, replayed deterministically: a member's
 * NATS server delivers, at some log sequence, an entry the log's quorum does not hold there.
 * nats-server 2.9 does this on a stream leader cut off from its peers: a write the old leader
 * published while cut off (never acknowledged, refused to its client) reaches the old leader's own
 * consumer, while the majority's new leader puts another entry at that sequence. Here the test
 * hook `ClusterHooks.delivered` (a member joined with engine-internals.ts `joinClusterWithHooks`)
 * substitutes that entry on one member. The member must end with the log's content (the same
 * content hash as the leader), whether more entries follow the foreign one (the next entry does not
 * extend what it applied) or none do (its last entry differs from the log's at that sequence).
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { GraphDB, type CypherValue } from '../../src/engine/index.js';
import { decodeLogEntry, encodeLogEntry } from '../../src/engine/cluster/log-entry.js';
import { startNatsCluster, until, type NatsCluster } from './nats-cluster.ts';
import { joinClusterWithHooks, storeOf } from '../../src/engine/engine-internals.js';

let nats: NatsCluster;
const dirs: string[] = [];
const engines: GraphDB[] = [];
/** Sequences at which the victim member's consumer delivers a foreign entry instead of the log's (every time: a replica that stays diverged). */
const foreign = new Set<bigint>();
const VICTIM = 1;
/** What the victim reported. */
const warnings: string[] = [];

/** The log's entry with every created node's `n` negated: same version, ids and chain position, other content. */
function refusedWrite(bytes: Uint8Array): Uint8Array {
  const entry = decodeLogEntry(bytes);
  const events = entry.record.events.map((event) =>
    event.kind === 'nodeCreated'
      ? {
          ...event,
          node: { ...event.node, properties: new Map([...event.node.properties].map(([k, v]) => [k, k === 'n' ? -(v as bigint) : v])) },
        }
      : event,
  );
  return encodeLogEntry({ ...entry, record: { ...entry.record, events } });
}

async function member(i: number): Promise<GraphDB> {
  dirs[i] ??= mkdtempSync(join(tmpdir(), `graphdb-diverge${i}-`));
  const db = await GraphDB.open({ dataDir: dirs[i], search: false });
  db.holdWritesForCluster();
  await joinClusterWithHooks(
    db,
    {
      servers: [nats.urls[i]],
      nodeId: `d${i}`,
      name: 'divergence_test',
      boltAddress: `127.0.0.1:${18000 + i}`,
      httpAddress: `127.0.0.1:${18100 + i}`,
      leaseTtlMs: 1500,
      ...(i === VICTIM ? { warn: (message: string) => warnings.push(message) } : {}),
    },
    i === VICTIM
      ? { delivered: (_database: string, sequence: bigint, entry: Uint8Array) => (foreign.has(sequence) ? refusedWrite(entry) : entry) }
      : {},
  );
  engines[i] = db;
  return db;
}

async function rows(db: GraphDB, query: string): Promise<CypherValue[][]> {
  const session = db.session();
  try {
    return (await (await session.run(query)).pull(-1)).records.map((r) => [...r]);
  } finally {
    await session.close();
  }
}

/** Waits until the victim holds exactly the leader's content, at the leader's version and sequence. */
async function victimMatchesLeader(leader: GraphDB, what: string): Promise<void> {
  const victim = engines[VICTIM];
  const database = leader.defaultDatabase;
  await until(
    () =>
      storeOf(victim).version === storeOf(leader).version &&
      storeOf(victim).appliedSequence === storeOf(leader).appliedSequence &&
      victim.cluster!.contentHash(database) === leader.cluster!.contentHash(database),
    20_000,
    what,
  ).catch(async (error: unknown) => {
    const seen = await rows(victim, 'MATCH (p:P) RETURN p.n ORDER BY p.n');
    throw new Error(
      `${(error as Error).message}: victim at version ${storeOf(victim).version}, sequence ${storeOf(victim).appliedSequence}, lag ${
        victim.cluster!.status().databases[0].lag
      }, holds ${JSON.stringify(seen.map((r) => r[0] as string))}`,
    );
  });
}

before(async () => {
  nats = await startNatsCluster(3);
  // The leader first, so the victim is a follower.
  await member(0);
  await until(() => engines[0].cluster!.leading, 15_000, 'the first member to lead');
  await member(VICTIM);
});

after(async () => {
  for (const db of engines) await db?.close();
  await nats?.close();
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

test('a member delivered an entry the log does not hold at that sequence ends with the log content', async () => {
  const leader = engines[0];
  await rows(leader, 'CREATE (:P {n: 0})');
  await victimMatchesLeader(leader, 'the victim to apply the first entry');

  // More entries follow the foreign one (the partition test's case: 1 refused write + 19 of the new leader's).
  foreign.add(storeOf(leader).appliedSequence + 1n);
  for (let n = 1; n <= 4; n++) await rows(leader, `CREATE (:P {n: ${n}})`);
  await victimMatchesLeader(leader, 'the victim to hold the log content after a foreign entry and four more');
  assert.match(warnings.join('\n'), /holds another entry than the one log entry \d+ follows\. Rebuilding/);

  // The foreign entry is the last one: nothing follows it.
  foreign.add(storeOf(leader).appliedSequence + 1n);
  await rows(leader, 'CREATE (:P {n: 5})');
  await victimMatchesLeader(leader, 'the victim to hold the log content when its last entry is foreign');
  assert.match(warnings.join('\n'), /applied another entry at log sequence \d+ than the one the log holds there\. Rebuilding/);
  await until(() => warnings.filter((w) => w.includes('rebuilt from its first entry')).length === 2, 10_000, 'the second rebuild');

  assert.deepEqual(await rows(engines[VICTIM], 'MATCH (p:P) RETURN p.n ORDER BY p.n'), [[0n], [1n], [2n], [3n], [4n], [5n]]);
  const status = engines[VICTIM].cluster!.status();
  assert.equal(status.role, 'FOLLOWER');
  assert.equal(status.databases[0].lag, 0n);
  // It still follows: a later write reaches it.
  await rows(leader, 'CREATE (:P {n: 6})');
  await victimMatchesLeader(leader, 'the victim to apply a later entry');
});
