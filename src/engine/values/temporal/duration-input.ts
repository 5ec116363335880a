/**
 * `duration(...)` inputs: ISO-8601 text or a map of (possibly fractional) components.
 */
import { ArgumentError, CypherTypeError } from '../../errors/index.js';
import { typeName } from '../kinds.js';
import type { CypherDuration, CypherValue } from '../types.js';
import { approximateDuration, durationOfNanos } from './duration.js';
import { parseDurationText } from './parse.js';

/** Map keys of `duration({...})` and their weight in (months, days, seconds, nanoseconds). */
const UNITS: Record<string, readonly [number, number, number, number]> = {
  years: [12, 0, 0, 0],
  quarters: [3, 0, 0, 0],
  months: [1, 0, 0, 0],
  weeks: [0, 7, 0, 0],
  days: [0, 1, 0, 0],
  hours: [0, 0, 3600, 0],
  minutes: [0, 0, 60, 0],
  seconds: [0, 0, 1, 0],
  milliseconds: [0, 0, 0, 1_000_000],
  microseconds: [0, 0, 0, 1000],
  nanoseconds: [0, 0, 0, 1],
};

/** `duration({years: 1, days: 1.5, ...})`. Integer components add up exactly. */
export function durationFromMap(map: ReadonlyMap<string, CypherValue>): CypherDuration | null {
  const totals = [0, 0, 0, 0];
  const exactTotals = [0n, 0n, 0n, 0n];
  let fractional = false;
  for (const [key, value] of map) {
    const weights = UNITS[key];
    if (weights === undefined) throw new ArgumentError(`No such field: ${key}`, { detail: 'InvalidArgumentValue' });
    if (value === null) return null;
    if (typeof value !== 'bigint' && typeof value !== 'number') {
      throw new CypherTypeError(`Invalid value for ${key}: expected a number but was ${typeName(value)}`, {
        detail: 'InvalidArgumentType',
      });
    }
    const n = Number(value);
    if (typeof value === 'number' && !Number.isInteger(value)) fractional = true;
    const exact = typeof value === 'bigint' ? value : Number.isInteger(value) ? BigInt(value) : 0n;
    for (let i = 0; i < 4; i++) {
      totals[i]! += n * weights[i]!;
      exactTotals[i]! += exact * BigInt(weights[i]!);
    }
  }
  if (fractional) {
    const [months, days, seconds, nanos] = totals as [number, number, number, number];
    return approximateDuration(months, days, seconds, nanos);
  }
  const [months, days, seconds, nanos] = exactTotals as [bigint, bigint, bigint, bigint];
  return durationOfNanos(Number(months), Number(days), seconds * 1_000_000_000n + nanos);
}

/** `duration('P1Y2M...')`. */
export function durationFromString(text: string): CypherDuration {
  const p = parseDurationText(text);
  if (p.wholeSeconds !== null && Number.isInteger(p.months) && Number.isInteger(p.days)) {
    return durationOfNanos(p.months, p.days, p.wholeSeconds * 1_000_000_000n + BigInt(p.nanos));
  }
  return approximateDuration(p.months, p.days, p.seconds, p.nanos);
}
