/**
 * Value helpers shared by the APOC namespaces: config maps, entity identities, numbers, JSON.
 */
import { isNode, isPath, isRelationship, typeName } from '../../../values/kinds.js';
import {
  Node,
  NodeRef,
  Path,
  PathRef,
  Relationship,
  RelationshipRef,
  type CypherMap,
  type CypherValue,
  type EntityAccessor,
} from '../../../values/types.js';
import { illegalArgument } from './define.js';

/** The map argument, or an empty map for null. */
export function mapArg(v: CypherValue | undefined): CypherMap {
  if (v === null || v === undefined) return new Map();
  if (v instanceof Map) return v;
  throw illegalArgument(`Expected a map but got ${typeName(v)}`);
}

/** The list argument, or an empty list for null. */
export function listArg(v: CypherValue | undefined): readonly CypherValue[] {
  if (v === null || v === undefined) return [];
  if (Array.isArray(v)) return v as readonly CypherValue[];
  return [v];
}

/** A config entry read with its default (APOC config maps). */
export function cfg<T extends CypherValue>(config: CypherMap, key: string, fallback: T): CypherValue {
  const v = config.get(key);
  return v === undefined || v === null ? fallback : v;
}

/** A config entry as a JS number. */
export function cfgNumber(config: CypherMap, key: string, fallback: number): number {
  const v = config.get(key);
  if (typeof v === 'bigint') return Number(v);
  if (typeof v === 'number') return v;
  if (typeof v === 'string' && v.trim() !== '' && !Number.isNaN(Number(v))) return Number(v);
  return fallback;
}

/** A config entry as a boolean. */
export function cfgBoolean(config: CypherMap, key: string, fallback: boolean): boolean {
  const v = config.get(key);
  if (typeof v === 'boolean') return v;
  if (typeof v === 'string') return v.toLowerCase() === 'true';
  return fallback;
}

/** A config entry as a string (null when absent). */
export function cfgString(config: CypherMap, key: string, fallback: string | null = null): string | null {
  const v = config.get(key);
  return typeof v === 'string' ? v : fallback;
}

/** A JS number of an INTEGER or FLOAT (null passes through as null). */
export function num(v: CypherValue): number | null {
  if (typeof v === 'bigint') return Number(v);
  if (typeof v === 'number') return v;
  return null;
}

/** An INTEGER from a JS number (truncated). */
export function int(n: number): bigint {
  return BigInt(Math.trunc(n));
}

/** The id of a node given as node, id or element id (null when it is none of them). */
export function nodeIdOf(v: CypherValue, resolveElementId?: (elementId: string) => bigint | null): bigint | null {
  if (isNode(v)) return v.id;
  if (typeof v === 'bigint') return v;
  if (typeof v === 'string' && resolveElementId) return resolveElementId(v);
  return null;
}

/** Node ids of a node, id, element id or a list of them. */
export function nodeIds(v: CypherValue, resolveElementId?: (elementId: string) => bigint | null): bigint[] {
  const out: bigint[] = [];
  for (const item of listArg(v)) {
    const id = nodeIdOf(item, resolveElementId);
    if (id !== null) out.push(id);
  }
  return out;
}

/** Relationship references of a relationship or a list of them. */
export function relationships(v: CypherValue): (RelationshipRef | Relationship)[] {
  return listArg(v).filter((x): x is RelationshipRef | Relationship => isRelationship(x));
}

/** Labels of a node value (virtual nodes carry theirs). */
export function labelsOf(v: NodeRef | Node, accessor: EntityAccessor): readonly string[] {
  return v instanceof Node ? v.labels : (accessor.nodeLabels(v.id) ?? []);
}

/** Properties of a node or relationship value (virtual ones carry theirs). */
export function propsOf(v: CypherValue, accessor: EntityAccessor): CypherMap {
  if (v instanceof Node || v instanceof Relationship) return v.properties;
  if (v instanceof NodeRef) return accessor.nodeProperties(v.id) ?? new Map();
  if (v instanceof RelationshipRef) return accessor.relationshipProperties(v.id) ?? new Map();
  if (v instanceof Map) return v;
  return new Map();
}

/** The nodes and relationships of a path value (references or materialized). */
export function pathParts(p: PathRef | Path): { nodes: readonly (NodeRef | Node)[]; rels: readonly (RelationshipRef | Relationship)[] } {
  return { nodes: p.nodes, rels: p.relationships };
}

/** A JS object → MAP (plain values only). */
export function mapOf(entries: Record<string, CypherValue>): CypherMap {
  return new Map(Object.entries(entries));
}

/** True for nodes, relationships and paths. */
export function isEntity(v: CypherValue): boolean {
  return isNode(v) || isRelationship(v) || isPath(v);
}

/** Number as APOC returns it from Java doubles or longs: an INTEGER when integral and `asInteger`. */
export function numberValue(n: number, asInteger: boolean): CypherValue {
  return asInteger && Number.isInteger(n) ? BigInt(n) : n;
}
