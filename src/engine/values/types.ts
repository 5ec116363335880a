/**
 * The Cypher value model shared by every layer.
 *
 * Terminology:
 * - INTEGER is a 64-bit `bigint`, FLOAT a JS `number`; a JS `number` is never an integer value.
 * - MAP is a `ReadonlyMap<string, CypherValue>` (plain objects are only used at the edges).
 * - Graph entities come in two forms. Inside the engine a row holds *references* (`NodeRef`,
 *   `RelationshipRef`, `PathRef`) whose labels and properties are read through an
 *   `EntityAccessor`, so a `SET` later in the query is always visible. Results leave the engine
 *   as *materialized* values (`Node`, `Relationship`, `Path`) carrying a snapshot of their data.
 * - Temporal fields mirror the Bolt structures so each edge can convert without arithmetic.
 */

/** Every value a Cypher expression can produce (inside the engine). */
export type CypherValue =
  | null
  | boolean
  | bigint
  | number
  | string
  | Uint8Array
  | readonly CypherValue[]
  | CypherMap
  | NodeRef
  | RelationshipRef
  | PathRef
  | Node
  | Relationship
  | Path
  | CypherDate
  | LocalTime
  | CypherTime
  | LocalDateTime
  | CypherDateTime
  | CypherDuration
  | CypherPoint
  | CypherVector;

/** A Cypher MAP. Keys keep insertion order. */
export type CypherMap = ReadonlyMap<string, CypherValue>;

/** A node as the engine sees it mid-query: identity only; data through an EntityAccessor. */
export class NodeRef {
  constructor(readonly id: bigint) {}
}

/** A relationship mid-query: identity, type and endpoints never change, so they travel with it. */
export class RelationshipRef {
  constructor(
    readonly id: bigint,
    readonly type: string,
    readonly startId: bigint,
    readonly endId: bigint,
  ) {}
}

/** A path mid-query: alternating nodes and relationships, `nodes.length === rels.length + 1`. */
export class PathRef {
  constructor(
    readonly nodes: readonly NodeRef[],
    readonly relationships: readonly RelationshipRef[],
  ) {}
}

/** A node as it leaves the engine (Bolt, HTTP, GraphQL, CLI). */
export class Node {
  constructor(
    readonly id: bigint,
    readonly elementId: string,
    readonly labels: readonly string[],
    readonly properties: CypherMap,
  ) {}
}

/** A relationship as it leaves the engine. */
export class Relationship {
  constructor(
    readonly id: bigint,
    readonly elementId: string,
    readonly type: string,
    readonly startId: bigint,
    readonly endId: bigint,
    readonly startElementId: string,
    readonly endElementId: string,
    readonly properties: CypherMap,
  ) {}
}

/** A path as it leaves the engine. */
export class Path {
  constructor(
    readonly nodes: readonly Node[],
    readonly relationships: readonly Relationship[],
  ) {}
}

/** DATE: days since 1970-01-01 (proleptic Gregorian). */
export class CypherDate {
  constructor(readonly epochDay: number) {}
}

/** LOCAL TIME: nanoseconds since midnight. */
export class LocalTime {
  constructor(readonly nanoOfDay: number) {}
}

/** ZONED TIME: local nanoseconds since midnight plus a UTC offset in seconds. */
export class CypherTime {
  constructor(
    readonly nanoOfDay: number,
    readonly offsetSeconds: number,
  ) {}
}

/**
 * LOCAL DATETIME: seconds and nanoseconds since 1970-01-01T00:00 of the local clock. The seconds
 * are a `bigint`: the range ±999,999,999 years needs 55 bits, past a double's exact integers.
 */
export class LocalDateTime {
  constructor(
    readonly epochSecond: bigint,
    readonly nano: number,
  ) {}
}

/**
 * ZONED DATETIME: the instant (`epochSecond` as for LOCAL DATETIME, `nano`, in UTC), the offset in effect at that
 * instant, and the named zone when one was given (`Europe/Stockholm`), else null.
 */
export class CypherDateTime {
  constructor(
    readonly epochSecond: bigint,
    readonly nano: number,
    readonly offsetSeconds: number,
    readonly zoneId: string | null,
  ) {}
}

/**
 * DURATION: months, days, seconds and nanoseconds, each kept separately as Cypher does. The
 * seconds are a `bigint` so durations across ±999,999,999 years stay exact.
 */
export class CypherDuration {
  constructor(
    readonly months: number,
    readonly days: number,
    readonly seconds: bigint,
    readonly nanoseconds: number,
  ) {}
}

/** Coordinate reference systems by SRID. */
export const Srid = {
  Cartesian: 7203,
  Cartesian3D: 9157,
  WGS84: 4326,
  WGS84_3D: 4979,
} as const;

/** POINT in one of the four supported coordinate systems; `z` is null for 2D points. */
export class CypherPoint {
  constructor(
    readonly srid: number,
    readonly x: number,
    readonly y: number,
    readonly z: number | null = null,
  ) {}
}

/** The coordinate types of a VECTOR, by their default names (`INTEGER` is 64-bit, `FLOAT` 64-bit). */
export type VectorCoordinateType = 'INTEGER8' | 'INTEGER16' | 'INTEGER32' | 'INTEGER' | 'FLOAT32' | 'FLOAT';

/** The coordinates of a VECTOR in the typed array of its coordinate type. */
export type VectorCoordinates = Int8Array | Int16Array | Int32Array | BigInt64Array | Float32Array | Float64Array;

/**
 * VECTOR (Cypher 25): `dimension` coordinates of one coordinate type, held in the matching typed
 * array (never modified once built: construct through `makeVector` / `vectorOf` in vector.ts).
 */
export class CypherVector {
  constructor(
    readonly coordinateType: VectorCoordinateType,
    readonly coordinates: VectorCoordinates,
  ) {}

  /** The number of coordinates. */
  get dimension(): number {
    return this.coordinates.length;
  }

  /** The coordinates as JS numbers (64-bit integers may round). */
  toNumbers(): number[] {
    return Array.from(this.coordinates as ArrayLike<number | bigint>, (c) => Number(c));
  }

  /** The coordinates as Cypher values: INTEGER (`bigint`) for integer types, FLOAT otherwise. */
  toList(): CypherValue[] {
    const integer = this.coordinateType !== 'FLOAT' && this.coordinateType !== 'FLOAT32';
    return Array.from(this.coordinates as ArrayLike<number | bigint>, (c) => (integer ? BigInt(c) : Number(c)));
  }
}

/**
 * Reads graph data for references. The runtime implements it over the current transaction;
 * functions such as `labels()`, `properties()` and property access use it.
 * Methods return null for an entity deleted in this transaction.
 */
export interface EntityAccessor {
  nodeLabels(id: bigint): readonly string[] | null;
  nodeProperties(id: bigint): CypherMap | null;
  nodeProperty(id: bigint, key: string): CypherValue | undefined;
  relationshipProperties(id: bigint): CypherMap | null;
  relationshipProperty(id: bigint, key: string): CypherValue | undefined;
  /** Stable element id string, e.g. `4:<database uuid>:<id>` for nodes. */
  nodeElementId(id: bigint): string;
  relationshipElementId(id: bigint): string;
}
