/**
 * Temporal ± duration, following java.time/Neo4j: months then days are added to the date part
 * (days clamped to month ends), then seconds and nanoseconds to the time. Types without a date
 * ignore months and days; DATE keeps only whole days of the seconds part.
 */
import { CypherDate, CypherTime, LocalDateTime, LocalTime, type CypherDuration } from '../types.js';
import type { TemporalInstant } from '../kinds.js';
import { floorDiv, floorMod, NANOS_PER_DAY, NANOS_PER_SECOND, plusMonths, SECONDS_PER_DAY } from './calendar.js';
import { negateDuration } from './duration.js';
import { dateTimeFromInstant, dateTimeFromLocal, localSecondOf, zoneOf } from './zoned.js';

function shiftNanoOfDay(nanoOfDay: number, d: CypherDuration): number {
  const delta = floorMod(d.seconds, SECONDS_PER_DAY) * NANOS_PER_SECOND + d.nanoseconds;
  return floorMod(nanoOfDay + delta, NANOS_PER_DAY);
}

function shiftLocal(epochSecond: number, nano: number, d: CypherDuration): { epochSecond: number; nano: number } {
  const day = floorDiv(epochSecond, SECONDS_PER_DAY);
  const secondOfDay = epochSecond - day * SECONDS_PER_DAY;
  const newDay = plusMonths(day, d.months) + d.days;
  const totalNanos = nano + d.nanoseconds;
  const carry = floorDiv(totalNanos, NANOS_PER_SECOND);
  return {
    epochSecond: newDay * SECONDS_PER_DAY + secondOfDay + d.seconds + carry,
    nano: totalNanos - carry * NANOS_PER_SECOND,
  };
}

/** temporal + duration. */
export function addDurationToTemporal(t: TemporalInstant, d: CypherDuration): TemporalInstant {
  if (t instanceof CypherDate) {
    const secondsTowardZero = d.seconds < 0 && d.nanoseconds > 0 ? d.seconds + 1 : d.seconds;
    const wholeDays = Math.trunc(secondsTowardZero / SECONDS_PER_DAY);
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
  const day = floorDiv(local, SECONDS_PER_DAY);
  const dateShifted = (plusMonths(day, d.months) + d.days - day) * SECONDS_PER_DAY;
  const afterDate = dateShifted === 0 ? t : dateTimeFromLocal(local + dateShifted, t.nano, zone);
  const totalNanos = afterDate.nano + d.nanoseconds;
  const carry = floorDiv(totalNanos, NANOS_PER_SECOND);
  return dateTimeFromInstant(afterDate.epochSecond + d.seconds + carry, totalNanos - carry * NANOS_PER_SECOND, zone);
}

/** temporal - duration. */
export function subtractDurationFromTemporal(t: TemporalInstant, d: CypherDuration): TemporalInstant {
  return addDurationToTemporal(t, negateDuration(d));
}
