/**
 * `duration.between`, `duration.inMonths`, `duration.inDays`, `duration.inSeconds`.
 *
 * Both operands are first placed on a common footing: a value without a date borrows the
 * other's date, a value without a zone borrows the other's zone, and when both carry zones
 * the second is viewed in the first's zone. Then, as java.time's `until`, whole months are
 * counted on the local date-times, then whole days, then the remaining exact time.
 */
import type { TemporalInstant } from '../kinds.js';
import type { CypherDuration } from '../types.js';
import { civilOf, floorDivBig, NANOS_PER_SECOND_N, plusMonths } from './calendar.js';
import { makeDuration, ZERO_DURATION } from './duration.js';
import { splitLocal } from './format.js';
import { localSecondsOf, partsOf, type TemporalParts } from './parts.js';
import { dateTimeFromInstant, dateTimeFromLocal, localSecondOf, type Zone } from './zoned.js';

/** The unit of a `duration.inX` function, or null for `between`. */
export type BetweenUnit = 'months' | 'days' | 'seconds' | null;

interface Point {
  epochDay: number;
  nanoOfDay: number;
}

/** Instant (as bigint nanoseconds) of a local point in a zone (or UTC when none). */
function instantNanos(p: Point, zone: Zone | null): bigint {
  const { localSecond, nano } = localSecondsOf(p.epochDay, p.nanoOfDay);
  const epochSecond = zone === null ? localSecond : dateTimeFromLocal(localSecond, nano, zone).epochSecond;
  return epochSecond * NANOS_PER_SECOND_N + BigInt(nano);
}

function monthsUntil(a: Point, b: Point): number {
  const ca = civilOf(a.epochDay);
  const cb = civilOf(b.epochDay);
  let endDay = b.epochDay;
  if (b.epochDay > a.epochDay && b.nanoOfDay < a.nanoOfDay) endDay -= 1;
  else if (b.epochDay < a.epochDay && b.nanoOfDay > a.nanoOfDay) endDay += 1;
  const ce = endDay === b.epochDay ? cb : civilOf(endDay);
  const packedA = (ca.year * 12 + ca.month - 1) * 32 + ca.day;
  const packedB = (ce.year * 12 + ce.month - 1) * 32 + ce.day;
  return Math.trunc((packedB - packedA) / 32);
}

function daysUntil(a: Point, b: Point): number {
  let endDay = b.epochDay;
  if (b.epochDay > a.epochDay && b.nanoOfDay < a.nanoOfDay) endDay -= 1;
  else if (b.epochDay < a.epochDay && b.nanoOfDay > a.nanoOfDay) endDay += 1;
  return endDay - a.epochDay;
}

function toPoint(p: TemporalParts, date: number): Point {
  return { epochDay: p.epochDay ?? date, nanoOfDay: p.nanoOfDay ?? 0 };
}

/** Duration from `from` to `to`, whole or in one unit. */
export function durationBetween(fromValue: TemporalInstant, toValue: TemporalInstant, unit: BetweenUnit): CypherDuration {
  const from = partsOf(fromValue);
  const to = partsOf(toValue);
  const bothDates = from.epochDay !== null && to.epochDay !== null;
  const sharedDate = from.epochDay ?? to.epochDay ?? 0;
  const zone = from.zone ?? to.zone;
  const a = toPoint(from, sharedDate);
  let b = toPoint(to, sharedDate);
  if (from.zone !== null && to.zone !== null) {
    const instant = instantNanos(
      b,
      to.offsetSeconds !== null && to.zone.kind === 'named' ? { kind: 'offset', offsetSeconds: to.offsetSeconds } : to.zone,
    );
    const seconds = floorDivBig(instant, NANOS_PER_SECOND_N);
    const dt = dateTimeFromInstant(seconds, Number(instant - seconds * NANOS_PER_SECOND_N), from.zone);
    b = splitLocal(localSecondOf(dt), dt.nano);
  }
  const fromZone: Zone | null = from.zone !== null && from.zone.kind === 'named' ? from.zone : zone;

  if (unit === 'months' || unit === 'days') {
    if (!bothDates) return ZERO_DURATION;
    return unit === 'months' ? makeDuration(monthsUntil(a, b), 0, 0n, 0) : makeDuration(0, daysUntil(a, b), 0n, 0);
  }
  let months = 0;
  let days = 0;
  let start = a;
  if (unit === null && bothDates) {
    months = monthsUntil(start, b);
    start = { epochDay: plusMonths(start.epochDay, months), nanoOfDay: start.nanoOfDay };
    days = daysUntil(start, b);
    start = { epochDay: start.epochDay + days, nanoOfDay: start.nanoOfDay };
  }
  const nanos = instantNanos(b, fromZone) - instantNanos(start, fromZone);
  const seconds = nanos / NANOS_PER_SECOND_N;
  return makeDuration(months, days, seconds, Number(nanos - seconds * NANOS_PER_SECOND_N));
}
