/**
 * Driver values for display: plain JSON (integers exact: numbers when safe, else text), a short
 * text per cell, and the nodes and relationships found anywhere in a result (for the graph).
 */
import neo4j, { type Node, type Relationship } from 'neo4j-driver';

const { isNode, isPath, isRelationship } = neo4j;

/** A value as JSON-compatible data (nodes and relationships as maps, temporals as ISO text). */
export function toPlain(value: unknown): unknown {
  if (value === null || value === undefined) return null;
  if (neo4j.isInt(value)) return value.inSafeRange() ? value.toNumber() : value.toString();
  if (typeof value === 'bigint') return value.toString();
  if (isNode(value)) return { elementId: value.elementId, labels: value.labels, properties: toPlain(value.properties) };
  if (isRelationship(value)) {
    return {
      elementId: value.elementId,
      type: value.type,
      startNodeElementId: value.startNodeElementId,
      endNodeElementId: value.endNodeElementId,
      properties: toPlain(value.properties),
    };
  }
  if (isPath(value)) {
    return {
      start: toPlain(value.start),
      end: toPlain(value.end),
      segments: value.segments.map((s) => toPlain(s.relationship)),
      length: value.length,
    };
  }
  if (Array.isArray(value)) return value.map(toPlain);
  if (value instanceof Int8Array || value instanceof Float32Array || value instanceof Float64Array) return Array.from(value);
  if (typeof value === 'object') {
    const proto = Object.getPrototypeOf(value) as object | null;
    if (proto !== Object.prototype && proto !== null && typeof (value as { toString?: unknown }).toString === 'function') {
      const text = (value as { toString(): string }).toString();
      if (text !== '[object Object]') return text;
    }
    const out: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) out[key] = toPlain(item);
    return out;
  }
  return value;
}

/** JSON text of a value, indented. */
export function toJson(value: unknown, indent = 2): string {
  return JSON.stringify(toPlain(value), null, indent);
}

/** A one-line cell text: strings bare, everything else as JSON. */
export function cellText(value: unknown): string {
  if (typeof value === 'string') return value;
  return JSON.stringify(toPlain(value));
}

/** The nodes and relationships of a result, each once (by element id). */
export interface GraphElements {
  readonly nodes: Map<string, Node>;
  readonly relationships: Map<string, Relationship>;
}

function collect(value: unknown, into: GraphElements): void {
  if (value === null || value === undefined || typeof value !== 'object') return;
  if (isNode(value)) into.nodes.set(value.elementId, value);
  else if (isRelationship(value)) into.relationships.set(value.elementId, value);
  else if (isPath(value)) {
    into.nodes.set(value.start.elementId, value.start);
    for (const segment of value.segments) {
      into.nodes.set(segment.end.elementId, segment.end);
      into.relationships.set(segment.relationship.elementId, segment.relationship);
    }
  } else if (Array.isArray(value)) for (const item of value) collect(item, into);
  else if (!neo4j.isInt(value) && Object.getPrototypeOf(value) === Object.prototype)
    for (const item of Object.values(value)) collect(item, into);
}

/** Every node and relationship inside `values` (lists, maps and paths included). */
export function graphElements(values: Iterable<unknown>): GraphElements {
  const elements: GraphElements = { nodes: new Map(), relationships: new Map() };
  for (const value of values) collect(value, elements);
  return elements;
}

/** The property shown as a node's caption: name, title, or the first short string property. */
export function caption(node: Node): string {
  const properties = node.properties as Record<string, unknown>;
  for (const key of ['name', 'title', 'caption', 'label', 'id', 'uid', 'key']) {
    const value = properties[key];
    if (typeof value === 'string' || neo4j.isInt(value) || typeof value === 'number') return String(value);
  }
  for (const value of Object.values(properties)) if (typeof value === 'string' && value.length <= 40) return value;
  for (const value of Object.values(properties)) if (typeof value === 'number' || neo4j.isInt(value)) return String(value);
  return node.labels[0] ?? '';
}
