/**
 * A common decomposition of every temporal instant type: the local date (epoch day), the local
 * time of day (nanoseconds), and the zone, each null when the type has none.
 */
import { CypherDate, CypherTime, LocalDateTime, LocalTime } from '../types.js';
import type { TemporalInstant } from '../kinds.js';
import { floorDiv, NANOS_PER_SECOND, secondsOfDay } from './calendar.js';
import { splitLocal } from './format.js';
import { zoneOf, type Zone } from './zoned.js';

/** Local date, local time and zone of a temporal value. */
export interface TemporalParts {
  readonly epochDay: number | null;
  readonly nanoOfDay: number | null;
  readonly zone: Zone | null;
  /** The UTC offset in effect (for zoned values). */
  readonly offsetSeconds: number | null;
}

/** Decomposes a temporal instant. */
export function partsOf(v: TemporalInstant): TemporalParts {
  if (v instanceof CypherDate) return { epochDay: v.epochDay, nanoOfDay: null, zone: null, offsetSeconds: null };
  if (v instanceof LocalTime) return { epochDay: null, nanoOfDay: v.nanoOfDay, zone: null, offsetSeconds: null };
  if (v instanceof CypherTime) {
    return {
      epochDay: null,
      nanoOfDay: v.nanoOfDay,
      zone: { kind: 'offset', offsetSeconds: v.offsetSeconds },
      offsetSeconds: v.offsetSeconds,
    };
  }
  if (v instanceof LocalDateTime) {
    const { epochDay, nanoOfDay } = splitLocal(v.epochSecond, v.nano);
    return { epochDay, nanoOfDay, zone: null, offsetSeconds: null };
  }
  const dt = v;
  const { epochDay, nanoOfDay } = splitLocal(dt.epochSecond + BigInt(dt.offsetSeconds), dt.nano);
  return { epochDay, nanoOfDay, zone: zoneOf(dt), offsetSeconds: dt.offsetSeconds };
}

/** Local seconds since the epoch and nano-of-second from a local date and time. */
export function localSecondsOf(epochDay: number, nanoOfDay: number): { localSecond: bigint; nano: number } {
  const secondOfDay = floorDiv(nanoOfDay, NANOS_PER_SECOND);
  return { localSecond: secondsOfDay(epochDay, secondOfDay), nano: nanoOfDay - secondOfDay * NANOS_PER_SECOND };
}
