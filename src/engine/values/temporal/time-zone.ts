/**
 * Named time zones through `Intl` (IANA tz database bundled with Node), plus UTC offsets.
 *
 * Terminology: an *instant* is seconds since the epoch in UTC; a *local* second count is the
 * same on the wall clock of a zone; `local = instant + offset`.
 */
import { ArgumentError } from '../../errors/index.js';
import { epochDayOf, SECONDS_PER_DAY } from './calendar.js';

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatterFor(zoneId: string): Intl.DateTimeFormat {
  let formatter = formatters.get(zoneId);
  if (formatter === undefined) {
    try {
      formatter = new Intl.DateTimeFormat('en-US', {
        timeZone: zoneId,
        hourCycle: 'h23',
        era: 'short',
        year: 'numeric',
        month: 'numeric',
        day: 'numeric',
        hour: 'numeric',
        minute: 'numeric',
        second: 'numeric',
      });
    } catch {
      throw new ArgumentError(`Invalid value for TimeZone: Text '${zoneId}' could not be parsed`, {
        detail: 'InvalidArgumentValue',
      });
    }
    formatters.set(zoneId, formatter);
  }
  return formatter;
}

/** True if `zoneId` names a zone known to the runtime's tz database. */
export function isKnownZone(zoneId: string): boolean {
  try {
    formatterFor(zoneId);
    return true;
  } catch {
    return false;
  }
}

const MAX_DATE_SECONDS = 8.64e12;

/** Offsets are cached per zone and 15-minute bucket of UTC time. */
const BUCKET_SECONDS = 900;
const MAX_CACHED_BUCKETS = 200_000;
const offsetCache = new Map<string, Map<number, number>>();

/**
 * UTC offset in seconds of `zoneId` at the instant `epochSecond`. `Intl` costs tens of
 * microseconds per call, so offsets are cached per 15-minute bucket whose start and end share
 * an offset (no zone changes offset twice within 15 minutes); buckets containing a transition
 * are always computed exactly.
 */
export function zoneOffsetAt(zoneId: string, epochSecond: number): number {
  const bucket = Math.floor(epochSecond / BUCKET_SECONDS);
  let zoneCache = offsetCache.get(zoneId);
  const cached = zoneCache?.get(bucket);
  if (cached !== undefined) return cached;
  const start = bucket * BUCKET_SECONDS;
  const atStart = exactOffsetAt(zoneId, start);
  const atEnd = exactOffsetAt(zoneId, start + BUCKET_SECONDS - 1);
  if (atStart !== atEnd) return exactOffsetAt(zoneId, epochSecond);
  if (zoneCache === undefined) {
    zoneCache = new Map();
    offsetCache.set(zoneId, zoneCache);
  }
  if (zoneCache.size >= MAX_CACHED_BUCKETS) zoneCache.clear();
  zoneCache.set(bucket, atStart);
  return atStart;
}

/** The offset at one instant, straight from `Intl`. */
function exactOffsetAt(zoneId: string, epochSecond: number): number {
  const clamped = Math.max(-MAX_DATE_SECONDS, Math.min(MAX_DATE_SECONDS, epochSecond));
  const parts = formatterFor(zoneId).formatToParts(new Date(clamped * 1000));
  const field = (type: string): number => Number(parts.find((p) => p.type === type)?.value ?? 0);
  const era = parts.find((p) => p.type === 'era')?.value ?? 'AD';
  const year = era === 'BC' || era === 'B' ? 1 - field('year') : field('year');
  const local =
    epochDayOf(year, field('month'), field('day')) * SECONDS_PER_DAY + field('hour') * 3600 + field('minute') * 60 + field('second');
  return local - Math.floor(clamped);
}

/**
 * Offset to use for a wall-clock time in `zoneId`, resolved as java.time does: in an overlap
 * the earlier offset wins; in a gap the time moves forward by the gap's length.
 * Returns the instant and the offset in effect there.
 */
export function resolveLocal(zoneId: string, localSecond: bigint): { epochSecond: bigint; offsetSeconds: number } {
  const local = Number(localSecond);
  const before = zoneOffsetAt(zoneId, local - SECONDS_PER_DAY);
  const after = zoneOffsetAt(zoneId, local + SECONDS_PER_DAY);
  for (const candidate of [before, after]) {
    if (zoneOffsetAt(zoneId, local - candidate) === candidate) {
      return { epochSecond: localSecond - BigInt(candidate), offsetSeconds: candidate };
    }
  }
  const epochSecond = localSecond - BigInt(before);
  return { epochSecond, offsetSeconds: zoneOffsetAt(zoneId, Number(epochSecond)) };
}

/** Formats an offset as `+01:00`, `-05:30`, `+00:53:28`; zero is `Z` when `zeroAsZ`. */
export function formatOffset(offsetSeconds: number, zeroAsZ = true): string {
  if (offsetSeconds === 0 && zeroAsZ) return 'Z';
  const sign = offsetSeconds < 0 ? '-' : '+';
  const abs = Math.abs(offsetSeconds);
  const h = Math.floor(abs / 3600);
  const m = Math.floor((abs % 3600) / 60);
  const s = abs % 60;
  const hm = `${sign}${String(h).padStart(2, '0')}:${String(m).padStart(2, '0')}`;
  return s === 0 ? hm : `${hm}:${String(s).padStart(2, '0')}`;
}

/** Parses `Z`, `+01`, `+0100`, `+01:00`, `-05:30:15` into seconds; null if not an offset. */
export function parseOffset(text: string): number | null {
  if (text === 'Z' || text === 'z') return 0;
  const m = /^([+-])(\d{2})(?::?(\d{2})(?::?(\d{2}))?)?$/.exec(text);
  if (m === null) return null;
  const h = Number(m[2]);
  const min = Number(m[3] ?? 0);
  const s = Number(m[4] ?? 0);
  if (h > 18 || min > 59 || s > 59) return null;
  const total = h * 3600 + min * 60 + s;
  if (total > 18 * 3600) return null;
  return m[1] === '-' ? -total : total;
}
