/** Shared helpers of the CLI tests: temp dirs, a graph with every value type, graph fingerprints. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { GraphDB } from '../../src/engine/index.js';
import { encodeValue } from '../../src/engine/transfer/index.js';
import type { CypherValue } from '../../src/engine/index.js';
import { storeOf } from '../../src/engine/engine-internals.js';

/** A temp directory removed by the returned cleanup. */
export function tempDir(prefix = 'graphdb-cli-'): { dir: string; cleanup: () => void } {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

/** Cypher creating nodes and relationships holding every storable value type. */
export const EVERY_TYPE_SCRIPT = `
CREATE (a:Person:Admin {name: 'Ann', quote: 'it\\'s "x"\\nnew line; semi', age: 42, big: 9223372036854775807, small: -9223372036854775808,
  unsafe: 9007199254740993, ratio: 0.5, whole: 3.0, negzero: -0.0, huge: 1.0e300, inf: 1.0/0.0, ninf: -1.0/0.0, nan: 0.0/0.0,
  flag: true, off: false, tags: ['a', 'b;c'], scores: [1, 2, 3], weights: [1.5, 2.0], flags: [true, false],
  born: date('1984-10-11'), wake: localtime('07:30:00.123456789'), meet: time('12:00:00+02:00'),
  local: localdatetime('2020-02-29T23:59:59.999999999'), zoned: datetime('2021-03-28T02:30:00[Europe/Stockholm]'),
  offset: datetime('2021-06-01T10:00:00-05:30'), span: duration('P1Y2M3DT4H5M6.007S'),
  home: point({x: 1.5, y: -2.0}), home3: point({x: 1.0, y: 2.0, z: 3.0}), geo: point({longitude: 12.5, latitude: 55.6}),
  geo3: point({longitude: 12.5, latitude: 55.6, height: 10.0}), dates: [date('2020-01-01'), date('2021-01-01')], empty: ''})
CREATE (b:Person {name: 'Bob'})
CREATE (c {name: 'no label'})
CREATE (a)-[:KNOWS {since: 2001, at: datetime('2001-01-01T00:00:00Z'), w: 0.25}]->(b)
CREATE (b)-[:\`HAS SPACE\` {}]->(c)
CREATE (c)-[:SELF]->(c)`;

function normalize(v: CypherValue): string {
  return JSON.stringify(encodeValue(v));
}

/** A canonical description of a graph (ids replaced by content) for equality checks. */
export async function fingerprint(db: GraphDB, database?: string): Promise<string[]> {
  const reader = storeOf(db, database).beginRead();
  try {
    const nodeText = new Map<bigint, string>();
    for (const id of reader.allNodeIds()) {
      const node = reader.getNode(id)!;
      const props = [...node.properties].sort(([a], [b]) => a.localeCompare(b)).map(([k, v]) => `${k}=${normalize(v)}`);
      nodeText.set(id, `(${[...node.labels].sort().join(':')} ${props.join(',')})`);
    }
    const lines = [...nodeText.values()];
    for (const handle of reader.allRelationships()) {
      const rel = reader.getRelationship(handle.id)!;
      const props = [...rel.properties].sort(([a], [b]) => a.localeCompare(b)).map(([k, v]) => `${k}=${normalize(v)}`);
      lines.push(`${nodeText.get(rel.startId)}-[${rel.type} ${props.join(',')}]->${nodeText.get(rel.endId)}`);
    }
    return lines.sort();
  } finally {
    reader.close();
  }
}

/** Adds a byte-array property (no Cypher literal exists) through the storage API. */
export async function addBytes(db: GraphDB): Promise<void> {
  const tx = await storeOf(db).beginWrite();
  tx.createNode(
    ['Blob'],
    new Map<string, CypherValue>([
      ['data', new Uint8Array([0, 1, 127, 128, 255])],
      ['none', new Uint8Array([])],
    ]),
  );
  tx.commit();
}

/** Runs statements and drains them. */
export async function runAll(db: GraphDB, ...queries: string[]): Promise<void> {
  const session = db.session();
  try {
    for (const q of queries) await (await session.run(q)).pull(-1);
  } finally {
    await session.close();
  }
}
