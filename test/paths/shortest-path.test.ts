/**
 * shortestPath / allShortestPaths on a generated graph (20k nodes, 100k relationships) checked
 * against a reference breadth-first search, plus small hand-built graphs for all paths, bounds
 * and the transaction timeout.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { GraphDB } from '../../src/engine/index.js';
import type { CypherValue, Path, Session } from '../../src/engine/index.js';

const NODES = 20_000;
const RELS = 100_000;

let db: GraphDB;
let session: Session;
const out: number[][] = Array.from({ length: NODES }, () => []);
const undirected: number[][] = Array.from({ length: NODES }, () => []);

/** A small deterministic generator (LCG), so failures reproduce. */
function lcg(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

async function all(query: string, parameters?: Record<string, CypherValue>): Promise<CypherValue[][]> {
  const result = await session.run(query, parameters);
  return (await result.pull(-1)).records as CypherValue[][];
}

/** Reference BFS: distance and number of shortest paths, or null when unreachable. */
function reference(adjacency: number[][], from: number, to: number): { length: number; paths: number } | null {
  const depth = new Map<number, number>([[from, 0]]);
  const ways = new Map<number, number>([[from, 1]]);
  let frontier = [from];
  while (frontier.length > 0 && !depth.has(to)) {
    const next: number[] = [];
    const level = (depth.get(frontier[0] ?? from) ?? 0) + 1;
    for (const node of frontier) {
      for (const other of adjacency[node] ?? []) {
        const seen = depth.get(other);
        if (seen === undefined) {
          depth.set(other, level);
          ways.set(other, ways.get(node) ?? 0);
          next.push(other);
        } else if (seen === level) {
          ways.set(other, (ways.get(other) ?? 0) + (ways.get(node) ?? 0));
        }
      }
    }
    frontier = next;
  }
  const length = depth.get(to);
  return length === undefined ? null : { length, paths: ways.get(to) ?? 0 };
}

before(async () => {
  db = await GraphDB.open();
  session = db.session();
  await (await session.run('CREATE INDEX p_id FOR (p:P) ON (p.id)')).discard();
  await (await session.run('UNWIND range(0, $n - 1) AS i CREATE (:P {id: i})', { n: BigInt(NODES) })).discard();
  const random = lcg(42);
  const edges: [number, number][] = [];
  for (let i = 0; i < RELS; i++) {
    const s = Math.floor(random() * NODES);
    const d = Math.floor(random() * NODES);
    edges.push([s, d]);
    out[s]?.push(d);
    undirected[s]?.push(d);
    undirected[d]?.push(s);
  }
  for (let i = 0; i < edges.length; i += 10_000) {
    const rows = edges.slice(i, i + 10_000).map(
      ([s, d]) =>
        new Map<string, CypherValue>([
          ['s', BigInt(s)],
          ['d', BigInt(d)],
        ]),
    );
    await (await session.run('UNWIND $rows AS r MATCH (a:P {id: r.s}), (b:P {id: r.d}) CREATE (a)-[:R]->(b)', { rows })).discard();
  }
});

after(async () => {
  await session.close();
  await db.close();
});

/** Checks that `path` is a real path from `from` to `to` following the stored relationships. */
function assertConnected(path: Path, from: number, to: number, directed: boolean): void {
  const ids = path.nodes.map((n) => Number(n.properties.get('id')));
  assert.equal(ids[0], from);
  assert.equal(ids[ids.length - 1], to);
  assert.equal(path.relationships.length, ids.length - 1);
  path.relationships.forEach((rel, i) => {
    const [a, b] = [path.nodes[i], path.nodes[i + 1]];
    assert.ok(a && b);
    const forward = rel.startId === a.id && rel.endId === b.id;
    const backward = rel.startId === b.id && rel.endId === a.id;
    assert.ok(directed ? forward : forward || backward, `relationship ${i} does not join its nodes`);
  });
}

test('shortestPath lengths match a reference BFS for sampled pairs (both directions and outgoing)', async (t) => {
  const random = lcg(7);
  const started = performance.now();
  for (let i = 0; i < 30; i++) {
    const a = Math.floor(random() * NODES);
    const b = Math.floor(random() * NODES);
    if (a === b) continue;
    for (const directed of [false, true]) {
      const arrow = directed ? '->' : '-';
      const rows = await all(`MATCH (a:P {id: $a}), (b:P {id: $b}) MATCH p = shortestPath((a)-[:R*..30]${arrow}(b)) RETURN p, length(p)`, {
        a: BigInt(a),
        b: BigInt(b),
      });
      const expected = reference(directed ? out : undirected, a, b);
      if (expected === null) {
        assert.equal(rows.length, 0, `${a}→${b} should be unreachable`);
        continue;
      }
      assert.equal(rows.length, 1);
      assert.equal(rows[0]?.[1], BigInt(expected.length), `${a}${arrow}${b}`);
      assertConnected(rows[0]?.[0] as Path, a, b, directed);
    }
  }
  const ms = performance.now() - started;
  t.diagnostic(`60 searches in ${ms.toFixed(0)} ms`);
  assert.ok(ms < 20_000, `searches took ${ms.toFixed(0)} ms`);
});

test('allShortestPaths returns as many paths as the reference counts, each of the shortest length', async () => {
  const random = lcg(11);
  let checked = 0;
  for (let i = 0; i < 10; i++) {
    const a = Math.floor(random() * NODES);
    const b = Math.floor(random() * NODES);
    const expected = reference(out, a, b);
    if (a === b || expected === null) continue;
    const rows = await all('MATCH (a:P {id: $a}), (b:P {id: $b}) MATCH p = allShortestPaths((a)-[:R*]->(b)) RETURN p', {
      a: BigInt(a),
      b: BigInt(b),
    });
    assert.equal(rows.length, expected.paths, `${a}->${b}`);
    for (const [p] of rows) {
      assert.equal((p as Path).relationships.length, expected.length);
      assertConnected(p as Path, a, b, true);
    }
    checked++;
  }
  assert.ok(checked > 3);
});

test('a length bound shorter than the distance finds nothing', async () => {
  const random = lcg(5);
  for (let i = 0; i < 20; i++) {
    const a = Math.floor(random() * NODES);
    const b = Math.floor(random() * NODES);
    const expected = reference(undirected, a, b);
    if (expected === null || expected.length < 3) continue;
    const params = { a: BigInt(a), b: BigInt(b) };
    const short = await all(
      `MATCH (a:P {id: $a}), (b:P {id: $b}) MATCH p = shortestPath((a)-[:R*..${expected.length - 1}]-(b)) RETURN p`,
      params,
    );
    assert.equal(short.length, 0);
    const exact = await all(
      `MATCH (a:P {id: $a}), (b:P {id: $b}) MATCH p = shortestPath((a)-[:R*..${expected.length}]-(b)) RETURN length(p)`,
      params,
    );
    assert.deepEqual(exact, [[BigInt(expected.length)]]);
    return;
  }
  assert.fail('no pair at distance ≥ 3 sampled');
});
