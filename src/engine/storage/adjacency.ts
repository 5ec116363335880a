/**
 * Adjacency reads on the head tables: expansion and degree by (node, type) in either direction,
 * each an index seek on `rels_out (src, type, dst, id)` or `rels_in (dst, type, src, id)`.
 */
import type { TokenDictionary } from '../catalog/tokens.js';
import type { Direction, RelationshipHandle } from './graph-store.js';
import type { Connection } from './sqlite/connection.js';

const OUT_SQL = 'SELECT id, type, dst FROM rels WHERE src = ?';
const OUT_TYPE_SQL = 'SELECT id, dst FROM rels WHERE src = ? AND type = ?';
const IN_SQL = 'SELECT id, type, src FROM rels WHERE dst = ?';
const IN_TYPE_SQL = 'SELECT id, src FROM rels WHERE dst = ? AND type = ?';
const OUT_DEGREE_SQL = 'SELECT count(*) FROM rels WHERE src = ?';
const OUT_TYPE_DEGREE_SQL = 'SELECT count(*) FROM rels WHERE src = ? AND type = ?';
const IN_DEGREE_SQL = 'SELECT count(*) FROM rels WHERE dst = ?';
const IN_TYPE_DEGREE_SQL = 'SELECT count(*) FROM rels WHERE dst = ? AND type = ?';
const LOOP_DEGREE_SQL = 'SELECT count(*) FROM rels WHERE src = ? AND dst = ?';
const LOOP_TYPE_DEGREE_SQL = 'SELECT count(*) FROM rels WHERE src = ? AND type = ? AND dst = ?';

/** Relationships touching a node (a self loop once for `both`), grouped by direction then type. */
export function expandNode(
  connection: Connection,
  typeNames: TokenDictionary,
  nodeId: bigint,
  direction: Direction,
  types?: readonly string[],
): RelationshipHandle[] {
  const result: RelationshipHandle[] = [];
  if (direction !== 'in') expandOut(connection, typeNames, nodeId, types, result);
  if (direction !== 'out') expandIn(connection, typeNames, nodeId, types, result, direction === 'both');
  return result;
}

function expandOut(
  connection: Connection,
  typeNames: TokenDictionary,
  nodeId: bigint,
  types: readonly string[] | undefined,
  out: RelationshipHandle[],
): void {
  if (types === undefined || types.length === 0) {
    const rows = connection.raw(OUT_SQL).all(nodeId) as [bigint, bigint, bigint][];
    for (const [id, type, dst] of rows) out.push({ id, type: typeNames.nameOf(Number(type)), startId: nodeId, endId: dst });
    return;
  }
  const statement = connection.raw(OUT_TYPE_SQL);
  for (const type of new Set(types)) {
    const typeId = typeNames.idOf(type);
    if (typeId === undefined) continue;
    const rows = statement.all(nodeId, typeId) as [bigint, bigint][];
    for (const [id, dst] of rows) out.push({ id, type, startId: nodeId, endId: dst });
  }
}

function expandIn(
  connection: Connection,
  typeNames: TokenDictionary,
  nodeId: bigint,
  types: readonly string[] | undefined,
  out: RelationshipHandle[],
  skipLoops: boolean,
): void {
  if (types === undefined || types.length === 0) {
    const rows = connection.raw(IN_SQL).all(nodeId) as [bigint, bigint, bigint][];
    for (const [id, type, src] of rows) {
      if (skipLoops && src === nodeId) continue;
      out.push({ id, type: typeNames.nameOf(Number(type)), startId: src, endId: nodeId });
    }
    return;
  }
  const statement = connection.raw(IN_TYPE_SQL);
  for (const type of new Set(types)) {
    const typeId = typeNames.idOf(type);
    if (typeId === undefined) continue;
    const rows = statement.all(nodeId, typeId) as [bigint, bigint][];
    for (const [id, src] of rows) {
      if (skipLoops && src === nodeId) continue;
      out.push({ id, type, startId: src, endId: nodeId });
    }
  }
}

/** Number of relationships touching a node (a self loop counts once for `both`), via index counts. */
export function degreeOf(
  connection: Connection,
  typeNames: TokenDictionary,
  nodeId: bigint,
  direction: Direction,
  types?: readonly string[],
): number {
  const typeIds =
    types === undefined || types.length === 0 ? null : [...new Set(types)].map((t) => typeNames.idOf(t)).filter((t) => t !== undefined);
  const count = (sql: string, typedSql: string, loop: boolean): number => {
    if (typeIds === null) {
      const value = loop ? connection.pluck(sql).get(nodeId, nodeId) : connection.pluck(sql).get(nodeId);
      return Number(value);
    }
    let sum = 0;
    const statement = connection.pluck(typedSql);
    for (const typeId of typeIds) {
      const value = loop ? statement.get(nodeId, typeId, nodeId) : statement.get(nodeId, typeId);
      sum += Number(value);
    }
    return sum;
  };
  let total = 0;
  if (direction !== 'in') total += count(OUT_DEGREE_SQL, OUT_TYPE_DEGREE_SQL, false);
  if (direction !== 'out') total += count(IN_DEGREE_SQL, IN_TYPE_DEGREE_SQL, false);
  if (direction === 'both') total -= count(LOOP_DEGREE_SQL, LOOP_TYPE_DEGREE_SQL, true);
  return total;
}

const NEIGHBOUR_SOURCES: Record<Direction, string> = {
  out: 'SELECT dst FROM rels WHERE src = ?',
  in: 'SELECT src FROM rels WHERE dst = ?',
  both: 'SELECT dst FROM rels WHERE src = ? UNION SELECT src FROM rels WHERE dst = ?',
};
const NEIGHBOUR_TYPED_SOURCES: Record<Direction, string> = {
  out: 'SELECT dst FROM rels WHERE src = ? AND type = ?',
  in: 'SELECT src FROM rels WHERE dst = ? AND type = ?',
  both: 'SELECT dst FROM rels WHERE src = ? AND type = ? UNION SELECT src FROM rels WHERE dst = ? AND type = ?',
};

/**
 * The nodes one expansion reaches, for loading their rows in one packed statement
 * (node-row-pages.ts): the SQL (parameters: `params`, then the first and last neighbour id) and
 * the ascending distinct neighbour ids. Null when the expansion named several types or reached
 * fewer than `minimum` nodes (not worth a statement of its own).
 */
export function neighbourRows(
  typeNames: TokenDictionary,
  handles: readonly RelationshipHandle[],
  nodeId: bigint,
  direction: Direction,
  types: readonly string[] | undefined,
  packedColumns: string,
  minimum: number,
): { sql: string; params: unknown[]; ids: bigint[] } | null {
  if (handles.length < minimum) return null;
  const distinctTypes = types === undefined ? [] : [...new Set(types)];
  if (distinctTypes.length > 1) return null;
  const ids: bigint[] = [];
  for (const handle of handles) ids.push(handle.startId === nodeId ? handle.endId : handle.startId);
  ids.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  let distinct = 0;
  for (let i = 0; i < ids.length; i++) if (i === 0 || ids[i] !== ids[distinct - 1]) ids[distinct++] = ids[i]!;
  ids.length = distinct;
  if (distinct < minimum) return null;
  const params: unknown[] = [nodeId];
  if (distinctTypes.length === 1) {
    const typeId = typeNames.idOf(distinctTypes[0]!);
    if (typeId === undefined) return null;
    params.push(typeId);
  }
  if (direction === 'both') params.push(...params);
  const source = distinctTypes.length === 0 ? NEIGHBOUR_SOURCES[direction] : NEIGHBOUR_TYPED_SOURCES[direction];
  return { sql: `SELECT ${packedColumns} FROM nodes n WHERE n.id IN (${source}) AND n.id BETWEEN ? AND ?`, params, ids };
}
