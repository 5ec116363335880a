/**
 * Values across threads: `postMessage` copies Maps, arrays, bigints and byte arrays but drops the
 * classes of graph entities, temporal values and points. `toTransfer` turns those into tagged
 * arrays and `fromTransfer` rebuilds them, so a materialized value arrives equal to what was sent.
 * Entity references (`NodeRef`, ...) never cross: results are materialized before they travel.
 */
import {
  CypherDate,
  CypherDateTime,
  CypherDuration,
  CypherPoint,
  CypherTime,
  LocalDateTime,
  LocalTime,
  Node,
  Path,
  Relationship,
  CypherVector,
  type CypherValue,
  type VectorCoordinateType,
  type VectorCoordinates,
} from './types.js';

/** A value in its copyable form. */
export type TransferValue = unknown;

/** Tag of a class instance in its copyable form (the first element of a tagged array). */
const enum Tag {
  Node = 1,
  Relationship,
  Path,
  Date,
  LocalTime,
  Time,
  LocalDateTime,
  DateTime,
  Duration,
  Point,
  Vector,
}

/** A list in its copyable form: tagged, so a list whose first element is a number stays a list. */
const LIST = 0;

function nodeOut(node: Node): TransferValue {
  return [Tag.Node, node.id, node.elementId, node.labels, toTransfer(node.properties)];
}

function relationshipOut(r: Relationship): TransferValue {
  return [Tag.Relationship, r.id, r.elementId, r.type, r.startId, r.endId, r.startElementId, r.endElementId, toTransfer(r.properties)];
}

/** The copyable form of `value`. */
export function toTransfer(value: CypherValue): TransferValue {
  if (value === null || typeof value !== 'object' || value instanceof Uint8Array) return value;
  if (Array.isArray(value)) return [LIST, (value as readonly CypherValue[]).map(toTransfer)];
  if (value instanceof Map) {
    const out = new Map<string, TransferValue>();
    for (const [key, item] of value as ReadonlyMap<string, CypherValue>) out.set(key, toTransfer(item));
    return out;
  }
  if (value instanceof Node) return nodeOut(value);
  if (value instanceof Relationship) return relationshipOut(value);
  if (value instanceof Path) return [Tag.Path, value.nodes.map(nodeOut), value.relationships.map(relationshipOut)];
  if (value instanceof CypherDate) return [Tag.Date, value.epochDay];
  if (value instanceof LocalTime) return [Tag.LocalTime, value.nanoOfDay];
  if (value instanceof CypherTime) return [Tag.Time, value.nanoOfDay, value.offsetSeconds];
  if (value instanceof LocalDateTime) return [Tag.LocalDateTime, value.epochSecond, value.nano];
  if (value instanceof CypherDateTime) return [Tag.DateTime, value.epochSecond, value.nano, value.offsetSeconds, value.zoneId];
  if (value instanceof CypherDuration) return [Tag.Duration, value.months, value.days, value.seconds, value.nanoseconds];
  if (value instanceof CypherPoint) return [Tag.Point, value.srid, value.x, value.y, value.z];
  if (value instanceof CypherVector) return [Tag.Vector, value.coordinateType, value.coordinates];
  throw new TypeError(`A ${value.constructor.name} cannot leave the engine (materialize it first)`);
}

function nodeIn(t: readonly unknown[]): Node {
  return new Node(t[1] as bigint, t[2] as string, t[3] as string[], fromTransfer(t[4]) as ReadonlyMap<string, CypherValue>);
}

function relationshipIn(t: readonly unknown[]): Relationship {
  const [, id, elementId, type, startId, endId, startElementId, endElementId, properties] = t as [
    number,
    bigint,
    string,
    string,
    bigint,
    bigint,
    string,
    string,
    unknown,
  ];
  return new Relationship(
    id,
    elementId,
    type,
    startId,
    endId,
    startElementId,
    endElementId,
    fromTransfer(properties) as ReadonlyMap<string, CypherValue>,
  );
}

/** Rebuilds a value from its copyable form. */
export function fromTransfer(value: TransferValue): CypherValue {
  if (value === null || typeof value !== 'object' || value instanceof Uint8Array) return value as CypherValue;
  if (value instanceof Map) {
    const out = new Map<string, CypherValue>();
    for (const [key, item] of value as Map<string, TransferValue>) out.set(key, fromTransfer(item));
    return out;
  }
  const t = value as readonly unknown[];
  switch (t[0] as Tag | typeof LIST) {
    case LIST:
      return (t[1] as TransferValue[]).map(fromTransfer);
    case Tag.Node:
      return nodeIn(t);
    case Tag.Relationship:
      return relationshipIn(t);
    case Tag.Path:
      return new Path((t[1] as unknown[][]).map(nodeIn), (t[2] as unknown[][]).map(relationshipIn));
    case Tag.Date:
      return new CypherDate(t[1] as number);
    case Tag.LocalTime:
      return new LocalTime(t[1] as number);
    case Tag.Time:
      return new CypherTime(t[1] as number, t[2] as number);
    case Tag.LocalDateTime:
      return new LocalDateTime(t[1] as bigint, t[2] as number);
    case Tag.DateTime:
      return new CypherDateTime(t[1] as bigint, t[2] as number, t[3] as number, t[4] as string | null);
    case Tag.Duration:
      return new CypherDuration(t[1] as number, t[2] as number, t[3] as bigint, t[4] as number);
    case Tag.Point:
      return new CypherPoint(t[1] as number, t[2] as number, t[3] as number, t[4] as number | null);
    case Tag.Vector:
      return new CypherVector(t[1] as VectorCoordinateType, t[2] as VectorCoordinates);
    default:
      throw new TypeError(`Unknown transferred value tag ${String(t[0])}`);
  }
}
