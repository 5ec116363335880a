/**
 * Temporal ± duration, following java.time/Neo4j: months then days are added to the date part
 * (days clamped to month ends), then seconds and nanoseconds to the time. Types without a date
 * ignore months and days; DATE keeps only whole days of the seconds part.
 */
import { CypherDate, CypherTime, LocalDateTime, LocalTime, type CypherDuration } from '../types.js';
import type { TemporalInstant } from '../kinds.js';
import { daySplit, floorDiv, floorMod, floorModBig, NANOS_PER_DAY, NANOS_PER_SECOND, plusMonths, secondsOfDay } from './calendar.js';
import { negateDuration } from './duration.js';
import { dateTimeFromInstant, dateTimeFromLocal, localSecondOf, zoneOf } from './zoned.js';

function shiftNanoOfDay(nanoOfDay: number, d: CypherDuration): number {
  const delta = Number(floorModBig(d.seconds, 86_400n)) * NANOS_PER_SECOND + d.nanoseconds;
  return floorMod(nanoOfDay + delta, NANOS_PER_DAY);
}

/** Local seconds + nanos shifted by whole months and days (calendar), then by the time part. */
function shiftLocal(localSecond: bigint, nano: number, d: CypherDuration): { epochSecond: bigint; nano: number } {
  const { epochDay, secondOfDay } = daySplit(localSecond);
  const newDay = plusMonths(epochDay, d.months) + d.days;
  return shiftSeconds(secondsOfDay(newDay, secondOfDay), nano, d);
}

/** Seconds + nanos moved by the seconds and nanoseconds of a duration. */
function shiftSeconds(epochSecond: bigint, nano: number, d: CypherDuration): { epochSecond: bigint; nano: number } {
  const totalNanos = nano + d.nanoseconds;
  const carry = floorDiv(totalNanos, NANOS_PER_SECOND);
  return { epochSecond: epochSecond + d.seconds + BigInt(carry), nano: totalNanos - carry * NANOS_PER_SECOND };
}

/** temporal + duration. */
export function addDurationToTemporal(t: TemporalInstant, d: CypherDuration): TemporalInstant {
  if (t instanceof CypherDate) {
    const secondsTowardZero = d.seconds < 0n && d.nanoseconds > 0 ? d.seconds + 1n : d.seconds;
    const wholeDays = Number(secondsTowardZero / 86_400n);
    return new CypherDate(plusMonths(t.epochDay, d.months) + d.days + wholeDays);
  }
  if (t instanceof LocalTime) return new LocalTime(shiftNanoOfDay(t.nanoOfDay, d));
  if (t instanceof CypherTime) return new CypherTime(shiftNanoOfDay(t.nanoOfDay, d), t.offsetSeconds);
  if (t instanceof LocalDateTime) {
    const shifted = shiftLocal(t.epochSecond, t.nano, d);
    return new LocalDateTime(shifted.epochSecond, shifted.nano);
  }
  const zone = zoneOf(t);
  const local = localSecondOf(t);
  const { epochDay, secondOfDay } = daySplit(local);
  const newDay = plusMonths(epochDay, d.months) + d.days;
  const afterDate = newDay === epochDay ? t : dateTimeFromLocal(secondsOfDay(newDay, secondOfDay), t.nano, zone);
  const shifted = shiftSeconds(afterDate.epochSecond, afterDate.nano, d);
  return dateTimeFromInstant(shifted.epochSecond, shifted.nano, zone);
}

/** temporal - duration. */
export function subtractDurationFromTemporal(t: TemporalInstant, d: CypherDuration): TemporalInstant {
  return addDurationToTemporal(t, negateDuration(d));
}
