/**
 * Proleptic Gregorian calendar arithmetic on epoch days (days since 1970-01-01), the same
 * calendar `java.time` uses. Pure integer math; no `Date` objects, so years outside
 * JavaScript's Date range still work.
 */

/** Nanoseconds per second. */
export const NANOS_PER_SECOND = 1_000_000_000;
/** Nanoseconds per minute. */
export const NANOS_PER_MINUTE = 60 * NANOS_PER_SECOND;
/** Nanoseconds per hour. */
export const NANOS_PER_HOUR = 60 * NANOS_PER_MINUTE;
/** Nanoseconds per day (8.64e13, exact in a double). */
export const NANOS_PER_DAY = 24 * NANOS_PER_HOUR;
/** Seconds per day (no leap seconds, as java.time). */
export const SECONDS_PER_DAY = 86_400;
/** Nanoseconds per second, as a bigint. */
export const NANOS_PER_SECOND_N = 1_000_000_000n;

/** Floor division of bigints (rounds toward negative infinity). */
export function floorDivBig(a: bigint, b: bigint): bigint {
  const q = a / b;
  return a % b !== 0n && a < 0n !== b < 0n ? q - 1n : q;
}

/** Floor modulo of bigints (result has the sign of `b`). */
export function floorModBig(a: bigint, b: bigint): bigint {
  return ((a % b) + b) % b;
}

/** Seconds since the local epoch of an epoch day plus a second of the day, exactly. */
export function secondsOfDay(epochDay: number, secondOfDay: number): bigint {
  return BigInt(epochDay) * 86_400n + BigInt(secondOfDay);
}

/** Epoch day and second of day of a (local or UTC) epoch-second count. */
export function daySplit(epochSecond: bigint): { epochDay: number; secondOfDay: number } {
  const day = floorDivBig(epochSecond, 86_400n);
  return { epochDay: Number(day), secondOfDay: Number(epochSecond - day * 86_400n) };
}

/** A calendar date. `month` and `day` are 1-based. */
export interface CivilDate {
  readonly year: number;
  readonly month: number;
  readonly day: number;
}

/** Floor division for integers held in numbers. */
export function floorDiv(a: number, b: number): number {
  return Math.floor(a / b);
}

/** Floor modulo (result has the sign of `b`). */
export function floorMod(a: number, b: number): number {
  return ((a % b) + b) % b;
}

/** True for a Gregorian leap year. */
export function isLeapYear(year: number): boolean {
  return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
}

/** Number of days in `month` (1-12) of `year`. */
export function daysInMonth(year: number, month: number): number {
  if (month === 2) return isLeapYear(year) ? 29 : 28;
  return month === 4 || month === 6 || month === 9 || month === 11 ? 30 : 31;
}

/** Days since 1970-01-01 of a calendar date (Hinnant's days-from-civil algorithm). */
export function epochDayOf(year: number, month: number, day: number): number {
  const y = month <= 2 ? year - 1 : year;
  const era = floorDiv(y, 400);
  const yoe = y - era * 400;
  const mp = (month + 9) % 12;
  const doy = Math.floor((153 * mp + 2) / 5) + day - 1;
  const doe = yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy;
  return era * 146097 + doe - 719468;
}

/** Calendar date of an epoch day. */
export function civilOf(epochDay: number): CivilDate {
  const z = epochDay + 719468;
  const era = floorDiv(z, 146097);
  const doe = z - era * 146097;
  const yoe = Math.floor((doe - Math.floor(doe / 1460) + Math.floor(doe / 36524) - Math.floor(doe / 146096)) / 365);
  const doy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100));
  const mp = Math.floor((5 * doy + 2) / 153);
  const day = doy - Math.floor((153 * mp + 2) / 5) + 1;
  const month = mp < 10 ? mp + 3 : mp - 9;
  return { year: yoe + era * 400 + (month <= 2 ? 1 : 0), month, day };
}

/** ISO day of week, Monday = 1 ... Sunday = 7. */
export function dayOfWeek(epochDay: number): number {
  return floorMod(epochDay + 3, 7) + 1;
}

/** Day of year, 1-based. */
export function dayOfYear(epochDay: number): number {
  const { year } = civilOf(epochDay);
  return epochDay - epochDayOf(year, 1, 1) + 1;
}

/** Epoch day of the Monday of ISO week 1 of `weekYear`. */
export function isoWeekOneStart(weekYear: number): number {
  const jan4 = epochDayOf(weekYear, 1, 4);
  return jan4 - (dayOfWeek(jan4) - 1);
}

/** Number of ISO weeks (52 or 53) in `weekYear`. */
export function isoWeeksInYear(weekYear: number): number {
  return (isoWeekOneStart(weekYear + 1) - isoWeekOneStart(weekYear)) / 7;
}

/** ISO week-based year and week number of an epoch day. */
export function isoWeekOf(epochDay: number): { weekYear: number; week: number } {
  const { year } = civilOf(epochDay);
  let weekYear = year + 1;
  let start = isoWeekOneStart(weekYear);
  if (epochDay < start) {
    weekYear = year;
    start = isoWeekOneStart(weekYear);
    if (epochDay < start) {
      weekYear = year - 1;
      start = isoWeekOneStart(weekYear);
    }
  }
  return { weekYear, week: Math.floor((epochDay - start) / 7) + 1 };
}

/** Adds months to a date, clamping the day to the target month's length (as java.time does). */
export function plusMonths(epochDay: number, months: number): number {
  if (months === 0) return epochDay;
  const { year, month, day } = civilOf(epochDay);
  const total = year * 12 + (month - 1) + months;
  const newYear = floorDiv(total, 12);
  const newMonth = floorMod(total, 12) + 1;
  return epochDayOf(newYear, newMonth, Math.min(day, daysInMonth(newYear, newMonth)));
}

/** Quarter (1-4) of a month. */
export function quarterOf(month: number): number {
  return Math.floor((month - 1) / 3) + 1;
}
