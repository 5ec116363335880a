/**
 * Side effects measured the TCK way: a snapshot of the graph before and after the query, and
 * set differences of node ids, relationship ids, distinct label names and
 * (entity, key, value) property triples.
 */
import type { CypherValue, Node, Relationship } from '../../src/engine/values/types.js';

/** The parts of a graph the TCK's side-effect counters look at. */
export interface GraphSnapshot {
  readonly nodes: ReadonlySet<string>;
  readonly relationships: ReadonlySet<string>;
  readonly labels: ReadonlySet<string>;
  readonly properties: ReadonlySet<string>;
}

/** Builds a snapshot from every node and relationship of the graph. */
export function snapshotOf(nodes: Iterable<Node>, relationships: Iterable<Relationship>): GraphSnapshot {
  const snapshot = { nodes: new Set<string>(), relationships: new Set<string>(), labels: new Set<string>(), properties: new Set<string>() };
  for (const node of nodes) {
    snapshot.nodes.add(String(node.id));
    for (const label of node.labels) snapshot.labels.add(label);
    for (const [key, value] of node.properties) snapshot.properties.add(`n${node.id}|${key}|${valueKey(value)}`);
  }
  for (const rel of relationships) {
    snapshot.relationships.add(String(rel.id));
    for (const [key, value] of rel.properties) snapshot.properties.add(`r${rel.id}|${key}|${valueKey(value)}`);
  }
  return snapshot;
}

function countMissing(from: ReadonlySet<string>, other: ReadonlySet<string>): number {
  let n = 0;
  for (const item of from) if (!other.has(item)) n++;
  return n;
}

/** The TCK's side-effect counters between two snapshots; zero counts are left out. */
export function sideEffects(before: GraphSnapshot, after: GraphSnapshot): Map<string, number> {
  const effects = new Map<string, number>([
    ['+nodes', countMissing(after.nodes, before.nodes)],
    ['-nodes', countMissing(before.nodes, after.nodes)],
    ['+relationships', countMissing(after.relationships, before.relationships)],
    ['-relationships', countMissing(before.relationships, after.relationships)],
    ['+labels', countMissing(after.labels, before.labels)],
    ['-labels', countMissing(before.labels, after.labels)],
    ['+properties', countMissing(after.properties, before.properties)],
    ['-properties', countMissing(before.properties, after.properties)],
  ]);
  for (const [key, value] of effects) if (value === 0) effects.delete(key);
  return effects;
}

/** A stable string for a property value (type-tagged so 1 and 1.0 differ). */
export function valueKey(value: CypherValue): string {
  if (value === null) return 'null';
  if (typeof value === 'bigint') return `i${value}`;
  if (typeof value === 'number') return `f${Object.is(value, -0) ? 0 : value}`;
  if (typeof value === 'string') return `s${JSON.stringify(value)}`;
  if (typeof value === 'boolean') return `b${value}`;
  if (Array.isArray(value)) return `[${(value as readonly CypherValue[]).map(valueKey).join(',')}]`;
  if (value instanceof Map) return `{${[...value].map(([k, v]) => `${k}:${valueKey(v as CypherValue)}`).join(',')}}`;
  return `o${JSON.stringify(value, (_k, v: unknown) => (typeof v === 'bigint' ? String(v) : v))}`;
}
