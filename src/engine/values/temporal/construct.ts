/**
 * Constructors behind `date()`, `localtime()`, `time()`, `localdatetime()`, `datetime()`:
 * from strings, from maps (selecting and overriding components of other temporals), from other
 * temporals, and from the clock.
 *
 * Zone rules (Neo4j): a `time`/`datetime` base value lends its zone; a `timezone` key either
 * attaches a zone (when the base has none) or converts the base to it (same instant); values
 * without any zone take the default zone (`db.temporal.timezone`).
 */
import { ArgumentError, CypherTypeError } from '../../errors/index.js';
import { isTemporalInstant, typeName, type TemporalInstant } from '../kinds.js';
import { CypherDate, CypherDateTime, CypherTime, LocalDateTime, LocalTime, type CypherValue } from '../types.js';
import { floorDiv, floorMod, NANOS_PER_DAY, NANOS_PER_SECOND } from './calendar.js';
import { DATE_FIELDS, epochDayOfParts, hasDateFields, resolveDate, resolveTime, TIME_FIELDS, type TemporalFields } from './fields.js';
import { parseDateText, parseDateTimeText, parseTimeText, parseZonedTimeText, type TimeParts, type ZoneParts } from './parse.js';
import { localSecondsOf, partsOf, type TemporalParts } from './parts.js';
import { isKnownZone, parseOffset, zoneOffsetAt } from './time-zone.js';
import { dateTimeFromInstant, dateTimeFromLocal, type Zone } from './zoned.js';
import { valueText } from '../to-string.js';

/** The five temporal instant types by constructor name. */
export type TemporalKind = 'date' | 'localtime' | 'time' | 'localdatetime' | 'datetime';

/** What constructors need from the statement: the clock and the default zone. */
export interface TemporalEnvironment {
  /** The instant "now" for this constructor (statement, transaction or realtime clock). */
  now(): { epochSecond: number; nano: number };
  /** Default zone name or offset, e.g. `UTC`, `Europe/Berlin`, `+01:00`. */
  readonly defaultTimeZone: string;
}

const hasDate = (k: TemporalKind) => k === 'date' || k === 'localdatetime' || k === 'datetime';
const hasTime = (k: TemporalKind) => k !== 'date';

function badZone(text: string): ArgumentError {
  return new ArgumentError(`Invalid value for TimeZone: Text '${text}' could not be parsed`, { detail: 'InvalidArgumentValue' });
}

/** Parses a zone given as text: an offset (`+01:00`, `Z`) or an IANA name. */
export function parseZone(text: string): Zone {
  const offset = parseOffset(text);
  if (offset !== null) return { kind: 'offset', offsetSeconds: offset };
  if (text === 'UTC' || text === 'GMT') return { kind: 'named', zoneId: text };
  if (!isKnownZone(text)) throw badZone(text);
  return { kind: 'named', zoneId: text };
}

/** The default zone of the environment (`UTC` is treated as the offset `Z`). */
export function defaultZone(env: TemporalEnvironment): Zone {
  const text = env.defaultTimeZone;
  if (text === 'UTC' || text === 'Z' || text === '') return { kind: 'offset', offsetSeconds: 0 };
  return parseZone(text);
}

function zoneFromParts(z: ZoneParts): Zone {
  if (z.zoneId !== null) {
    const zone = parseZone(z.zoneId);
    return zone;
  }
  return { kind: 'offset', offsetSeconds: z.offsetSeconds! };
}

function offsetAt(zone: Zone, epochSecond: number): number {
  return zone.kind === 'offset' ? zone.offsetSeconds : zoneOffsetAt(zone.zoneId, epochSecond);
}

function nanoOfTime(t: TimeParts): number {
  return resolveTime({ hour: t.hour, minute: t.minute, second: t.second, nanosecond: t.nano }, null);
}

/** Builds a value of `kind` from a local date, local time and zone. */
function assemble(kind: TemporalKind, epochDay: number, nanoOfDay: number, zone: Zone, env: TemporalEnvironment): TemporalInstant {
  switch (kind) {
    case 'date':
      return new CypherDate(epochDay);
    case 'localtime':
      return new LocalTime(nanoOfDay);
    case 'time': {
      const offset = offsetAt(zone, env.now().epochSecond);
      return new CypherTime(nanoOfDay, offset);
    }
    case 'localdatetime': {
      const { localSecond, nano } = localSecondsOf(epochDay, nanoOfDay);
      return new LocalDateTime(localSecond, nano);
    }
    case 'datetime': {
      const { localSecond, nano } = localSecondsOf(epochDay, nanoOfDay);
      return dateTimeFromLocal(localSecond, nano, zone);
    }
  }
}

/** The current value of `kind` in `zone` (or the default zone). */
export function temporalNow(kind: TemporalKind, env: TemporalEnvironment, zone?: Zone): TemporalInstant {
  const z = zone ?? defaultZone(env);
  const now = env.now();
  const dt = dateTimeFromInstant(BigInt(now.epochSecond), now.nano, z);
  const p = partsOf(dt);
  if (kind === 'time') return new CypherTime(p.nanoOfDay!, dt.offsetSeconds);
  if (kind === 'datetime') return dt;
  return assemble(kind, p.epochDay!, p.nanoOfDay!, z, env);
}

/** `kind(text)`. */
export function temporalFromString(kind: TemporalKind, text: string, env: TemporalEnvironment): TemporalInstant {
  switch (kind) {
    case 'date':
      return new CypherDate(epochDayOfParts(parseDateText(text)));
    case 'localtime':
      return new LocalTime(nanoOfTime(parseTimeText(text)));
    case 'time': {
      const { time, zone } = parseZonedTimeText(text);
      const z = zone === null ? defaultZone(env) : zoneFromParts(zone);
      return new CypherTime(nanoOfTime(time), offsetAt(z, env.now().epochSecond));
    }
    case 'localdatetime': {
      const { date, time } = parseDateTimeText(text);
      return assemble(kind, epochDayOfParts(date), nanoOfTime(time), defaultZone(env), env);
    }
    case 'datetime': {
      const { date, time, zone } = parseDateTimeText(text);
      const epochDay = epochDayOfParts(date);
      const nanoOfDay = nanoOfTime(time);
      if (zone === null) return assemble(kind, epochDay, nanoOfDay, defaultZone(env), env);
      if (zone.zoneId !== null) {
        const named = zoneFromParts(zone);
        if (zone.offsetSeconds !== null) {
          const { localSecond, nano } = localSecondsOf(epochDay, nanoOfDay);
          return dateTimeFromInstant(localSecond - BigInt(zone.offsetSeconds), nano, named);
        }
        return assemble(kind, epochDay, nanoOfDay, named, env);
      }
      return assemble(kind, epochDay, nanoOfDay, { kind: 'offset', offsetSeconds: zone.offsetSeconds! }, env);
    }
  }
}

/** `kind(otherTemporal)`: projects the components `kind` has; missing ones are an error. */
export function temporalFromTemporal(kind: TemporalKind, v: TemporalInstant, env: TemporalEnvironment): TemporalInstant {
  const p = partsOf(v);
  if (hasDate(kind) && p.epochDay === null) {
    throw new CypherTypeError(`Cannot construct ${kind} from ${typeName(v)}`, { detail: 'InvalidArgumentType' });
  }
  if (kind === 'datetime' && p.zone !== null && p.nanoOfDay !== null) {
    return v instanceof CypherDateTime ? v : assemble(kind, p.epochDay!, p.nanoOfDay, p.zone, env);
  }
  if (kind === 'time' && p.zone !== null) return new CypherTime(p.nanoOfDay!, p.offsetSeconds!);
  return assemble(kind, p.epochDay ?? 0, p.nanoOfDay ?? 0, p.zone ?? defaultZone(env), env);
}

const KNOWN_KEYS = new Set<string>([...DATE_FIELDS, ...TIME_FIELDS, 'date', 'time', 'datetime', 'timezone', 'epochSeconds', 'epochMillis']);

function integerField(key: string, v: CypherValue): number {
  if (typeof v === 'bigint') return Number(v);
  if (typeof v === 'number' && Number.isInteger(v)) return v;
  throw new CypherTypeError(`Invalid value for ${key}: expected an Integer but was ${typeName(v)}`, { detail: 'InvalidArgumentType' });
}

function temporalField(key: string, v: CypherValue): TemporalParts {
  if (!isTemporalInstant(v)) {
    throw new CypherTypeError(`Invalid value for ${key}: expected a temporal value but was ${typeName(v)}`, {
      detail: 'InvalidArgumentType',
    });
  }
  return partsOf(v);
}

/** Reads the integer fields of a map (null values are treated as absent). */
export function readFields(map: ReadonlyMap<string, CypherValue>): TemporalFields {
  const f: TemporalFields = {};
  for (const key of [...DATE_FIELDS, ...TIME_FIELDS]) {
    const v = map.get(key);
    if (v !== undefined && v !== null) f[key] = integerField(key, v);
  }
  return f;
}

/** `kind({...})`. */
export function temporalFromMap(
  kind: TemporalKind,
  map: ReadonlyMap<string, CypherValue>,
  env: TemporalEnvironment,
): TemporalInstant | null {
  for (const key of map.keys()) {
    if (!KNOWN_KEYS.has(key)) throw new ArgumentError(`No such field: ${key}`, { detail: 'InvalidArgumentValue' });
  }
  const tzValue = map.get('timezone');
  const tzZone = tzValue === undefined || tzValue === null ? null : parseZone(valueText(tzValue));
  if (map.size === 1 && tzZone !== null) return temporalNow(kind, env, tzZone);
  if (kind === 'datetime' && (map.has('epochSeconds') || map.has('epochMillis'))) return dateTimeFromEpochMap(map, tzZone, env);

  const f = readFields(map);
  const dt = map.get('datetime');
  const datetimeBase = dt === undefined || dt === null ? null : temporalField('datetime', dt);
  const d = map.get('date');
  const dateBase = d === undefined || d === null ? datetimeBase : temporalField('date', d);
  const t = map.get('time');
  const timeBase = t === undefined || t === null ? datetimeBase : temporalField('time', t);

  let epochDay = 0;
  if (hasDate(kind)) {
    if (dateBase !== null && dateBase.epochDay === null)
      throw new CypherTypeError(`Cannot select a date from a value without one`, { detail: 'InvalidArgumentType' });
    epochDay = resolveDate(f, dateBase?.epochDay ?? null);
  } else if (hasDateFields(f)) {
    throw new ArgumentError(`Cannot assign date fields to ${kind}`, { detail: 'InvalidArgumentValue' });
  }
  const nanoOfDay = hasTime(kind) ? resolveTime(f, timeBase?.nanoOfDay ?? null) : 0;

  if (kind !== 'time' && kind !== 'datetime') return assemble(kind, epochDay, nanoOfDay, defaultZone(env), env);

  const baseZone = timeBase?.zone ?? null;
  if (baseZone === null) return assemble(kind, epochDay, nanoOfDay, tzZone ?? defaultZone(env), env);
  if (kind === 'time') {
    const baseOffset = timeBase!.offsetSeconds!;
    if (tzZone === null) return new CypherTime(nanoOfDay, baseOffset);
    const newOffset = offsetAt(tzZone, env.now().epochSecond);
    return new CypherTime(floorMod(nanoOfDay + (newOffset - baseOffset) * NANOS_PER_SECOND, NANOS_PER_DAY), newOffset);
  }
  const inBaseZone = assemble('datetime', epochDay, nanoOfDay, baseZone, env) as CypherDateTime;
  if (tzZone === null) return inBaseZone;
  return dateTimeFromInstant(inBaseZone.epochSecond, inBaseZone.nano, tzZone);
}

function dateTimeFromEpochMap(map: ReadonlyMap<string, CypherValue>, tzZone: Zone | null, env: TemporalEnvironment): CypherDateTime {
  const f = readFields(map);
  let epochSecond: bigint;
  let nano = (f.millisecond ?? 0) * 1_000_000 + (f.microsecond ?? 0) * 1000 + (f.nanosecond ?? 0);
  if (map.has('epochSeconds')) {
    epochSecond = BigInt(integerField('epochSeconds', map.get('epochSeconds')!));
  } else {
    const millis = integerField('epochMillis', map.get('epochMillis')!);
    const seconds = floorDiv(millis, 1000);
    nano += (millis - seconds * 1000) * 1_000_000;
    epochSecond = BigInt(seconds);
  }
  return dateTimeFromEpoch(epochSecond, nano, env, tzZone ?? defaultZone(env));
}

/** `datetime.fromepoch(seconds, nanos)` / `datetime.fromepochmillis(millis)`, in `zone` (default: the default zone). */
export function dateTimeFromEpoch(epochSecond: bigint, nano: number, env: TemporalEnvironment, zone?: Zone): CypherDateTime {
  const carry = floorDiv(nano, NANOS_PER_SECOND);
  return dateTimeFromInstant(epochSecond + BigInt(carry), nano - carry * NANOS_PER_SECOND, zone ?? defaultZone(env));
}

/** Any constructor argument: null, string, map or temporal. */
export function constructTemporal(kind: TemporalKind, arg: CypherValue | undefined, env: TemporalEnvironment): TemporalInstant | null {
  if (arg === undefined) return temporalNow(kind, env);
  if (arg === null) return null;
  if (typeof arg === 'string') return temporalFromString(kind, arg, env);
  if (arg instanceof Map) return temporalFromMap(kind, arg, env);
  if (isTemporalInstant(arg)) return temporalFromTemporal(kind, arg, env);
  throw new CypherTypeError(`Invalid input for ${kind}(): expected a String, Map or temporal value but was ${typeName(arg)}`, {
    detail: 'InvalidArgumentType',
  });
}
