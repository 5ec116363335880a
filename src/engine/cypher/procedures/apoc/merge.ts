/**
 * apoc.merge: MERGE with dynamic labels, relationship types and identifying properties. Each
 * call runs a MERGE statement inside the calling statement, so uniqueness constraints, locking
 * and ON CREATE / ON MATCH behave exactly as Cypher's MERGE.
 */
import { isNode } from '../../../values/kinds.js';
import type { CypherMap, CypherValue } from '../../../values/types.js';
import type { WriteCounters } from '../../../storage/graph-store.js';
import { illegalArgument, proc, type ApocContext, type ProcedureRows } from './define.js';
import { collectCypher } from './run-cypher.js';
import { listArg, mapArg, mapOf } from './values.js';

/** A name quoted for Cypher text. */
export function quoteName(name: string): string {
  return `\`${name.replace(/`/g, '``')}\``;
}

function identityPattern(ident: CypherMap, parameter: string): string {
  return `{${[...ident.keys()].map((k) => `${quoteName(k)}: $${parameter}[${JSON.stringify(k)}]`).join(', ')}}`;
}

function labelsText(labels: CypherValue): string {
  const list = listArg(labels);
  for (const l of list)
    if (typeof l !== 'string' || l === '')
      throw illegalArgument('The list of label names may not contain any `NULL` or empty `STRING` values.');
  return list.map((l) => `:${quoteName(l as string)}`).join('');
}

function* mergeNode(
  c: ApocContext,
  labels: CypherValue,
  identProps: CypherValue,
  onCreate: CypherValue,
  onMatch: CypherValue,
): Generator<import('../../runtime/row.js').Signal, CypherValue, undefined> {
  const ident = mapArg(identProps);
  if (ident.size === 0) throw illegalArgument('you need to supply at least one identifying property for a merge');
  for (const [k, v] of ident) if (v === null) throw illegalArgument(`The identifying property \`${k}\` must not be null`);
  const text = `MERGE (n${labelsText(labels)} ${identityPattern(ident, 'ident')}) ON CREATE SET n += $onCreate ON MATCH SET n += $onMatch RETURN n`;
  const rows = yield* collectCypher(c.exec, text, mapOf({ ident, onCreate: mapArg(onCreate), onMatch: mapArg(onMatch) }));
  return rows[0]?.n ?? null;
}

function* mergeRelationship(
  c: ApocContext,
  start: CypherValue,
  type: CypherValue,
  identProps: CypherValue,
  onCreate: CypherValue,
  end: CypherValue,
  onMatch: CypherValue,
): Generator<import('../../runtime/row.js').Signal, CypherValue, undefined> {
  if (!isNode(start) || !isNode(end)) throw illegalArgument('Relationship start and end must be nodes');
  if (typeof type !== 'string' || type === '')
    throw illegalArgument('It is not possible to merge a `RELATIONSHIP` with a `NULL` or empty `STRING` type.');
  const ident = mapArg(identProps);
  const text = `WITH $start AS a, $end AS b MERGE (a)-[r:${quoteName(type)}${ident.size > 0 ? ` ${identityPattern(ident, 'ident')}` : ''}]->(b) ON CREATE SET r += $onCreate ON MATCH SET r += $onMatch RETURN r`;
  const rows = yield* collectCypher(c.exec, text, mapOf({ start, end, ident, onCreate: mapArg(onCreate), onMatch: mapArg(onMatch) }));
  return rows[0]?.r ?? null;
}

function statsMap(before: WriteCounters, after: WriteCounters): CypherMap {
  const delta = (k: keyof WriteCounters) => BigInt(after[k] - before[k]);
  return mapOf({
    relationshipsDeleted: delta('relationshipsDeleted'),
    relationshipsCreated: delta('relationshipsCreated'),
    nodesDeleted: delta('nodesDeleted'),
    nodesCreated: delta('nodesCreated'),
    labelsRemoved: delta('labelsRemoved'),
    labelsAdded: delta('labelsAdded'),
    propertiesSet: delta('propertiesSet'),
  });
}

function* withStats(c: ApocContext, run: () => Generator<import('../../runtime/row.js').Signal, CypherValue, undefined>): ProcedureRows {
  const before = { ...c.writer().counters };
  const value = yield* run();
  yield [statsMap(before, c.writer().counters), value];
}

const NODE_PARAMS = 'labels :: LIST<STRING>, identProps :: MAP, onCreateProps = {} :: MAP, onMatchProps = {} :: MAP';
const REL_PARAMS =
  'startNode :: NODE, relType :: STRING, identProps :: MAP, onCreateProps :: MAP, endNode :: NODE, onMatchProps = {} :: MAP';

function nodeMerger(name: string, eager: boolean) {
  return proc(
    `${name}(${NODE_PARAMS}) :: (node :: NODE)`,
    'WRITE',
    `Merges the given \`NODE\` values with the given dynamic labels${eager ? ' eagerly' : ''}.`,
    function* ([labels, ident, onCreate, onMatch], c) {
      c.writer();
      yield [yield* mergeNode(c, labels!, ident!, onCreate!, onMatch!)];
    },
  );
}

function relationshipMerger(name: string, eager: boolean) {
  return proc(
    `${name}(${REL_PARAMS}) :: (rel :: RELATIONSHIP)`,
    'WRITE',
    `Merges the given \`RELATIONSHIP\` values with the given dynamic types/properties${eager ? ' eagerly' : ''}.`,
    function* ([start, type, ident, onCreate, end, onMatch], c) {
      c.writer();
      yield [yield* mergeRelationship(c, start!, type!, ident!, onCreate!, end!, onMatch!)];
    },
  );
}

/** The apoc.merge procedures. */
export const mergeEntries = [
  nodeMerger('apoc.merge.node', false),
  nodeMerger('apoc.merge.node.eager', true),
  relationshipMerger('apoc.merge.relationship', false),
  relationshipMerger('apoc.merge.relationship.eager', true),
  proc(
    `apoc.merge.nodeWithStats(${NODE_PARAMS}) :: (stats :: MAP, node :: NODE)`,
    'WRITE',
    'Merges the given `NODE` values with the given dynamic labels. Provides queryStatistics in the result.',
    function* ([labels, ident, onCreate, onMatch], c) {
      yield* withStats(c, () => mergeNode(c, labels!, ident!, onCreate!, onMatch!));
    },
  ),
  proc(
    `apoc.merge.nodeWithStats.eager(${NODE_PARAMS}) :: (stats :: MAP, node :: NODE)`,
    'WRITE',
    'Merges the given `NODE` values with the given dynamic labels eagerly. Provides queryStatistics in the result.',
    function* ([labels, ident, onCreate, onMatch], c) {
      yield* withStats(c, () => mergeNode(c, labels!, ident!, onCreate!, onMatch!));
    },
  ),
  proc(
    `apoc.merge.relationshipWithStats(${REL_PARAMS}) :: (stats :: MAP, rel :: RELATIONSHIP)`,
    'WRITE',
    'Merges the given `RELATIONSHIP` values with the given dynamic types/properties. Provides queryStatistics in the result.',
    function* ([s, t, i, oc, e, om], c) {
      yield* withStats(c, () => mergeRelationship(c, s!, t!, i!, oc!, e!, om!));
    },
  ),
  proc(
    `apoc.merge.relationshipWithStats.eager(${REL_PARAMS}) :: (stats :: MAP, rel :: RELATIONSHIP)`,
    'WRITE',
    'Merges the given `RELATIONSHIP` values with the given dynamic types/properties eagerly. Provides queryStatistics in the result.',
    function* ([s, t, i, oc, e, om], c) {
      yield* withStats(c, () => mergeRelationship(c, s!, t!, i!, oc!, e!, om!));
    },
  ),
];
