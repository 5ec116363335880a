/**
 * Cypher values as JSON text in the Neo4j HTTP API's formats, written directly to strings so
 * INTEGER (bigint) values keep every digit and FLOATs keep their decimal point (`1.0`).
 *
 * - `row`: nodes and relationships as their property maps, paths as alternating property maps,
 *   temporals and durations as their Cypher `toString()` text, points as GeoJSON-like objects,
 *   byte arrays as arrays of numbers, NaN/±Infinity as strings.
 * - `meta`: per value, `{id, elementId, type, deleted}` for entities, `{type}` for temporals and
 *   points, arrays for lists and paths, null otherwise.
 * - `graph`: the distinct nodes and relationships found in a row.
 */
import {
  CypherPoint,
  CypherVector,
  Node,
  Path,
  Relationship,
  type CypherValue,
  crsName,
  cypherToString,
  formatFloat,
  temporalOrPointName,
} from '../../../engine/index.js';

function floatJson(x: number): string {
  return Number.isFinite(x) ? formatFloat(x) : JSON.stringify(formatFloat(x));
}

function mapJson(map: ReadonlyMap<string, CypherValue>): string {
  let text = '{';
  let first = true;
  for (const [key, item] of map) {
    text += `${first ? '' : ','}${JSON.stringify(key)}:${rowJson(item)}`;
    first = false;
  }
  return `${text}}`;
}

function pointJson(point: CypherPoint): string {
  const coordinates = point.z === null ? [point.x, point.y] : [point.x, point.y, point.z];
  const href = `http://spatialreference.org/ref/${point.srid === 4326 || point.srid === 4979 ? 'epsg' : 'sr-org'}/${point.srid}/ogcwkt/`;
  return `{"type":"Point","coordinates":[${coordinates.map(floatJson).join(',')}],"crs":{"srid":${point.srid},"name":${JSON.stringify(crsName(point.srid))},"type":"link","properties":{"href":${JSON.stringify(href)},"type":"ogcwkt"}}}`;
}

function isTemporal(value: CypherValue): boolean {
  const name = temporalOrPointName(value);
  return name !== null && name !== 'point';
}

/** A value in the `row` format. */
export function rowJson(value: CypherValue): string {
  switch (typeof value) {
    case 'bigint':
      return value.toString();
    case 'number':
      return floatJson(value);
    case 'string':
      return JSON.stringify(value);
    case 'boolean':
      return value ? 'true' : 'false';
    default:
      break;
  }
  if (value === null) return 'null';
  if (Array.isArray(value)) return `[${value.map(rowJson).join(',')}]`;
  if (value instanceof Map) return mapJson(value);
  if (value instanceof Uint8Array) return `[${Array.from(value).join(',')}]`;
  if (value instanceof Node || value instanceof Relationship) return mapJson(value.properties);
  if (value instanceof Path)
    return `[${pathElements(value)
      .map((entity) => mapJson(entity.properties))
      .join(',')}]`;
  if (value instanceof CypherPoint) return pointJson(value);
  if (value instanceof CypherVector) return rowJson(value.toList());
  if (isTemporal(value)) return JSON.stringify(cypherToString(value));
  throw new TypeError(`cannot serialize ${(value as object).constructor.name} to JSON: only materialized values leave the engine`);
}

function pathElements(path: Path): (Node | Relationship)[] {
  const elements: (Node | Relationship)[] = [];
  path.nodes.forEach((node, index) => {
    elements.push(node);
    const relationship = path.relationships[index];
    if (relationship !== undefined) elements.push(relationship);
  });
  return elements;
}

function entityMeta(entity: Node | Relationship): string {
  const type = entity instanceof Node ? 'node' : 'relationship';
  return `{"id":${entity.id},"elementId":${JSON.stringify(entity.elementId)},"type":"${type}","deleted":false}`;
}

/** A value's `meta` entry. */
export function metaJson(value: CypherValue): string {
  if (value === null || typeof value !== 'object') return 'null';
  if (Array.isArray(value)) return `[${value.map(metaJson).join(',')}]`;
  if (value instanceof Node || value instanceof Relationship) return entityMeta(value);
  if (value instanceof Path) return `[${pathElements(value).map(entityMeta).join(',')}]`;
  const type = temporalOrPointName(value);
  return type === null ? 'null' : `{"type":"${type}"}`;
}

/** Collects the distinct nodes and relationships of a row into `graph` format JSON. */
export function graphJson(row: readonly CypherValue[]): string {
  const nodes = new Map<bigint, Node>();
  const relationships = new Map<bigint, Relationship>();
  const collect = (value: CypherValue): void => {
    if (value === null || typeof value !== 'object') return;
    if (value instanceof Node) nodes.set(value.id, value);
    else if (value instanceof Relationship) relationships.set(value.id, value);
    else if (value instanceof Path) {
      value.nodes.forEach(collect);
      value.relationships.forEach(collect);
    } else if (Array.isArray(value)) value.forEach(collect);
    else if (value instanceof Map) value.forEach(collect);
  };
  row.forEach(collect);
  const nodeText = [...nodes.values()].map(
    (n) =>
      `{"id":"${n.id}","elementId":${JSON.stringify(n.elementId)},"labels":${JSON.stringify(n.labels)},"properties":${mapJson(n.properties)}}`,
  );
  const relationshipText = [...relationships.values()].map(
    (r) =>
      `{"id":"${r.id}","elementId":${JSON.stringify(r.elementId)},"type":${JSON.stringify(r.type)},"startNode":"${r.startId}","endNode":"${r.endId}","properties":${mapJson(r.properties)}}`,
  );
  return `{"nodes":[${nodeText.join(',')}],"relationships":[${relationshipText.join(',')}]}`;
}
