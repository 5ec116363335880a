/**
 * Resolution of date and time fields given in a map (`{year, week, dayOfWeek}`,
 * `{hour, minute, millisecond}`, ...) against an optional base value, with range checks.
 */
import { ArgumentError } from '../../errors/index.js';
import {
  civilOf,
  dayOfWeek,
  dayOfYear,
  daysInMonth,
  epochDayOf,
  isLeapYear,
  isoWeekOf,
  isoWeekOneStart,
  isoWeeksInYear,
  NANOS_PER_HOUR,
  NANOS_PER_MINUTE,
  NANOS_PER_SECOND,
  quarterOf,
} from './calendar.js';

/** Integer fields of a temporal map (absent ones are undefined). */
export type TemporalFields = Partial<Record<TemporalFieldName, number>>;

/** Date field names of temporal maps. */
export const DATE_FIELDS = ['year', 'month', 'day', 'week', 'dayOfWeek', 'ordinalDay', 'quarter', 'dayOfQuarter'] as const;
/** Time field names of temporal maps. */
export const TIME_FIELDS = ['hour', 'minute', 'second', 'millisecond', 'microsecond', 'nanosecond'] as const;
/** Any integer field of a temporal map. */
export type TemporalFieldName = (typeof DATE_FIELDS)[number] | (typeof TIME_FIELDS)[number];

function outOfRange(field: string, value: number, min: number, max: number): ArgumentError {
  return new ArgumentError(`Invalid value for ${field} (valid values ${min} - ${max}): ${value}`, { detail: 'InvalidArgumentValue' });
}

/** Raises unless `min <= value <= max`. */
export function checkRange(field: string, value: number, min: number, max: number): number {
  if (!Number.isInteger(value) || value < min || value > max) throw outOfRange(field, value, min, max);
  return value;
}

const MAX_YEAR = 999_999_999;

/** True if any date field is present. */
export function hasDateFields(f: TemporalFields): boolean {
  return DATE_FIELDS.some((k) => f[k] !== undefined);
}

/** True if any time field is present. */
export function hasTimeFields(f: TemporalFields): boolean {
  return TIME_FIELDS.some((k) => f[k] !== undefined);
}

function firstDayOfQuarter(year: number, quarter: number): number {
  return epochDayOf(year, (quarter - 1) * 3 + 1, 1);
}

/** Epoch day from date fields, defaults taken from `baseDay` (if any), else the first unit. */
export function resolveDate(f: TemporalFields, baseDay: number | null): number {
  const base = baseDay === null ? null : civilOf(baseDay);
  if (f.year === undefined && base === null) {
    throw new ArgumentError('year must be specified', { detail: 'InvalidArgumentValue' });
  }
  if (f.week !== undefined || f.dayOfWeek !== undefined) {
    const baseWeek = baseDay === null ? null : isoWeekOf(baseDay);
    const weekYear = checkRange('year', f.year ?? baseWeek!.weekYear, -MAX_YEAR, MAX_YEAR);
    const week = checkRange('week', f.week ?? baseWeek?.week ?? 1, 1, isoWeeksInYear(weekYear));
    const dow = checkRange('dayOfWeek', f.dayOfWeek ?? (baseDay === null ? 1 : dayOfWeek(baseDay)), 1, 7);
    return isoWeekOneStart(weekYear) + (week - 1) * 7 + (dow - 1);
  }
  const year = checkRange('year', f.year ?? base!.year, -MAX_YEAR, MAX_YEAR);
  if (f.ordinalDay !== undefined) {
    return epochDayOf(year, 1, 1) + checkRange('ordinalDay', f.ordinalDay, 1, isLeapYear(year) ? 366 : 365) - 1;
  }
  if (f.quarter !== undefined || f.dayOfQuarter !== undefined) {
    const quarter = checkRange('quarter', f.quarter ?? (base === null ? 1 : quarterOf(base.month)), 1, 4);
    const baseDayOfQuarter = base === null ? 1 : baseDay! - firstDayOfQuarter(base.year, quarterOf(base.month)) + 1;
    const start = firstDayOfQuarter(year, quarter);
    const length = (quarter === 4 ? epochDayOf(year + 1, 1, 1) : firstDayOfQuarter(year, quarter + 1)) - start;
    return start + checkRange('dayOfQuarter', f.dayOfQuarter ?? baseDayOfQuarter, 1, length) - 1;
  }
  const month = checkRange('month', f.month ?? base?.month ?? 1, 1, 12);
  const day = checkRange('day', f.day ?? base?.day ?? 1, 1, daysInMonth(year, month));
  return epochDayOf(year, month, day);
}

/** Nanosecond of day from time fields, defaults from `baseNano` (if any), else zero. */
export function resolveTime(f: TemporalFields, baseNano: number | null): number {
  const base = baseNano ?? 0;
  const hour = checkRange('hour', f.hour ?? Math.floor(base / NANOS_PER_HOUR), 0, 23);
  const minute = checkRange('minute', f.minute ?? Math.floor((base % NANOS_PER_HOUR) / NANOS_PER_MINUTE), 0, 59);
  const second = checkRange('second', f.second ?? Math.floor((base % NANOS_PER_MINUTE) / NANOS_PER_SECOND), 0, 59);
  let nano = base % NANOS_PER_SECOND;
  if (f.millisecond !== undefined || f.microsecond !== undefined || f.nanosecond !== undefined) {
    // Each given field replaces its own slot; finer slots not given keep the base's digits.
    const baseSlots = baseNano === null ? [0, 0, 0] : [Math.floor(nano / 1_000_000), Math.floor(nano / 1000) % 1000, nano % 1000];
    const ms = checkRange('millisecond', f.millisecond ?? baseSlots[0]!, 0, 999);
    const coarserGiven = f.millisecond !== undefined || baseNano !== null;
    const us = checkRange('microsecond', f.microsecond ?? baseSlots[1]!, 0, coarserGiven ? 999 : 999_999);
    const nsMax = f.microsecond !== undefined || f.millisecond !== undefined ? 999 : baseNano !== null ? 999 : 999_999_999;
    const ns = checkRange('nanosecond', f.nanosecond ?? baseSlots[2]!, 0, nsMax);
    nano = ms * 1_000_000 + us * 1000 + ns;
  }
  return hour * NANOS_PER_HOUR + minute * NANOS_PER_MINUTE + second * NANOS_PER_SECOND + nano;
}

/** Epoch day of parsed date text (calendar, week or ordinal form), range-checked. */
export function epochDayOfParts(
  p:
    | { kind: 'calendar'; year: number; month: number; day: number }
    | { kind: 'week'; year: number; week: number; dayOfWeek: number }
    | { kind: 'ordinal'; year: number; ordinalDay: number },
): number {
  switch (p.kind) {
    case 'calendar':
      return resolveDate({ year: p.year, month: p.month, day: p.day }, null);
    case 'week':
      return resolveDate({ year: p.year, week: p.week, dayOfWeek: p.dayOfWeek }, null);
    case 'ordinal':
      return resolveDate({ year: p.year, ordinalDay: p.ordinalDay }, null);
  }
}

/** Date-related components of an epoch day (for property access). */
export function dateComponents(epochDay: number) {
  const { year, month, day } = civilOf(epochDay);
  const { weekYear, week } = isoWeekOf(epochDay);
  const quarter = quarterOf(month);
  return {
    year,
    month,
    day,
    quarter,
    week,
    weekYear,
    dayOfWeek: dayOfWeek(epochDay),
    ordinalDay: dayOfYear(epochDay),
    dayOfQuarter: epochDay - firstDayOfQuarter(year, quarter) + 1,
  };
}
