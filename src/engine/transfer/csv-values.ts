/**
 * neo4j-admin CSV headers and typed field values.
 *
 * Header fields: `name:type` (property), `:ID` / `name:ID(space)` (node id; with a name it is
 * also stored as a property, a string or with `--id-type integer` an integer; options
 * `{label: Person, id-type: long}` name the label the id identifies and the id space's id type), `:LABEL`, `:TYPE`, `:START_ID(space)`, `:END_ID(space)`,
 * `:IGNORE`. Types: `int`, `long`, `short`, `byte` (INTEGER), `float`, `double` (FLOAT),
 * `boolean`, `string`, `char`, `date`, `localtime`, `time`, `localdatetime`, `datetime`,
 * `duration`, `point`, each optionally an array (`int[]`, split on the array delimiter, `;` by
 * default). `byte[]` holds a byte array as signed numbers. An unquoted empty field is absent; a
 * quoted empty field is the empty string.
 */
import { CypherPoint, formatFloat, formatPoint, formatTemporal, pointFromMap, type CypherValue, valueText } from '../values/index.js';
import { temporalFromString } from '../values/temporal/construct.js';
import { durationFromString } from '../values/temporal/duration-input.js';
import type { CsvField } from '../files/csv-reader.js';
import { isList, temporalOrPointName } from '../values/kinds.js';

/** Scalar types of a property column. */
export type CsvScalarType =
  'int' | 'float' | 'boolean' | 'string' | 'date' | 'localtime' | 'time' | 'localdatetime' | 'datetime' | 'duration' | 'point' | 'byte';

/** How node ids are read (neo4j-admin's `--id-type`). */
export type IdType = 'string' | 'integer' | 'actual';

/** One header column. */
export interface CsvColumn {
  readonly role: 'property' | 'id' | 'label' | 'type' | 'start' | 'end' | 'ignore';
  /** Property name (for `id` columns: stored as a property when given). */
  readonly name: string;
  readonly type: CsvScalarType;
  readonly array: boolean;
  readonly idSpace: string;
  /** `:ID{label:Person}`: the label whose nodes the id identifies (incremental import). */
  readonly idLabel?: string;
  /** `:ID{id-type:long}`: this id space's id type, overriding the import's `--id-type`. */
  readonly idType?: IdType;
}

/** `{key: value, ...}` options after a header field's type (`uuid:ID(Person){label:Person}`). */
function headerOptions(text: string, spec: string): Map<string, string> {
  const options = new Map<string, string>();
  for (const part of text.split(',')) {
    if (part.trim() === '') continue;
    const colon = part.indexOf(':');
    if (colon < 0) throw new CsvValueError(`Header field '${spec}' has an option without a value: '${part.trim()}'`);
    options.set(
      part.slice(0, colon).trim().toLowerCase(),
      part
        .slice(colon + 1)
        .trim()
        .replace(/^(['"])(.*)\1$/, '$2'),
    );
  }
  return options;
}

/** The id type named by a header's `id-type` option. */
function idTypeOption(text: string, spec: string): IdType {
  const lower = text.toLowerCase();
  if (lower === 'string') return 'string';
  if (['int', 'long', 'integer', 'short', 'byte'].includes(lower)) return 'integer';
  throw new CsvValueError(`Header field '${spec}' has an unknown id-type '${text}' (string, int or long)`);
}

const TYPE_ALIASES: Record<string, CsvScalarType> = {
  int: 'int',
  long: 'int',
  short: 'int',
  integer: 'int',
  float: 'float',
  double: 'float',
  boolean: 'boolean',
  string: 'string',
  char: 'string',
  date: 'date',
  localtime: 'localtime',
  time: 'time',
  localdatetime: 'localdatetime',
  datetime: 'datetime',
  duration: 'duration',
  point: 'point',
  byte: 'byte',
};

/** Thrown for an invalid header or field. */
export class CsvValueError extends Error {
  override name = 'CsvValueError';
}

/** Parses one header field. */
export function parseHeaderField(spec: string): CsvColumn {
  const braces = /\{([^{}]*)\}\s*$/.exec(spec);
  const field = braces === null ? spec : spec.slice(0, braces.index);
  const options = braces === null ? new Map<string, string>() : headerOptions(braces[1]!, spec);
  const colon = field.lastIndexOf(':');
  const name = colon < 0 ? field : field.slice(0, colon);
  const typeText = colon < 0 ? 'string' : field.slice(colon + 1).trim();
  const special = /^(ID|START_ID|END_ID)(?:\((.*)\))?$/i.exec(typeText);
  if (special) {
    const role = ({ id: 'id', start_id: 'start', end_id: 'end' } as const)[special[1]!.toLowerCase() as 'id' | 'start_id' | 'end_id'];
    const unknown = [...options.keys()].filter((k) => role !== 'id' || (k !== 'label' && k !== 'id-type'));
    if (unknown.length > 0) throw new CsvValueError(`Header field '${spec}' has unsupported options: ${unknown.join(', ')}`);
    const label = options.get('label');
    const idType = options.get('id-type');
    return {
      role,
      name: name.trim(),
      type: 'string',
      array: false,
      idSpace: special[2] ?? '',
      ...(label !== undefined ? { idLabel: label } : {}),
      ...(idType !== undefined ? { idType: idTypeOption(idType, spec) } : {}),
    };
  }
  if (options.size > 0)
    throw new CsvValueError(`Header field '${spec}' has options, which only :ID columns take ({label: ..., id-type: ...})`);
  const upper = typeText.toUpperCase();
  if (upper === 'LABEL' || upper === 'TYPE' || upper === 'IGNORE') {
    return { role: upper.toLowerCase() as 'label' | 'type' | 'ignore', name: name.trim(), type: 'string', array: false, idSpace: '' };
  }
  const array = typeText.endsWith('[]');
  const base = (array ? typeText.slice(0, -2) : typeText).toLowerCase();
  const type = TYPE_ALIASES[base];
  if (type === undefined) throw new CsvValueError(`Unknown column type '${typeText}' in header field '${spec}'`);
  if (name.trim() === '') throw new CsvValueError(`Header field '${spec}' has no property name`);
  if (type === 'byte' && !array) return { role: 'property', name: name.trim(), type: 'int', array: false, idSpace: '' };
  return { role: 'property', name: name.trim(), type, array, idSpace: '' };
}

const temporalEnvironment = {
  now: () => {
    const ms = Date.now();
    return { epochSecond: Math.floor(ms / 1000), nano: (ms % 1000) * 1_000_000 };
  },
  defaultTimeZone: 'UTC',
};

function parseInteger(text: string): bigint {
  const t = text.trim();
  if (!/^[+-]?\d+$/.test(t)) throw new CsvValueError(`'${text}' is not an integer`);
  const n = BigInt(t);
  if (n > 9223372036854775807n || n < -9223372036854775808n) throw new CsvValueError(`'${text}' is out of the INTEGER range`);
  return n;
}

function parseFloatText(text: string): number {
  const t = text.trim();
  const x = Number(t);
  if (t === '' || (Number.isNaN(x) && t !== 'NaN')) throw new CsvValueError(`'${text}' is not a float`);
  return x;
}

/** Parses `{x: 1.0, y: 2.0, crs: 'cartesian'}` (the neo4j-admin point syntax). */
function parsePointText(text: string): CypherPoint {
  const inner = /^\s*\{(.*)\}\s*$/s.exec(text);
  if (!inner) throw new CsvValueError(`'${text}' is not a point ({x: .., y: ..} or {longitude: .., latitude: ..})`);
  const map = new Map<string, CypherValue>();
  for (const part of inner[1]!.split(',')) {
    const m = /^\s*([A-Za-z_]+)\s*:\s*(?:'([^']*)'|"([^"]*)"|([^\s]+))\s*$/.exec(part);
    if (!m) throw new CsvValueError(`'${text}' is not a point`);
    const key = m[1]!.toLowerCase();
    const quoted = m[2] ?? m[3];
    map.set(key, quoted !== undefined ? quoted : key === 'srid' ? parseInteger(m[4]!) : parseFloatText(m[4]!));
  }
  const point = pointFromMap(map);
  if (point === null) throw new CsvValueError(`'${text}' is not a point`);
  return point;
}

function parseScalar(text: string, type: CsvScalarType): CypherValue {
  switch (type) {
    case 'int':
    case 'byte':
      return parseInteger(text);
    case 'float':
      return parseFloatText(text);
    case 'boolean': {
      const t = text.trim().toLowerCase();
      if (t !== 'true' && t !== 'false') throw new CsvValueError(`'${text}' is not a boolean`);
      return t === 'true';
    }
    case 'string':
      return text;
    case 'duration':
      return durationFromString(text.trim());
    case 'point':
      return parsePointText(text);
    default:
      return temporalFromString(type, text.trim(), temporalEnvironment);
  }
}

/** Converts a field to the column's value; null when the field is absent. Throws on bad text. */
export function convertField(field: CsvField, column: CsvColumn, arrayDelimiter: string): CypherValue {
  if (field.text === '' && !field.quoted) return null;
  try {
    if (!column.array) return parseScalar(field.text, column.type);
    const parts = field.text === '' ? [] : field.text.split(arrayDelimiter);
    if (column.type === 'byte') {
      return new Uint8Array(
        parts.map((p) => {
          const n = Number(parseInteger(p));
          if (n < -128 || n > 255) throw new CsvValueError(`'${p}' is not a byte`);
          return n & 0xff;
        }),
      );
    }
    return parts.map((p) => parseScalar(p, column.type));
  } catch (error) {
    if (error instanceof CsvValueError) throw error;
    throw new CsvValueError(`Column '${column.name}' (${column.type}${column.array ? '[]' : ''}): ${(error as Error).message}`);
  }
}

/** The column type that represents a value exactly, or null when CSV cannot (maps, nested lists, empty lists). */
export function csvTypeOf(value: CypherValue): string | null {
  if (typeof value === 'bigint') return 'long';
  if (typeof value === 'number') return 'double';
  if (typeof value === 'boolean') return 'boolean';
  if (typeof value === 'string') return 'string';
  if (value instanceof Uint8Array) return 'byte[]';
  const temporal = temporalOrPointName(value);
  if (temporal !== null) return temporal;
  if (isList(value) && value.length > 0) {
    const inner = csvTypeOf(value[0]!);
    return inner === null || inner.endsWith('[]') ? null : `${inner}[]`;
  }
  return null;
}

function scalarText(value: CypherValue): string {
  if (typeof value === 'number') return formatFloat(value);
  if (typeof value === 'bigint' || typeof value === 'boolean' || typeof value === 'string') return String(value);
  if (value instanceof CypherPoint)
    return formatPoint(value)
      .replace(/^point\(/, '')
      .replace(/\)$/, '');
  return formatTemporal(value) ?? valueText(value);
}

/** The field text of a value (arrays joined with the array delimiter). */
export function csvText(value: CypherValue, arrayDelimiter: string): string {
  if (value instanceof Uint8Array) return [...value].map((b) => String(b > 127 ? b - 256 : b)).join(arrayDelimiter);
  if (Array.isArray(value)) return value.map(scalarText).join(arrayDelimiter);
  return scalarText(value);
}
