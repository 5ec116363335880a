/**
 * POINT values: construction from a map, component access, distance and bounding boxes.
 *
 * Cartesian points use `x`, `y`[, `z`]; geographic (WGS-84) points use `longitude`/`x`,
 * `latitude`/`y`[, `height`/`z`]. The CRS comes from `crs` or `srid`, else from the keys.
 */
import { ArgumentError, CypherTypeError } from '../errors/index.js';
import { typeName } from './kinds.js';
import { crsName } from './to-string.js';
import { CypherPoint, Srid, type CypherValue } from './types.js';

const CRS_BY_NAME: Record<string, number> = {
  cartesian: Srid.Cartesian,
  'cartesian-3d': Srid.Cartesian3D,
  'wgs-84': Srid.WGS84,
  'wgs-84-3d': Srid.WGS84_3D,
};
const KNOWN_SRIDS = new Set<number>(Object.values(Srid));
const EARTH_RADIUS_METERS = 6_378_140;

function coordinate(map: ReadonlyMap<string, CypherValue>, ...keys: string[]): number | null {
  for (const key of keys) {
    const v = map.get(key);
    if (v === undefined || v === null) continue;
    if (typeof v === 'number') return v;
    if (typeof v === 'bigint') return Number(v);
    throw new CypherTypeError(`Invalid coordinate ${key}: expected a number but was ${typeName(v)}`, { detail: 'InvalidArgumentType' });
  }
  return null;
}

function invalidPoint(message: string): ArgumentError {
  return new ArgumentError(message, { detail: 'InvalidArgumentValue' });
}

/** `point({...})`; null if any given coordinate is null. */
export function pointFromMap(map: ReadonlyMap<string, CypherValue>): CypherPoint | null {
  for (const v of map.values()) if (v === null) return null;
  const geographic = map.has('longitude') || map.has('latitude');
  const x = coordinate(map, 'x', 'longitude');
  const y = coordinate(map, 'y', 'latitude');
  const z = coordinate(map, 'z', 'height');
  if (x === null || y === null) throw invalidPoint('A point must contain either x and y, or longitude and latitude');
  let srid: number;
  const crs = map.get('crs');
  const sridValue = map.get('srid');
  if (typeof crs === 'string') {
    const found = CRS_BY_NAME[crs.toLowerCase()];
    if (found === undefined) throw invalidPoint(`Unknown coordinate reference system: ${crs}`);
    srid = found;
  } else if (typeof sridValue === 'bigint') {
    srid = Number(sridValue);
    if (!KNOWN_SRIDS.has(srid)) throw invalidPoint(`Unknown coordinate reference system: ${srid}`);
  } else if (geographic) {
    srid = z === null ? Srid.WGS84 : Srid.WGS84_3D;
  } else {
    srid = z === null ? Srid.Cartesian : Srid.Cartesian3D;
  }
  const threeD = srid === Srid.Cartesian3D || srid === Srid.WGS84_3D;
  if (threeD !== (z !== null))
    throw invalidPoint(`Cannot create a ${threeD ? '3D' : '2D'} point with ${z === null ? '2' : '3'} coordinates`);
  if ((srid === Srid.WGS84 || srid === Srid.WGS84_3D) && (y < -90 || y > 90)) {
    throw invalidPoint('Cannot create WGS84 point with invalid coordinate: latitude must be between -90 and 90');
  }
  return new CypherPoint(srid, x, y, z);
}

/** Component access: `x`, `y`, `z`, `longitude`, `latitude`, `height`, `crs`, `srid`. */
export function pointProperty(p: CypherPoint, key: string): CypherValue | undefined {
  const geographic = p.srid === Srid.WGS84 || p.srid === Srid.WGS84_3D;
  switch (key) {
    case 'x':
      return p.x;
    case 'y':
      return p.y;
    case 'z':
      return p.z ?? undefined;
    case 'longitude':
      return geographic ? p.x : undefined;
    case 'latitude':
      return geographic ? p.y : undefined;
    case 'height':
      return geographic && p.z !== null ? p.z : undefined;
    case 'crs':
      return crsName(p.srid);
    case 'srid':
      return BigInt(p.srid);
    default:
      return undefined;
  }
}

const toRadians = (deg: number) => (deg * Math.PI) / 180;

/** Distance in the points' CRS (meters for WGS-84, haversine); null across CRSs. */
export function pointDistance(a: CypherPoint, b: CypherPoint): number | null {
  if (a.srid !== b.srid) return null;
  if (a.srid === Srid.Cartesian || a.srid === Srid.Cartesian3D) {
    return Math.hypot(a.x - b.x, a.y - b.y, (a.z ?? 0) - (b.z ?? 0));
  }
  const lat1 = toRadians(a.y);
  const lat2 = toRadians(b.y);
  const dLat = lat2 - lat1;
  const dLon = toRadians(b.x - a.x);
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(lat1) * Math.cos(lat2) * Math.sin(dLon / 2) ** 2;
  const surface = 2 * EARTH_RADIUS_METERS * Math.atan2(Math.sqrt(h), Math.sqrt(1 - h));
  if (a.srid === Srid.WGS84_3D) return Math.hypot(surface, (a.z ?? 0) - (b.z ?? 0));
  return surface;
}

/** True if `p` lies within the box; null across CRSs. Geographic boxes may cross the date line. */
export function pointWithinBBox(p: CypherPoint, lowerLeft: CypherPoint, upperRight: CypherPoint): boolean | null {
  if (p.srid !== lowerLeft.srid || p.srid !== upperRight.srid) return null;
  const geographic = p.srid === Srid.WGS84 || p.srid === Srid.WGS84_3D;
  const inY = p.y >= lowerLeft.y && p.y <= upperRight.y;
  const inX =
    geographic && lowerLeft.x > upperRight.x ? p.x >= lowerLeft.x || p.x <= upperRight.x : p.x >= lowerLeft.x && p.x <= upperRight.x;
  const inZ = p.z === null || lowerLeft.z === null || upperRight.z === null || (p.z >= lowerLeft.z && p.z <= upperRight.z);
  return inX && inY && inZ;
}
