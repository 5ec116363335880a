/**
 * Typed JSON encoding of Cypher values, used by the JSON Lines export/import and by the shell's
 * `--format json` output. Plain JSON covers the common cases; everything JSON cannot express
 * exactly becomes a tagged object `{"$type": ..., ...}`:
 *
 * | Cypher value            | JSON                                                                  |
 * |-------------------------|-----------------------------------------------------------------------|
 * | null, BOOLEAN, STRING   | as is                                                                 |
 * | INTEGER                 | a number without fraction when |n| <= 2^53-1, else `{"$type":"integer","value":"<digits>"}` |
 * | FLOAT                   | a number with a fraction (`1.5`); integral, -0.0, NaN and ±Infinity as `{"$type":"float","value":"<text>"}` |
 * | LIST                    | an array                                                              |
 * | MAP                     | an object (`{"$type":"map","value":{...}}` when it has a `$type` key)  |
 * | BYTES                   | `{"$type":"bytes","base64":"..."}`                                    |
 * | DATE                    | `{"$type":"date","value":"2020-01-31","epochDay":18292}`              |
 * | LOCAL TIME              | `{"$type":"localtime","value":"...","nanoOfDay":N}`                   |
 * | ZONED TIME              | `{"$type":"time","value":"...","nanoOfDay":N,"offsetSeconds":S}`      |
 * | LOCAL DATETIME          | `{"$type":"localdatetime","value":"...","epochSecond":S,"nano":N}`    |
 * | ZONED DATETIME          | `{"$type":"datetime","value":"...","epochSecond":S,"nano":N,"offsetSeconds":O,"zoneId":Z|null}` |
 * | DURATION                | `{"$type":"duration","value":"P...","months":M,"days":D,"seconds":S,"nanoseconds":N}` |
 * | POINT                   | `{"$type":"point","srid":N,"x":X,"y":Y,"z":Z|null}` (coordinates typed like FLOATs) |
 * | VECTOR                  | `{"$type":"vector","coordinateType":"INTEGER8","dimension":N,"coordinates":"[1, 2, 3]"}` (exact text) |
 *
 * The `value` text of temporal values is for people; decoding reads the numeric fields, so the
 * round trip is exact. Seconds counts past 2^53-1 (years beyond ±285 million) are digit strings. Graph entities (nodes, relationships, paths) are encoded for display
 * (`$type` node/relationship/path) and are not decodable as property values.
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
  CypherVector,
  formatFloat,
  formatTemporal,
  makeVector,
  vectorCoordinateType,
  type CypherValue,
} from '../values/index.js';
import { formatVectorCoordinates, valueText } from '../values/to-string.js';

/** A JSON value as produced by `JSON.parse`. */
export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** Thrown when a JSON value is not a valid typed encoding. */
export class ValueDecodeError extends Error {
  override name = 'ValueDecodeError';
}

const MAX_SAFE = BigInt(Number.MAX_SAFE_INTEGER);

function encodeFloat(x: number): Json {
  if (Number.isFinite(x) && !Number.isInteger(x)) return x;
  return { $type: 'float', value: formatFloat(x) };
}

function encodeMap(map: ReadonlyMap<string, CypherValue>): Json {
  const out: { [key: string]: Json } = {};
  for (const [k, v] of map) out[k] = encodeValue(v);
  return map.has('$type') ? { $type: 'map', value: out } : out;
}

/** Encodes a Cypher value as typed JSON (see the module comment). */
export function encodeValue(v: CypherValue): Json {
  if (v === null || typeof v === 'boolean' || typeof v === 'string') return v;
  if (typeof v === 'bigint') {
    return v <= MAX_SAFE && v >= -MAX_SAFE ? Number(v) : { $type: 'integer', value: v.toString() };
  }
  if (typeof v === 'number') return encodeFloat(v);
  if (Array.isArray(v)) return v.map(encodeValue);
  if (v instanceof Map) return encodeMap(v);
  if (v instanceof Uint8Array) return { $type: 'bytes', base64: Buffer.from(v).toString('base64') };
  if (v instanceof CypherDate) return { $type: 'date', value: formatTemporal(v), epochDay: v.epochDay };
  if (v instanceof LocalTime) return { $type: 'localtime', value: formatTemporal(v), nanoOfDay: v.nanoOfDay };
  if (v instanceof CypherTime) {
    return { $type: 'time', value: formatTemporal(v), nanoOfDay: v.nanoOfDay, offsetSeconds: v.offsetSeconds };
  }
  if (v instanceof LocalDateTime) {
    return { $type: 'localdatetime', value: formatTemporal(v), epochSecond: secondsJson(v.epochSecond), nano: v.nano };
  }
  if (v instanceof CypherDateTime) {
    return {
      $type: 'datetime',
      value: formatTemporal(v),
      epochSecond: secondsJson(v.epochSecond),
      nano: v.nano,
      offsetSeconds: v.offsetSeconds,
      zoneId: v.zoneId,
    };
  }
  if (v instanceof CypherDuration) {
    return {
      $type: 'duration',
      value: formatTemporal(v),
      months: v.months,
      days: v.days,
      seconds: secondsJson(v.seconds),
      nanoseconds: v.nanoseconds,
    };
  }
  if (v instanceof CypherVector) {
    return {
      $type: 'vector',
      coordinateType: v.coordinateType,
      dimension: v.dimension,
      coordinates: `[${formatVectorCoordinates(v).join(', ')}]`,
    };
  }
  if (v instanceof CypherPoint) {
    return { $type: 'point', srid: v.srid, x: encodeFloat(v.x), y: encodeFloat(v.y), z: v.z === null ? null : encodeFloat(v.z) };
  }
  return encodeEntity(v);
}

function encodeEntity(v: CypherValue): Json {
  if (v instanceof Node) {
    return { $type: 'node', elementId: v.elementId, labels: [...v.labels], properties: encodeMap(v.properties) };
  }
  if (v instanceof Relationship) {
    return {
      $type: 'relationship',
      elementId: v.elementId,
      type: v.type,
      startElementId: v.startElementId,
      endElementId: v.endElementId,
      properties: encodeMap(v.properties),
    };
  }
  if (v instanceof Path) return { $type: 'path', nodes: v.nodes.map(encodeEntity), relationships: v.relationships.map(encodeEntity) };
  if (v instanceof NodeRef) return { $type: 'node', id: v.id.toString() };
  if (v instanceof RelationshipRef) return { $type: 'relationship', id: v.id.toString(), type: v.type };
  if (v instanceof PathRef) return { $type: 'path', length: v.relationships.length };
  throw new ValueDecodeError(`Cannot encode value ${valueText(v)}`);
}

function field(object: { [key: string]: Json }, name: string, tag: string): number {
  const value = object[name];
  if (typeof value !== 'number' || !Number.isFinite(value)) {
    throw new ValueDecodeError(`"${tag}" value needs a numeric "${name}"`);
  }
  return value;
}

/** A seconds count: a JSON number while exact, else its digits as a string. */
function secondsJson(seconds: bigint): Json {
  return seconds <= MAX_SAFE && seconds >= -MAX_SAFE ? Number(seconds) : seconds.toString();
}

function secondsField(object: { [key: string]: Json }, name: string, tag: string): bigint {
  const value = object[name];
  if (typeof value === 'string' && /^-?\d+$/.test(value)) return BigInt(value);
  if (typeof value === 'number' && Number.isInteger(value)) return BigInt(value);
  throw new ValueDecodeError(`"${tag}" value needs an integer "${name}"`);
}

function decodeFloat(json: Json, what: string): number {
  if (typeof json === 'number') return json;
  if (json !== null && typeof json === 'object' && !Array.isArray(json) && json.$type === 'float' && typeof json.value === 'string') {
    return parseFloatText(json.value);
  }
  throw new ValueDecodeError(`${what} must be a number`);
}

function parseFloatText(text: string): number {
  if (text === 'NaN') return NaN;
  if (text === 'Infinity') return Infinity;
  if (text === '-Infinity') return -Infinity;
  const x = Number(text);
  if (text.trim() === '' || Number.isNaN(x)) throw new ValueDecodeError(`Invalid float text '${text}'`);
  return x;
}

function decodeTagged(object: { [key: string]: Json }): CypherValue {
  const tag = object.$type;
  switch (tag) {
    case 'integer': {
      if (typeof object.value !== 'string' || !/^-?\d+$/.test(object.value)) throw new ValueDecodeError('"integer" value needs digits');
      const n = BigInt(object.value);
      if (n > 9223372036854775807n || n < -9223372036854775808n) throw new ValueDecodeError(`Integer ${object.value} is out of range`);
      return n;
    }
    case 'float':
      return decodeFloat(object, 'float');
    case 'map': {
      const inner = object.value;
      if (inner === null || typeof inner !== 'object' || Array.isArray(inner)) throw new ValueDecodeError('"map" value needs an object');
      return decodeObject(inner);
    }
    case 'bytes':
      if (typeof object.base64 !== 'string') throw new ValueDecodeError('"bytes" value needs "base64"');
      return new Uint8Array(Buffer.from(object.base64, 'base64'));
    case 'date':
      return new CypherDate(field(object, 'epochDay', tag));
    case 'localtime':
      return new LocalTime(field(object, 'nanoOfDay', tag));
    case 'time':
      return new CypherTime(field(object, 'nanoOfDay', tag), field(object, 'offsetSeconds', tag));
    case 'localdatetime':
      return new LocalDateTime(secondsField(object, 'epochSecond', tag), field(object, 'nano', tag));
    case 'datetime': {
      const zone = object.zoneId ?? null;
      if (zone !== null && typeof zone !== 'string') throw new ValueDecodeError('"datetime" zoneId must be a string or null');
      return new CypherDateTime(
        secondsField(object, 'epochSecond', tag),
        field(object, 'nano', tag),
        field(object, 'offsetSeconds', tag),
        zone,
      );
    }
    case 'duration':
      return new CypherDuration(
        field(object, 'months', tag),
        field(object, 'days', tag),
        secondsField(object, 'seconds', tag),
        field(object, 'nanoseconds', tag),
      );
    case 'point': {
      const z = object.z ?? null;
      return new CypherPoint(
        field(object, 'srid', tag),
        decodeFloat(object.x ?? null, 'point x'),
        decodeFloat(object.y ?? null, 'point y'),
        z === null ? null : decodeFloat(z, 'point z'),
      );
    }
    case 'vector': {
      const type = typeof object.coordinateType === 'string' ? vectorCoordinateType(object.coordinateType) : undefined;
      if (type === undefined || typeof object.coordinates !== 'string')
        throw new ValueDecodeError('"vector" needs a coordinateType and coordinates text');
      return makeVector(object.coordinates, BigInt(field(object, 'dimension', tag)), type);
    }
    default:
      throw new ValueDecodeError(`Unknown value type ${JSON.stringify(tag)}`);
  }
}

function decodeObject(object: { [key: string]: Json }): Map<string, CypherValue> {
  const map = new Map<string, CypherValue>();
  for (const [k, v] of Object.entries(object)) map.set(k, decodeValue(v));
  return map;
}

/** Decodes typed JSON back to a Cypher value; throws ValueDecodeError on malformed input. */
export function decodeValue(json: Json): CypherValue {
  if (json === null || typeof json === 'boolean' || typeof json === 'string') return json;
  if (typeof json === 'number') {
    if (Number.isInteger(json)) {
      if (!Number.isSafeInteger(json)) throw new ValueDecodeError(`Integer ${json} is not exact in JSON; use {"$type":"integer"}`);
      return BigInt(json);
    }
    return json;
  }
  if (Array.isArray(json)) return json.map(decodeValue);
  if (typeof json.$type === 'string') return decodeTagged(json);
  return decodeObject(json);
}

/** Decodes a JSON object of properties to a property map. */
export function decodeProperties(json: Json | undefined): Map<string, CypherValue> {
  if (json === undefined || json === null) return new Map();
  if (typeof json !== 'object' || Array.isArray(json)) throw new ValueDecodeError('"properties" must be an object');
  return decodeObject(json);
}
