/**
 * The in-memory adjacency snapshot behind shortestPath: its lists equal `expand` (same
 * relationships, same order) for every node and direction, it is built only once SQL traversals
 * paid for it and only for immutable snapshots, and searches over it return exactly the paths
 * the SQL search returns.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { CypherValue, GraphDB, Path, Session } from '../../src/engine/index.js';
import type { AdjacencyLists, AdjacencySnapshot, GraphReader, RelationshipHandle } from '../../src/engine/storage/graph-store.js';
import { exec, openTestDb } from './helpers.js';
import { storeOf } from '../../src/engine/engine-internals.js';

const NODES = 120;

let db: GraphDB;
before(async () => {
  db = await openTestDb();
  let seed = 5;
  const random = (): number => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
  const edges: Map<string, CypherValue>[] = [];
  for (let i = 0; i < 420; i++) {
    const s = Math.floor(random() * NODES);
    const d = Math.floor(random() * NODES);
    edges.push(
      new Map<string, CypherValue>([
        ['s', BigInt(s)],
        ['d', BigInt(d)],
        ['t', random() < 0.7 ? 'A' : 'B'],
      ]),
    );
  }
  await exec(db.session(), 'UNWIND range(0, $n - 1) AS i CREATE (:N {i: i})', new Map([['n', BigInt(NODES)]]));
  await exec(
    db.session(),
    `UNWIND $edges AS e MATCH (a:N {i: e.s}), (b:N {i: e.d})
     FOREACH (_ IN CASE WHEN e.t = 'A' THEN [1] ELSE [] END | CREATE (a)-[:A]->(b))
     FOREACH (_ IN CASE WHEN e.t = 'B' THEN [1] ELSE [] END | CREATE (a)-[:B]->(b))`,
    new Map([['edges', edges]]),
  );
});
after(() => db.close());

function listed(graph: AdjacencySnapshot, lists: AdjacencyLists, node: number, outgoing: boolean): RelationshipHandle[] {
  const out: RelationshipHandle[] = [];
  if (node + 1 >= lists.offsets.length) return out;
  for (let p = lists.offsets[node]; p < lists.offsets[node + 1]; p++) {
    const [near, far] = [BigInt(node), BigInt(lists.other[p])];
    out.push({
      id: BigInt(lists.relationship[p]),
      type: graph.typeName(lists.type[p]),
      startId: outgoing ? near : far,
      endId: outgoing ? far : near,
    });
  }
  return out;
}

test("the snapshot lists every node's relationships in expand order; write transactions never get one", async () => {
  const reader = storeOf(db).beginRead();
  try {
    const graph = reader.adjacencySnapshot?.(Number.MAX_SAFE_INTEGER);
    assert.ok(graph, 'a read transaction builds one once the work is large enough');
    const ids = [...(reader as GraphReader).allNodeIds()];
    for (const id of ids) {
      const node = Number(id);
      assert.deepEqual(listed(graph, graph.out, node, true), [...reader.expand(id, 'out')], `out of ${node}`);
      assert.deepEqual(listed(graph, graph.in, node, false), [...reader.expand(id, 'in')], `in of ${node}`);
    }
    assert.equal(graph.out.relationship.length, reader.countRelationships());
  } finally {
    reader.close();
  }
  const writer = await storeOf(db).beginWrite();
  try {
    assert.equal(writer.adjacencySnapshot?.(Number.MAX_SAFE_INTEGER) ?? null, null);
  } finally {
    writer.rollback();
  }
});

test('a new version starts without a snapshot and builds only after enough expansions', async () => {
  await exec(db.session(), 'CREATE (:Other)');
  const reader = storeOf(db).beginRead();
  try {
    const count = reader.countRelationships();
    assert.equal(reader.adjacencySnapshot?.(0), null);
    assert.equal(reader.adjacencySnapshot?.(Math.floor(count / 8)), null);
    assert.ok(reader.adjacencySnapshot?.(Math.ceil(count / 4)));
    assert.ok(reader.adjacencySnapshot?.(0), 'kept for the version');
  } finally {
    reader.close();
  }
});

function signature(path: Path): string {
  return path.relationships.map((r) => `${r.id}:${r.startId}>${r.endId}:${r.type}`).join(' ');
}

test('shortestPath over the snapshot returns the paths the SQL search returns', async () => {
  await exec(db.session(), 'CREATE (:Marker)');
  const pairs: [number, number, string][] = [];
  for (let i = 0; i < 40; i++) pairs.push([(i * 37) % NODES, (i * 53 + 11) % NODES, ['-', '->', '<-'][i % 3]]);
  const query = (arrow: string): string =>
    `MATCH (a:N {i: $a}), (b:N {i: $b}) MATCH p = shortestPath((a)${arrow === '<-' ? '<-' : '-'}[:A|B*..8]${arrow === '->' ? '->' : '-'}(b)) RETURN p`;
  const run = async (execute: Session['run']): Promise<string[]> => {
    const out: string[] = [];
    for (const [a, b, arrow] of pairs) {
      if (a === b) continue;
      const result = await execute(
        query(arrow),
        new Map([
          ['a', BigInt(a)],
          ['b', BigInt(b)],
        ]),
      );
      const { records } = await result.pull(-1);
      out.push(records.length === 0 ? 'none' : signature(records[0][0] as Path));
    }
    return out;
  };
  const tx = await db.session().beginTransaction();
  await (await tx.run('CREATE (:Scratch)')).discard();
  const viaSql = await run(tx.run.bind(tx));
  await tx.rollback();
  const session = db.session();
  let viaSnapshot: string[] = [];
  for (let round = 0; round < 30; round++) viaSnapshot = await run(session.run.bind(session));
  const reader = storeOf(db).beginRead();
  try {
    assert.ok(reader.adjacencySnapshot?.(0), 'the rounds built the snapshot of this version');
  } finally {
    reader.close();
  }
  assert.deepEqual(viaSnapshot, viaSql);
  assert.ok(viaSql.some((s) => s !== 'none') && viaSql.some((s) => s.split(' ').length > 2));
});
