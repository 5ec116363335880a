/**
 * apoc.date (epoch numbers and Java patterns) and apoc.temporal (Cypher temporal values).
 */
import { civilOf, dayOfWeek, epochDayOf, floorMod } from '../../../values/temporal/calendar.js';
import {
  CypherDate,
  CypherDateTime,
  CypherDuration,
  CypherTime,
  LocalDateTime,
  LocalTime,
  type CypherValue,
} from '../../../values/types.js';
import { fn, illegalArgument } from './define.js';
import { epochSecondOf, fieldsAt, formatJava, parseJava, zoneArg, type DateTimeFields } from './java-time.js';
import { mapOf } from './values.js';
import { valueText } from '../../../values/to-string.js';

const UNIT_MS: Record<string, number> = {
  ms: 1,
  milli: 1,
  millis: 1,
  millisecond: 1,
  milliseconds: 1,
  s: 1000,
  second: 1000,
  seconds: 1000,
  m: 60_000,
  minute: 60_000,
  minutes: 60_000,
  h: 3_600_000,
  hour: 3_600_000,
  hours: 3_600_000,
  d: 86_400_000,
  day: 86_400_000,
  days: 86_400_000,
  w: 604_800_000,
  week: 604_800_000,
  weeks: 604_800_000,
};

/** Milliseconds per APOC time unit (`ms`, `s`, `m`, `h`, `d`, `w` and their long names). */
export function unitMs(unit: CypherValue): number {
  const ms = UNIT_MS[valueText(unit ?? 'ms').toLowerCase()];
  if (ms === undefined) throw illegalArgument(`The unit: ${valueText(unit)} is not correct`);
  return ms;
}

function fieldsOfMillis(ms: number, timezone: CypherValue): DateTimeFields {
  const { zone, offset } = zoneArg(typeof timezone === 'string' ? timezone : null);
  const epochSecond = Math.floor(ms / 1000);
  return fieldsAt(epochSecond, (ms - epochSecond * 1000) * 1_000_000, zone, offset);
}

function millisOf(f: DateTimeFields, timezone: CypherValue): number {
  const zone = typeof timezone === 'string' && timezone !== '' ? timezone : 'UTC';
  const { offset } = zoneArg(zone);
  const fields = f.offsetSeconds === null && offset !== null ? { ...f, offsetSeconds: offset } : f;
  return epochSecondOf(fields, offset === null ? zone : 'UTC') * 1000 + Math.floor(f.nano / 1_000_000);
}

/** Local fields of a Cypher temporal value. */
export function temporalFields(v: CypherValue): DateTimeFields {
  if (v instanceof CypherDateTime) return fieldsAt(Number(v.epochSecond), v.nano, v.zoneId, v.zoneId === null ? v.offsetSeconds : null);
  if (v instanceof LocalDateTime) return { ...fieldsAt(Number(v.epochSecond), v.nano, null, 0), offsetSeconds: null };
  if (v instanceof CypherDate) {
    const c = civilOf(v.epochDay);
    return { year: c.year, month: c.month, day: c.day, hour: 0, minute: 0, second: 0, nano: 0, offsetSeconds: null, zoneId: null };
  }
  if (v instanceof LocalTime || v instanceof CypherTime) {
    const seconds = Math.floor(v.nanoOfDay / 1e9);
    return {
      year: 1970,
      month: 1,
      day: 1,
      hour: Math.floor(seconds / 3600),
      minute: Math.floor((seconds % 3600) / 60),
      second: seconds % 60,
      nano: v.nanoOfDay % 1e9,
      offsetSeconds: v instanceof CypherTime ? v.offsetSeconds : null,
      zoneId: null,
    };
  }
  throw illegalArgument(`Expected a temporal value but got ${valueText(v)}`);
}

function durationFields(d: CypherDuration): DateTimeFields {
  const totalSeconds = Number(d.seconds);
  return {
    year: Math.floor(d.months / 12),
    month: d.months % 12,
    day: d.days,
    hour: Math.floor(totalSeconds / 3600),
    minute: Math.floor((totalSeconds % 3600) / 60),
    second: floorMod(totalSeconds, 60),
    nano: d.nanoseconds,
    offsetSeconds: null,
    zoneId: null,
  };
}

function fieldValue(f: DateTimeFields, unit: string): CypherValue {
  const epochDay = epochDayOf(f.year, f.month, f.day);
  switch (unit.toLowerCase()) {
    case 'y':
    case 'year':
    case 'years':
      return BigInt(f.year);
    case 'month':
    case 'months':
      return BigInt(f.month);
    case 'd':
    case 'day':
    case 'days':
      return BigInt(f.day);
    case 'h':
    case 'hour':
    case 'hours':
      return BigInt(f.hour);
    case 'm':
    case 'minute':
    case 'minutes':
      return BigInt(f.minute);
    case 's':
    case 'second':
    case 'seconds':
      return BigInt(f.second);
    case 'ms':
    case 'milli':
    case 'millis':
    case 'milliseconds':
      return BigInt(Math.floor(f.nano / 1e6));
    case 'w':
    case 'weekday':
    case 'weekdays':
      return BigInt(dayOfWeek(epochDay));
    default:
      throw illegalArgument(`The unit: ${unit} is not correct`);
  }
}

function toZoned(f: DateTimeFields, timezone: string): CypherDateTime {
  const { zone, offset } = zoneArg(timezone);
  const fields = f.offsetSeconds === null && f.zoneId === null && offset !== null ? { ...f, offsetSeconds: offset } : f;
  const epochSecond = epochSecondOf(fields, zone ?? 'UTC');
  const zoneId = f.zoneId ?? (f.offsetSeconds === null ? zone : null);
  const actualOffset = fields.offsetSeconds ?? fieldsAt(epochSecond, 0, zoneId).offsetSeconds!;
  return new CypherDateTime(BigInt(epochSecond), f.nano, actualOffset, zoneId);
}

const DEFAULT_PATTERN = "'yyyy-MM-dd HH:mm:ss'";

/** The apoc.date and apoc.temporal functions. */
export const dateEntries = [
  fn(
    `apoc.date.format(time :: INTEGER, unit = 'ms' :: STRING, format = ${DEFAULT_PATTERN} :: STRING, timezone = '' :: STRING) :: STRING`,
    'Returns a `STRING` representation of the time value. The time unit (default: ms), date format (default: ISO), and time zone (default: current time zone) can all be changed.',
    ([time, unit, format, tz]) => (time === null ? null : formatJava(valueText(format), fieldsOfMillis(Number(time) * unitMs(unit!), tz!))),
  ),
  fn(
    `apoc.date.parse(time :: STRING, unit = 'ms' :: STRING, format = ${DEFAULT_PATTERN} :: STRING, timezone = '' :: STRING) :: INTEGER`,
    'Parses the given date `STRING` from a specified format into the specified time unit.',
    ([time, unit, format, tz]) => {
      if (time === null || time === '') return null;
      return BigInt(Math.floor(millisOf(parseJava(valueText(format ?? 'yyyy-MM-dd HH:mm:ss'), valueText(time)), tz!) / unitMs(unit!)));
    },
  ),
  fn(
    "apoc.date.convertFormat(temporal :: STRING, currentFormat :: STRING, convertTo = 'yyyy-MM-dd' :: STRING) :: STRING",
    'Converts a `STRING` of one type of date format into a `STRING` of another type of date format.',
    ([text, from, to]) => {
      if (text === null || text === '') return null;
      if (from === null) throw illegalArgument('The currentFormat is null');
      return formatJava(valueText(to), parseJava(valueText(from), valueText(text)));
    },
  ),
  fn(
    'apoc.date.add(time :: INTEGER, unit :: STRING, addValue :: INTEGER, addUnit :: STRING) :: INTEGER',
    'Adds a unit of specified time to the given timestamp.',
    ([time, unit, value, addUnit]) => {
      if (time === null || value === null) return null;
      const u = unitMs(unit!);
      return BigInt(Math.trunc((Number(time) * u + Number(value) * unitMs(addUnit!)) / u));
    },
  ),
  fn(
    'apoc.date.convert(time :: INTEGER, unit :: STRING, toUnit :: STRING) :: INTEGER',
    'Converts the given timestamp from one time unit into a timestamp of a different time unit.',
    ([time, unit, to]) => (time === null ? null : BigInt(Math.trunc((Number(time) * unitMs(unit!)) / unitMs(to!)))),
  ),
  fn('apoc.date.currentTimestamp() :: INTEGER', 'Returns the current Unix epoch timestamp in milliseconds.', () => BigInt(Date.now()), {
    deterministic: false,
  }),
  fn(
    "apoc.date.field(time :: INTEGER, unit = 'd' :: STRING, timezone = 'UTC' :: STRING) :: INTEGER",
    'Returns the value of one field from the given date time.',
    ([time, unit, tz]) => (time === null ? null : fieldValue(fieldsOfMillis(Number(time), tz!), valueText(unit))),
  ),
  fn(
    `apoc.date.fields(date :: STRING, pattern = ${DEFAULT_PATTERN} :: STRING) :: MAP`,
    'Splits the given date into fields returning a `MAP` containing the values of each field.',
    ([date, pattern]) => {
      if (date === null) return null;
      const f = parseJava(valueText(pattern), valueText(date));
      const out = mapOf({
        weekdays: BigInt(dayOfWeek(epochDayOf(f.year, f.month, f.day))),
        years: BigInt(f.year),
        seconds: BigInt(f.second),
        minutes: BigInt(f.minute),
        hours: BigInt(f.hour),
        months: BigInt(f.month),
        days: BigInt(f.day),
      });
      const zone = f.zoneId ?? (f.offsetSeconds === null ? null : f.offsetSeconds === 0 ? 'Z' : formatJava('XXX', f));
      return zone === null ? out : new Map([...out, ['zoneid', zone]]);
    },
  ),
  fn(
    'apoc.date.fromISO8601(time :: STRING) :: INTEGER',
    'Converts the given date `STRING` (ISO8601) to an `INTEGER` representing the time value in milliseconds.',
    ([time]) => (time === null ? null : BigInt(millisOf(parseJava('iso_date_time', valueText(time)), 'UTC'))),
  ),
  fn(
    "apoc.date.toISO8601(time :: INTEGER, unit = 'ms' :: STRING) :: STRING",
    'Returns a `STRING` representation of a specified time value in the ISO8601 format.',
    ([time, unit]) =>
      time === null ? null : formatJava("yyyy-MM-dd'T'HH:mm:ss.SSS'Z'", fieldsOfMillis(Number(time) * unitMs(unit!), 'UTC')),
  ),
  fn(
    'apoc.date.systemTimezone() :: STRING',
    'Returns the display name of the system time zone (e.g. Europe/London).',
    (_args, ctx) => ctx.defaultTimeZone,
  ),
  fn(
    `apoc.date.toYears(value :: ANY, format = ${DEFAULT_PATTERN} :: STRING) :: FLOAT`,
    'Converts the given timestamp or the given date into a `FLOAT` representing years.',
    ([value, format]) => {
      if (value === null) return null;
      const ms = typeof value === 'string' ? millisOf(parseJava(valueText(format), value), 'UTC') : Number(value);
      return ms / (365 * 86_400_000);
    },
  ),
  fn(
    "apoc.temporal.format(temporal :: ANY, format = 'yyyy-MM-dd' :: STRING) :: STRING",
    'Formats the given temporal value into the given time format.',
    ([temporal, format]) => {
      if (temporal === null) return null;
      if (temporal instanceof CypherDuration) return formatJava(valueText(format), durationFields(temporal));
      return formatJava(valueText(format), temporalFields(temporal!));
    },
  ),
  fn(
    'apoc.temporal.formatDuration(input :: ANY, format :: STRING) :: STRING',
    'Returns the given duration in the given format.',
    ([input, format]) => {
      if (input === null) return null;
      if (!(input instanceof CypherDuration)) throw illegalArgument('It is only possible to format DURATION values');
      return formatJava(valueText(format), durationFields(input));
    },
  ),
  fn(
    "apoc.temporal.toZonedTemporal(time :: STRING, format = 'yyyy-MM-dd HH:mm:ss' :: STRING, timezone = 'UTC' :: STRING) :: ZONED DATETIME",
    'Parses the given date `STRING` using the specified format into the given time zone.',
    ([time, format, tz]) => {
      if (time === null || time === '') return null;
      return toZoned(parseJava(valueText(format), valueText(time)), valueText(tz ?? 'UTC'));
    },
  ),
];
