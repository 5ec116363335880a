/**
 * DURATION construction, normalization, arithmetic and ISO-8601 formatting.
 *
 * A duration keeps months, days, seconds and nanoseconds apart (a month is not a fixed number
 * of days, nor a day a fixed number of seconds across DST). Invariant kept by `makeDuration`:
 * `0 <= nanoseconds < 1e9`, the seconds absorbing the carry. Fractional inputs cascade down
 * as Neo4j does: a fraction of a month becomes days at 30.436875 days per month, a fraction of a
 * day becomes seconds, a fraction of a second nanoseconds.
 */
import { ArithmeticError } from '../../errors/index.js';
import { CypherDuration } from '../types.js';
import { floorDivBig, NANOS_PER_SECOND, NANOS_PER_SECOND_N, SECONDS_PER_DAY } from './calendar.js';

/** Average days per month (365.2425 / 12), as java.time and Neo4j use. */
export const AVG_DAYS_PER_MONTH = 30.436875;
/** Average seconds per month. */
export const AVG_SECONDS_PER_MONTH = 2_629_746;

/** Builds a duration with nanoseconds carried into seconds. */
export function makeDuration(months: number, days: number, seconds: bigint, nanoseconds: number): CypherDuration {
  const carry = Math.floor(nanoseconds / NANOS_PER_SECOND);
  const nanos = nanoseconds - carry * NANOS_PER_SECOND;
  return new CypherDuration(months + 0, days + 0, seconds + BigInt(carry), nanos + 0);
}

/** Builds a duration whose time part is given as exact total nanoseconds. */
export function durationOfNanos(months: number, days: number, totalNanos: bigint): CypherDuration {
  const seconds = floorDivBig(totalNanos, NANOS_PER_SECOND_N);
  return new CypherDuration(months + 0, days + 0, seconds, Number(totalNanos - seconds * NANOS_PER_SECOND_N));
}

/** The zero duration. */
export const ZERO_DURATION = makeDuration(0, 0, 0n, 0);

/**
 * Builds a duration from possibly fractional parts, cascading fractions downwards
 * (Neo4j `DurationValue.approximate`).
 */
export function approximateDuration(months: number, days: number, seconds: number, nanos: number): CypherDuration {
  const wholeMonths = Math.trunc(months);
  days += (months - wholeMonths) * AVG_DAYS_PER_MONTH;
  const wholeDays = Math.trunc(days);
  seconds += (days - wholeDays) * SECONDS_PER_DAY;
  const wholeSeconds = Math.trunc(seconds);
  nanos += (seconds - wholeSeconds) * NANOS_PER_SECOND;
  const nearest = Math.round(nanos);
  const wholeNanos = Math.abs(nanos - nearest) < 1e-4 ? nearest : Math.trunc(nanos);
  return makeDuration(wholeMonths, wholeDays, BigInt(wholeSeconds), wholeNanos);
}

/** Total nanoseconds of the seconds and nanoseconds parts, exactly. */
export function secondsPartAsNanos(d: CypherDuration): bigint {
  return d.seconds * NANOS_PER_SECOND_N + BigInt(d.nanoseconds);
}

/** d1 + d2, component-wise. */
export function addDurations(a: CypherDuration, b: CypherDuration): CypherDuration {
  return makeDuration(a.months + b.months, a.days + b.days, a.seconds + b.seconds, a.nanoseconds + b.nanoseconds);
}

/** -d. */
export function negateDuration(d: CypherDuration): CypherDuration {
  return makeDuration(-d.months, -d.days, -d.seconds, -d.nanoseconds);
}

/** d1 - d2, component-wise. */
export function subtractDurations(a: CypherDuration, b: CypherDuration): CypherDuration {
  return addDurations(a, negateDuration(b));
}

/** d * factor; integer factors are exact, float factors cascade fractions. */
export function multiplyDuration(d: CypherDuration, factor: bigint | number): CypherDuration {
  if (typeof factor === 'bigint') {
    const f = Number(factor);
    return durationOfNanos(d.months * f, d.days * f, secondsPartAsNanos(d) * factor);
  }
  return approximateDuration(d.months * factor, d.days * factor, Number(d.seconds) * factor, d.nanoseconds * factor);
}

/** d / divisor, cascading fractions; dividing by zero is an ArithmeticError. */
export function divideDuration(d: CypherDuration, divisor: bigint | number): CypherDuration {
  const f = Number(divisor);
  if (f === 0) throw new ArithmeticError('/ by zero');
  return approximateDuration(d.months / f, d.days / f, Number(d.seconds) / f, d.nanoseconds / f);
}

function component(value: number | bigint, unit: string): string {
  return value === 0 || value === 0n ? '' : `${value}${unit}`;
}

/** ISO-8601 text as Neo4j prints it: `P1Y2M3DT4H5M6.7S`, each component carrying its sign. */
export function formatDuration(d: CypherDuration): string {
  const years = Math.trunc(d.months / 12);
  const months = d.months % 12;
  let text = 'P' + component(years, 'Y') + component(months, 'M') + component(d.days, 'D');
  const total = secondsPartAsNanos(d);
  if (total !== 0n) {
    const negative = total < 0n;
    const abs = negative ? -total : total;
    const sign = negative ? '-' : '';
    const hours = abs / 3_600_000_000_000n;
    const minutes = (abs / 60_000_000_000n) % 60n;
    const seconds = (abs / 1_000_000_000n) % 60n;
    const nanos = abs % 1_000_000_000n;
    text += 'T';
    if (hours !== 0n) text += `${sign}${hours}H`;
    if (minutes !== 0n) text += `${sign}${minutes}M`;
    if (seconds !== 0n || nanos !== 0n) {
      const fraction = nanos === 0n ? '' : '.' + nanos.toString().padStart(9, '0').replace(/0+$/, '');
      text += `${sign}${seconds}${fraction}S`;
    }
  }
  return text === 'P' ? 'PT0S' : text;
}

/** Approximate length in seconds, used only to order durations. */
export function approximateSeconds(d: CypherDuration): number {
  return d.months * AVG_SECONDS_PER_MONTH + d.days * SECONDS_PER_DAY + Number(d.seconds) + d.nanoseconds / NANOS_PER_SECOND;
}
