/**
 * The VECTOR value (Cypher 25): a fixed-length run of numbers of one coordinate type, built by
 * `vector(value, dimension, coordinateType)`, measured by `vector_distance`, `vector_norm`,
 * `vector_dimension_count` and `vector.similarity.*`, stored as a property and carried by Bolt 6's
 * Vector structure.
 */
import { ArgumentError } from '../errors/index.js';
import { formatVectorCoordinates } from './to-string.js';
import { CypherVector, type CypherValue, type VectorCoordinateType, type VectorCoordinates } from './types.js';

/** The largest dimension a VECTOR may have. */
export const MAX_VECTOR_DIMENSION = 4096;

/** Canonical coordinate type names by every spelling Cypher accepts (`INT8`, `FLOAT64`, `SIGNED INTEGER`, ...). */
const COORDINATE_ALIASES: ReadonlyMap<string, VectorCoordinateType> = new Map([
  ['FLOAT', 'FLOAT'],
  ['FLOAT64', 'FLOAT'],
  ['FLOAT32', 'FLOAT32'],
  ['INTEGER', 'INTEGER'],
  ['INT', 'INTEGER'],
  ['INT64', 'INTEGER'],
  ['INTEGER64', 'INTEGER'],
  ['SIGNED INTEGER', 'INTEGER'],
  ['INTEGER32', 'INTEGER32'],
  ['INT32', 'INTEGER32'],
  ['INTEGER16', 'INTEGER16'],
  ['INT16', 'INTEGER16'],
  ['INTEGER8', 'INTEGER8'],
  ['INT8', 'INTEGER8'],
]);

/** The canonical coordinate type of a spelling, or undefined when it is none. */
export function vectorCoordinateType(spelling: string): VectorCoordinateType | undefined {
  return COORDINATE_ALIASES.get(spelling.toUpperCase().replace(/\s+/g, ' ').trim());
}

const INTEGER_RANGES: Record<'INTEGER8' | 'INTEGER16' | 'INTEGER32' | 'INTEGER', readonly [bigint, bigint]> = {
  INTEGER8: [-128n, 127n],
  INTEGER16: [-32768n, 32767n],
  INTEGER32: [-2147483648n, 2147483647n],
  INTEGER: [-9223372036854775808n, 9223372036854775807n],
};
const FLOAT32_MAX = 3.4028234663852886e38;

function vectorError(message: string): ArgumentError {
  return new ArgumentError(message, { detail: 'InvalidArgumentValue' });
}

/** True for the integer coordinate types. */
export function isIntegerCoordinateType(type: VectorCoordinateType): boolean {
  return type !== 'FLOAT' && type !== 'FLOAT32';
}

function allocate(type: VectorCoordinateType, dimension: number): VectorCoordinates {
  switch (type) {
    case 'INTEGER8':
      return new Int8Array(dimension);
    case 'INTEGER16':
      return new Int16Array(dimension);
    case 'INTEGER32':
      return new Int32Array(dimension);
    case 'INTEGER':
      return new BigInt64Array(dimension);
    case 'FLOAT32':
      return new Float32Array(dimension);
    case 'FLOAT':
      return new Float64Array(dimension);
  }
}

/** Coerces one coordinate to `type` (lossy between integers and floats, an error on overflow). */
function coordinate(value: CypherValue, type: VectorCoordinateType): number | bigint {
  if (typeof value !== 'bigint' && typeof value !== 'number') {
    if (value === null) throw vectorError('Vector coordinates cannot be null.');
    throw vectorError('Vector coordinates must be INTEGER or FLOAT values.');
  }
  if (typeof value === 'number' && !Number.isFinite(value))
    throw vectorError(`Vector coordinates cannot be NaN or Infinity, got ${String(value)}.`);
  if (type === 'FLOAT' || type === 'FLOAT32') {
    const float = Number(value);
    if (type === 'FLOAT32' && Math.abs(float) > FLOAT32_MAX)
      throw vectorError(`The value ${String(value)} does not fit into a FLOAT32 coordinate.`);
    return float;
  }
  const integer = typeof value === 'bigint' ? value : truncateToBigInt(value, type);
  const [min, max] = INTEGER_RANGES[type];
  if (integer < min || integer > max) throw vectorError(`The value ${String(value)} does not fit into a ${type} coordinate.`);
  return type === 'INTEGER' ? integer : Number(integer);
}

function truncateToBigInt(value: number, type: VectorCoordinateType): bigint {
  const truncated = Math.trunc(value);
  if (Math.abs(truncated) >= 2 ** 63) throw vectorError(`The value ${String(value)} does not fit into a ${type} coordinate.`);
  return BigInt(truncated);
}

/** Reads the text form `[1, 2.5, -3e2]` into numbers (INTEGER for whole-number text, FLOAT otherwise). */
function parseVectorText(text: string): CypherValue[] {
  const trimmed = text.trim();
  if (!trimmed.startsWith('[') || !trimmed.endsWith(']')) {
    throw vectorError(`A STRING vector value must start with '[' and end with ']', got: '${text}'.`);
  }
  const body = trimmed.slice(1, -1).trim();
  if (body === '') return [];
  return body.split(',').map((part) => {
    const item = part.trim();
    if (/^[+-]?\d+$/.test(item)) return BigInt(item);
    if (/^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(item)) return Number(item);
    throw vectorError(`'${item}' is not a number in the vector value '${text}'.`);
  });
}

/**
 * `vector(vectorValue, dimension, coordinateType)`: a VECTOR from a LIST of numbers or its text,
 * the coordinates coerced to `coordinateType`; null when `vectorValue` or `dimension` is null.
 */
export function makeVector(vectorValue: CypherValue, dimension: CypherValue, type: VectorCoordinateType): CypherVector | null {
  if (vectorValue === null || dimension === null) return null;
  let items: readonly CypherValue[];
  if (typeof vectorValue === 'string') items = parseVectorText(vectorValue);
  else if (Array.isArray(vectorValue)) items = vectorValue as readonly CypherValue[];
  else if (vectorValue instanceof CypherVector) items = vectorValue.toList();
  else throw vectorError('The vector value must be a STRING or a LIST<INTEGER | FLOAT>.');
  let size: number;
  if (typeof dimension === 'bigint') size = Number(dimension);
  else if (typeof dimension === 'number' && Number.isInteger(dimension)) size = dimension;
  else throw vectorError('The vector dimension must be an INTEGER.');
  if (size <= 0 || size > MAX_VECTOR_DIMENSION) {
    throw vectorError(`The vector dimension must be greater than 0 and less than or equal to ${MAX_VECTOR_DIMENSION}, got ${size}.`);
  }
  if (items.length !== size) throw vectorError(`The vector value has ${items.length} coordinates but the dimension is ${size}.`);
  const coordinates = allocate(type, size);
  for (let i = 0; i < size; i++) {
    const c = coordinate(items[i]!, type);
    if (coordinates instanceof BigInt64Array) coordinates[i] = c as bigint;
    else coordinates[i] = c as number;
  }
  return new CypherVector(type, coordinates);
}

/** A VECTOR of `type` holding exactly `coordinates` (Bolt, storage); the array is adopted as is. */
export function vectorOf(type: VectorCoordinateType, coordinates: VectorCoordinates): CypherVector {
  return new CypherVector(type, coordinates);
}

/**
 * True when `vector` belongs to the type text `VECTOR`, `VECTOR<INT8>`, `VECTOR(3)`,
 * `VECTOR<INTEGER8 NOT NULL>(3)` or `VECTOR(3, INT8)` (the supertypes match every dimension or
 * coordinate type they leave out); false for other type texts.
 */
export function matchesVectorType(typeText: string, vector: CypherVector): boolean {
  const text = typeText.toUpperCase().replace(/\s+/g, ' ').trim();
  const generic = /^VECTOR ?(?:<([A-Z0-9 ]+)>)? ?(?:\( ?(\d+) ?\))?$/.exec(text);
  const legacy = /^VECTOR ?\( ?(\d+) ?, ?([A-Z0-9 ]+)\)$/.exec(text);
  if (!generic && !legacy) return false;
  const typeWord = generic ? generic[1] : legacy![2];
  const dimensionText = generic ? generic[2] : legacy![1];
  if (dimensionText !== undefined && Number(dimensionText) !== vector.dimension) return false;
  if (typeWord === undefined) return true;
  return vectorCoordinateType(typeWord.replace(/ NOT NULL$/, '')) === vector.coordinateType;
}

/** The metrics of `vector_distance`. */
export type VectorDistanceMetric = 'EUCLIDEAN' | 'EUCLIDEAN_SQUARED' | 'MANHATTAN' | 'COSINE' | 'DOT' | 'HAMMING';
/** The metrics of `vector_norm`. */
export type VectorNormMetric = 'EUCLIDEAN' | 'MANHATTAN';

/** The distance metrics by name. */
export const VECTOR_DISTANCE_METRICS: ReadonlySet<string> = new Set([
  'EUCLIDEAN',
  'EUCLIDEAN_SQUARED',
  'MANHATTAN',
  'COSINE',
  'DOT',
  'HAMMING',
]);
/** The norm metrics by name. */
export const VECTOR_NORM_METRICS: ReadonlySet<string> = new Set(['EUCLIDEAN', 'MANHATTAN']);

function sameDimension(fn: string, a: CypherVector, b: CypherVector): void {
  if (a.dimension !== b.dimension) {
    throw vectorError(`Invalid input for function '${fn}()': the vectors have different dimensions (${a.dimension} and ${b.dimension}).`);
  }
}

/** `vector_distance(a, b, metric)`: smaller is closer. */
export function vectorDistance(a: CypherVector, b: CypherVector, metric: VectorDistanceMetric): number {
  sameDimension('vector_distance', a, b);
  const xs = a.toNumbers();
  const ys = b.toNumbers();
  let sum = 0;
  switch (metric) {
    case 'EUCLIDEAN':
    case 'EUCLIDEAN_SQUARED':
      for (let i = 0; i < xs.length; i++) sum += (xs[i]! - ys[i]!) ** 2;
      return metric === 'EUCLIDEAN' ? Math.sqrt(sum) : sum;
    case 'MANHATTAN':
      for (let i = 0; i < xs.length; i++) sum += Math.abs(xs[i]! - ys[i]!);
      return sum;
    case 'DOT':
      for (let i = 0; i < xs.length; i++) sum += xs[i]! * ys[i]!;
      return -sum;
    case 'HAMMING':
      for (let i = 0; i < xs.length; i++) if (xs[i] !== ys[i]) sum++;
      return sum;
    case 'COSINE': {
      let nx = 0;
      let ny = 0;
      for (let i = 0; i < xs.length; i++) {
        sum += xs[i]! * ys[i]!;
        nx += xs[i]! ** 2;
        ny += ys[i]! ** 2;
      }
      if (nx === 0 || ny === 0)
        throw vectorError("Invalid input for function 'vector_distance()': COSINE distance is undefined for a zero vector.");
      return 1 - sum / Math.sqrt(nx * ny);
    }
  }
}

/** `vector_norm(v, metric)`: the distance of `v` from the origin. */
export function vectorNorm(v: CypherVector, metric: VectorNormMetric): number {
  let sum = 0;
  for (const x of v.toNumbers()) sum += metric === 'EUCLIDEAN' ? x * x : Math.abs(x);
  return metric === 'EUCLIDEAN' ? Math.sqrt(sum) : sum;
}

/** Equal coordinate types, dimensions and coordinates. */
export function vectorsEqual(a: CypherVector, b: CypherVector): boolean {
  if (a.coordinateType !== b.coordinateType || a.dimension !== b.dimension) return false;
  for (let i = 0; i < a.dimension; i++) if (a.coordinates[i] !== b.coordinates[i]) return false;
  return true;
}

const TYPE_RANK: Record<VectorCoordinateType, number> = { INTEGER8: 0, INTEGER16: 1, INTEGER32: 2, INTEGER: 3, FLOAT32: 4, FLOAT: 5 };

/** ORDER BY among vectors: by coordinate type, then dimension, then coordinates. */
export function compareVectors(a: CypherVector, b: CypherVector): number {
  const byType = TYPE_RANK[a.coordinateType] - TYPE_RANK[b.coordinateType];
  if (byType !== 0) return byType;
  if (a.dimension !== b.dimension) return a.dimension - b.dimension;
  for (let i = 0; i < a.dimension; i++) {
    const x = a.coordinates[i]!;
    const y = b.coordinates[i]!;
    if (x < y) return -1;
    if (x > y) return 1;
  }
  return 0;
}

/** A DISTINCT/grouping key: equal for equal vectors. */
export function vectorGroupKey(v: CypherVector): string {
  return `v${v.coordinateType}:${formatVectorCoordinates(v).join(',')}`;
}

/** The type marker bytes of Bolt's Vector structure, also used by the storage codec. */
export const VECTOR_TYPE_MARKERS: Readonly<Record<VectorCoordinateType, number>> = {
  INTEGER8: 0xc8,
  INTEGER16: 0xc9,
  INTEGER32: 0xca,
  INTEGER: 0xcb,
  FLOAT32: 0xc6,
  FLOAT: 0xc1,
};

/** The coordinate type of a type marker byte, or undefined for an unknown marker. */
export function vectorTypeOfMarker(marker: number): VectorCoordinateType | undefined {
  return (Object.keys(VECTOR_TYPE_MARKERS) as VectorCoordinateType[]).find((t) => VECTOR_TYPE_MARKERS[t] === marker);
}

const ELEMENT_BYTES: Readonly<Record<VectorCoordinateType, number>> = {
  INTEGER8: 1,
  INTEGER16: 2,
  INTEGER32: 4,
  INTEGER: 8,
  FLOAT32: 4,
  FLOAT: 8,
};

/** The coordinates as bytes in the given byte order (Bolt: big-endian; storage: little-endian). */
export function vectorToBytes(vector: CypherVector, littleEndian: boolean): Uint8Array {
  const size = ELEMENT_BYTES[vector.coordinateType];
  const out = new Uint8Array(vector.dimension * size);
  const view = new DataView(out.buffer);
  const c = vector.coordinates;
  for (let i = 0; i < vector.dimension; i++) {
    const at = i * size;
    if (c instanceof Int8Array) view.setInt8(at, c[i]!);
    else if (c instanceof Int16Array) view.setInt16(at, c[i]!, littleEndian);
    else if (c instanceof Int32Array) view.setInt32(at, c[i]!, littleEndian);
    else if (c instanceof BigInt64Array) view.setBigInt64(at, c[i]!, littleEndian);
    else if (c instanceof Float32Array) view.setFloat32(at, c[i]!, littleEndian);
    else view.setFloat64(at, c[i]!, littleEndian);
  }
  return out;
}

/** A VECTOR from coordinate bytes in the given byte order; an error when the length does not fit. */
export function vectorFromBytes(type: VectorCoordinateType, bytes: Uint8Array, littleEndian: boolean): CypherVector {
  const size = ELEMENT_BYTES[type];
  if (bytes.length % size !== 0) throw vectorError(`${bytes.length} bytes do not hold whole ${type} coordinates.`);
  const dimension = bytes.length / size;
  if (dimension === 0 || dimension > MAX_VECTOR_DIMENSION) {
    throw vectorError(`The vector dimension must be greater than 0 and less than or equal to ${MAX_VECTOR_DIMENSION}, got ${dimension}.`);
  }
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const c = allocate(type, dimension);
  for (let i = 0; i < dimension; i++) {
    const at = i * size;
    if (c instanceof Int8Array) c[i] = view.getInt8(at);
    else if (c instanceof Int16Array) c[i] = view.getInt16(at, littleEndian);
    else if (c instanceof Int32Array) c[i] = view.getInt32(at, littleEndian);
    else if (c instanceof BigInt64Array) c[i] = view.getBigInt64(at, littleEndian);
    else if (c instanceof Float32Array) c[i] = view.getFloat32(at, littleEndian);
    else c[i] = view.getFloat64(at, littleEndian);
  }
  for (const x of c) if (typeof x === 'number' && !Number.isFinite(x)) throw vectorError('Vector coordinates cannot be NaN or Infinity.');
  return new CypherVector(type, c);
}
