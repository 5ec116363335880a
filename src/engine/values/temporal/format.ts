/**
 * ISO-8601 text of temporal values in Neo4j's (java.time's) exact format:
 * `1984-10-11`, `12:31` (seconds omitted when zero), fractions in groups of 3, 6 or 9 digits,
 * offsets `Z` / `+01:00` / `+02:05:59`, named zones in brackets, years past 9999 with `+`.
 */
import { CypherDate, CypherDateTime, CypherTime, LocalDateTime, LocalTime } from '../types.js';
import { civilOf, daySplit, NANOS_PER_HOUR, NANOS_PER_MINUTE, NANOS_PER_SECOND } from './calendar.js';
import { formatOffset } from './time-zone.js';

function pad(n: number, width: number): string {
  return String(n).padStart(width, '0');
}

/** `yyyy-MM-dd` of an epoch day. */
export function formatEpochDay(epochDay: number): string {
  const { year, month, day } = civilOf(epochDay);
  let yearText: string;
  if (Math.abs(year) < 10000) {
    yearText = year < 0 ? '-' + pad(-year, 4) : pad(year, 4);
  } else {
    yearText = (year < 0 ? '-' : '+') + String(Math.abs(year));
  }
  return `${yearText}-${pad(month, 2)}-${pad(day, 2)}`;
}

/** `HH:mm[:ss[.fff[fff[fff]]]]` of nanoseconds since midnight. */
export function formatNanoOfDay(nanoOfDay: number): string {
  const hour = Math.floor(nanoOfDay / NANOS_PER_HOUR);
  const minute = Math.floor((nanoOfDay % NANOS_PER_HOUR) / NANOS_PER_MINUTE);
  const second = Math.floor((nanoOfDay % NANOS_PER_MINUTE) / NANOS_PER_SECOND);
  const nano = nanoOfDay % NANOS_PER_SECOND;
  let text = `${pad(hour, 2)}:${pad(minute, 2)}`;
  if (second === 0 && nano === 0) return text;
  text += `:${pad(second, 2)}`;
  if (nano === 0) return text;
  if (nano % 1_000_000 === 0) return `${text}.${pad(nano / 1_000_000, 3)}`;
  if (nano % 1000 === 0) return `${text}.${pad(nano / 1000, 6)}`;
  return `${text}.${pad(nano, 9)}`;
}

/** Splits local epoch seconds + nanos into epoch day and nanoseconds of day. */
export function splitLocal(epochSecond: bigint, nano: number): { epochDay: number; nanoOfDay: number } {
  const { epochDay, secondOfDay } = daySplit(epochSecond);
  return { epochDay, nanoOfDay: secondOfDay * NANOS_PER_SECOND + nano };
}

/** Text of a DATE. */
export function formatDate(d: CypherDate): string {
  return formatEpochDay(d.epochDay);
}

/** Text of a LOCAL TIME. */
export function formatLocalTime(t: LocalTime): string {
  return formatNanoOfDay(t.nanoOfDay);
}

/** Text of a ZONED TIME. */
export function formatTime(t: CypherTime): string {
  return formatNanoOfDay(t.nanoOfDay) + formatOffset(t.offsetSeconds);
}

/** Text of a LOCAL DATETIME. */
export function formatLocalDateTime(dt: LocalDateTime): string {
  const { epochDay, nanoOfDay } = splitLocal(dt.epochSecond, dt.nano);
  return `${formatEpochDay(epochDay)}T${formatNanoOfDay(nanoOfDay)}`;
}

/** Text of a ZONED DATETIME: local date-time, offset, then `[Zone/Id]` when named. */
export function formatDateTime(dt: CypherDateTime): string {
  const { epochDay, nanoOfDay } = splitLocal(dt.epochSecond + BigInt(dt.offsetSeconds), dt.nano);
  const base = `${formatEpochDay(epochDay)}T${formatNanoOfDay(nanoOfDay)}${formatOffset(dt.offsetSeconds)}`;
  return dt.zoneId === null ? base : `${base}[${dt.zoneId}]`;
}
