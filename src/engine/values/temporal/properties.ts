/**
 * Component access on temporal and duration values (`d.year`, `t.timezone`,
 * `dt.epochMillis`, `dur.minutesOfHour`, ...), as Neo4j names them.
 */
import { CypherDateTime, CypherDuration, CypherPoint, CypherTime, type CypherValue } from '../types.js';
import { pointProperty } from '../point.js';
import { isTemporalInstant } from '../kinds.js';
import { NANOS_PER_HOUR, NANOS_PER_MINUTE, NANOS_PER_SECOND } from './calendar.js';
import { dateComponents } from './fields.js';
import { partsOf } from './parts.js';
import { formatOffset } from './time-zone.js';

function timeComponent(nanoOfDay: number, key: string): CypherValue | undefined {
  const nano = nanoOfDay % NANOS_PER_SECOND;
  switch (key) {
    case 'hour':
      return BigInt(Math.floor(nanoOfDay / NANOS_PER_HOUR));
    case 'minute':
      return BigInt(Math.floor((nanoOfDay % NANOS_PER_HOUR) / NANOS_PER_MINUTE));
    case 'second':
      return BigInt(Math.floor((nanoOfDay % NANOS_PER_MINUTE) / NANOS_PER_SECOND));
    case 'millisecond':
      return BigInt(Math.floor(nano / 1_000_000));
    case 'microsecond':
      return BigInt(Math.floor(nano / 1000));
    case 'nanosecond':
      return BigInt(nano);
    default:
      return undefined;
  }
}

function dateComponent(epochDay: number, key: string): CypherValue | undefined {
  const c = dateComponents(epochDay);
  switch (key) {
    case 'year':
      return BigInt(c.year);
    case 'quarter':
      return BigInt(c.quarter);
    case 'month':
      return BigInt(c.month);
    case 'week':
      return BigInt(c.week);
    case 'weekYear':
      return BigInt(c.weekYear);
    case 'day':
      return BigInt(c.day);
    case 'ordinalDay':
      return BigInt(c.ordinalDay);
    case 'weekDay':
    case 'dayOfWeek':
      return BigInt(c.dayOfWeek);
    case 'dayOfQuarter':
      return BigInt(c.dayOfQuarter);
    default:
      return undefined;
  }
}

function zoneComponent(v: CypherTime | CypherDateTime, key: string): CypherValue | undefined {
  switch (key) {
    case 'timezone':
      return v instanceof CypherDateTime && v.zoneId !== null ? v.zoneId : formatOffset(v.offsetSeconds);
    case 'offset':
      return formatOffset(v.offsetSeconds);
    case 'offsetMinutes':
      return BigInt(Math.trunc(v.offsetSeconds / 60));
    case 'offsetSeconds':
      return BigInt(v.offsetSeconds);
    default:
      return undefined;
  }
}

function durationComponent(d: CypherDuration, key: string): CypherValue | undefined {
  // As Neo4j (java.time.Duration): whole seconds rounded down, nanoseconds of second in [0, 1e9).
  const secondsPart = BigInt(d.seconds);
  const nanosOfSecond = BigInt(d.nanoseconds);
  const totalNanos = secondsPart * 1_000_000_000n + nanosOfSecond;
  const months = BigInt(d.months);
  const days = BigInt(d.days);
  switch (key) {
    case 'years':
      return months / 12n;
    case 'quarters':
      return months / 3n;
    case 'months':
      return months;
    case 'weeks':
      return days / 7n;
    case 'days':
      return days;
    case 'hours':
      return secondsPart / 3600n;
    case 'minutes':
      return secondsPart / 60n;
    case 'seconds':
      return secondsPart;
    case 'milliseconds':
      return totalNanos / 1_000_000n;
    case 'microseconds':
      return totalNanos / 1000n;
    case 'nanoseconds':
      return totalNanos;
    case 'quartersOfYear':
      return (months / 3n) % 4n;
    case 'monthsOfQuarter':
      return months % 3n;
    case 'monthsOfYear':
      return months % 12n;
    case 'daysOfWeek':
      return days % 7n;
    case 'minutesOfHour':
      return (secondsPart / 60n) % 60n;
    case 'secondsOfMinute':
      return secondsPart % 60n;
    case 'millisecondsOfSecond':
      return nanosOfSecond / 1_000_000n;
    case 'microsecondsOfSecond':
      return nanosOfSecond / 1000n;
    case 'nanosecondsOfSecond':
      return nanosOfSecond;
    default:
      return undefined;
  }
}

/**
 * The component `key` of a temporal, duration or point value; `undefined` when the value has no
 * such component (the runtime reports that as an error) or is of another type.
 */
export function temporalProperty(v: CypherValue, key: string): CypherValue | undefined {
  if (v instanceof CypherPoint) return pointProperty(v, key);
  if (v instanceof CypherDuration) return durationComponent(v, key);
  if (!isTemporalInstant(v)) return undefined;
  const p = partsOf(v);
  if (p.epochDay !== null) {
    const c = dateComponent(p.epochDay, key);
    if (c !== undefined) return c;
  }
  if (p.nanoOfDay !== null) {
    const c = timeComponent(p.nanoOfDay, key);
    if (c !== undefined) return c;
  }
  if (v instanceof CypherTime || v instanceof CypherDateTime) {
    const c = zoneComponent(v, key);
    if (c !== undefined) return c;
  }
  if (v instanceof CypherDateTime) {
    if (key === 'epochSeconds') return BigInt(v.epochSecond);
    if (key === 'epochMillis') return BigInt(v.epochSecond) * 1000n + BigInt(Math.floor(v.nano / 1_000_000));
  }
  return undefined;
}
