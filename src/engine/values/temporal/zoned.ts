/**
 * Helpers that turn wall-clock values plus a zone into ZONED DATETIME values and back.
 */
import { CypherDateTime } from '../types.js';
import { resolveLocal, zoneOffsetAt } from './time-zone.js';

/** A zone: a fixed UTC offset, or a named zone (with the offset resolved per instant). */
export type Zone = { readonly kind: 'offset'; readonly offsetSeconds: number } | { readonly kind: 'named'; readonly zoneId: string };

/** The zone a DATETIME carries. */
export function zoneOf(dt: CypherDateTime): Zone {
  return dt.zoneId === null ? { kind: 'offset', offsetSeconds: dt.offsetSeconds } : { kind: 'named', zoneId: dt.zoneId };
}

/** Builds a DATETIME from a wall-clock time in `zone`. */
export function dateTimeFromLocal(localSecond: bigint, nano: number, zone: Zone): CypherDateTime {
  if (zone.kind === 'offset') return new CypherDateTime(localSecond - BigInt(zone.offsetSeconds), nano, zone.offsetSeconds, null);
  const { epochSecond, offsetSeconds } = resolveLocal(zone.zoneId, localSecond);
  return new CypherDateTime(epochSecond, nano, offsetSeconds, zone.zoneId);
}

/** Builds a DATETIME from an instant in `zone`. */
export function dateTimeFromInstant(epochSecond: bigint, nano: number, zone: Zone): CypherDateTime {
  const offset = zone.kind === 'offset' ? zone.offsetSeconds : zoneOffsetAt(zone.zoneId, Number(epochSecond));
  return new CypherDateTime(epochSecond, nano, offset, zone.kind === 'named' ? zone.zoneId : null);
}

/** Wall-clock seconds since the local epoch of a DATETIME. */
export function localSecondOf(dt: CypherDateTime): bigint {
  return dt.epochSecond + BigInt(dt.offsetSeconds);
}
