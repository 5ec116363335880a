/**
 * Text forms of Cypher values.
 *
 * - `formatFloat`: Java's `Double.toString` (`1.0`, `0.001`, `1.0E-4`, `1.0E20`, `NaN`, `Infinity`).
 * - `cypherToString`: the result of Cypher's `toString()`, or null for types it rejects.
 * - `formatLiteral`: a Cypher-literal rendering of any value (`['a', 1, {k: 2.0}]`), for messages,
 *   CLI tables and test output. Entities by reference render by id only.
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
  NodeRef,
  Path,
  PathRef,
  Relationship,
  RelationshipRef,
  Srid,
  CypherVector,
  type CypherValue,
} from './types.js';
import { formatDuration } from './temporal/duration.js';
import { formatDate, formatDateTime, formatLocalDateTime, formatLocalTime, formatTime } from './temporal/format.js';
import { isMap } from './kinds.js';

/** Java `Double.toString` of a float. */
export function formatFloat(x: number): string {
  if (Number.isNaN(x)) return 'NaN';
  if (x === Infinity) return 'Infinity';
  if (x === -Infinity) return '-Infinity';
  if (x === 0) return Object.is(x, -0) ? '-0.0' : '0.0';
  const abs = Math.abs(x);
  if (abs >= 1e-3 && abs < 1e7) {
    const text = String(x);
    return text.includes('.') ? text : `${text}.0`;
  }
  const [mantissa, exponent] = x.toExponential().split('e') as [string, string];
  const m = mantissa.includes('.') ? mantissa : `${mantissa}.0`;
  return `${m}E${exponent.startsWith('+') ? exponent.slice(1) : exponent}`;
}

/** The shortest decimal text that reads back as the same 32-bit float. */
function formatFloat32(value: number): string {
  for (let precision = 1; precision <= 9; precision++) {
    const text = value.toPrecision(precision);
    if (Math.fround(Number(text)) === value) return formatFloat(Number(text));
  }
  return formatFloat(value);
}

/** A vector's coordinates as Cypher prints them: `1`, `2.5`, `1.05` (FLOAT32 in its shortest form). */
export function formatVectorCoordinates(vector: CypherVector): string[] {
  const out: string[] = [];
  for (const c of vector.coordinates) {
    if (typeof c === 'bigint') out.push(c.toString());
    else if (vector.coordinateType === 'FLOAT32') out.push(formatFloat32(c));
    else if (vector.coordinateType === 'FLOAT') out.push(formatFloat(c));
    else out.push(String(c));
  }
  return out;
}

/** The literal form Neo4j prints: `vector([1, 2, 3], 3, INTEGER NOT NULL)`. */
export function formatVector(vector: CypherVector): string {
  return `vector([${formatVectorCoordinates(vector).join(', ')}], ${vector.dimension}, ${vector.coordinateType} NOT NULL)`;
}

/** Text of a temporal or duration value; null for other values. */
export function formatTemporal(v: CypherValue): string | null {
  if (v instanceof CypherDate) return formatDate(v);
  if (v instanceof LocalTime) return formatLocalTime(v);
  if (v instanceof CypherTime) return formatTime(v);
  if (v instanceof LocalDateTime) return formatLocalDateTime(v);
  if (v instanceof CypherDateTime) return formatDateTime(v);
  if (v instanceof CypherDuration) return formatDuration(v);
  return null;
}

/** Text of a point as Neo4j prints it: `point({x: 1.0, y: 2.0, crs: 'cartesian'})`. */
export function formatPoint(p: CypherPoint): string {
  const geographic = p.srid === Srid.WGS84 || p.srid === Srid.WGS84_3D;
  const names = geographic ? ['longitude', 'latitude', 'height'] : ['x', 'y', 'z'];
  const parts = [`${names[0]}: ${formatFloat(p.x)}`, `${names[1]}: ${formatFloat(p.y)}`];
  if (p.z !== null) parts.push(`${names[2]}: ${formatFloat(p.z)}`);
  parts.push(`crs: '${crsName(p.srid)}'`);
  return `point({${parts.join(', ')}})`;
}

/** CRS name of an SRID (`cartesian`, `cartesian-3d`, `wgs-84`, `wgs-84-3d`). */
export function crsName(srid: number): string {
  switch (srid) {
    case Srid.Cartesian:
      return 'cartesian';
    case Srid.Cartesian3D:
      return 'cartesian-3d';
    case Srid.WGS84:
      return 'wgs-84';
    case Srid.WGS84_3D:
      return 'wgs-84-3d';
    default:
      return `srid-${srid}`;
  }
}

/** Cypher `toString(v)`: null for null and for types toString rejects (caller raises). */
export function cypherToString(v: CypherValue): string | null {
  if (v === null) return null;
  switch (typeof v) {
    case 'string':
      return v;
    case 'boolean':
      return v ? 'true' : 'false';
    case 'bigint':
      return v.toString();
    case 'number':
      return formatFloat(v);
  }
  if (v instanceof CypherPoint) return formatPoint(v);
  return formatTemporal(v);
}

function quote(s: string): string {
  return `'${s.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
}

function formatKey(k: string): string {
  return /^[A-Za-z_][A-Za-z0-9_]*$/.test(k) ? k : `\`${k.replace(/`/g, '``')}\``;
}

function formatProps(props: ReadonlyMap<string, CypherValue>): string {
  return props.size === 0 ? '' : ` {${[...props].map(([k, v]) => `${formatKey(k)}: ${formatLiteral(v)}`).join(', ')}}`;
}

/**
 * Text of any value: a string as it is, else Cypher `toString()`, else the Cypher literal
 * (`null` for null and for a missing argument).
 */
export function valueText(v: CypherValue | undefined): string {
  if (v === undefined) return 'null';
  return typeof v === 'string' ? v : (cypherToString(v) ?? formatLiteral(v));
}

/** Cypher-literal text of any value. */
export function formatLiteral(v: CypherValue): string {
  if (v === null) return 'null';
  if (typeof v === 'string') return quote(v);
  if (typeof v !== 'object') return cypherToString(v)!;
  if (Array.isArray(v)) return `[${v.map(formatLiteral).join(', ')}]`;
  if (isMap(v)) return `{${[...v].map(([k, x]) => `${formatKey(k)}: ${formatLiteral(x)}`).join(', ')}}`;
  if (v instanceof Uint8Array) return `0x${Buffer.from(v).toString('hex')}`;
  if (v instanceof NodeRef) return `(#${v.id})`;
  if (v instanceof RelationshipRef) return `[#${v.id}:${formatKey(v.type)}]`;
  if (v instanceof Node) return `(${v.labels.map((l) => `:${formatKey(l)}`).join('')}${formatProps(v.properties)})`.replace('( ', '(');
  if (v instanceof Relationship) return `[:${formatKey(v.type)}${formatProps(v.properties)}]`;
  if (v instanceof PathRef || v instanceof Path) {
    const nodes = v.nodes as readonly CypherValue[];
    const rels = v.relationships as readonly CypherValue[];
    let text = `<${formatLiteral(nodes[0]!)}`;
    for (let i = 0; i < rels.length; i++) {
      const rel = v.relationships[i]!;
      const forward = rel.startId === v.nodes[i]!.id;
      text += `${forward ? '-' : '<-'}${formatLiteral(rels[i]!)}${forward ? '->' : '-'}${formatLiteral(nodes[i + 1]!)}`;
    }
    return `${text}>`;
  }
  const temporal = formatTemporal(v);
  if (temporal !== null) return quote(temporal);
  if (v instanceof CypherPoint) return formatPoint(v);
  if (v instanceof CypherVector) return formatVector(v);
  return (v as { toString(): string }).toString();
}
