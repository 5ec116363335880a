import {
  CypherDate,
  CypherDateTime,
  CypherDuration,
  CypherTime,
  LocalDateTime,
  LocalTime,
  resolveLocal,
  zoneOffsetAt,
} from '../../../../engine/index.js';
import { Structure } from '../../packstream/structure.js';
import { invalidValue } from './errors.js';
import { ValueSignature } from './signatures.js';

/** Any temporal value of the engine. */
export type TemporalValue = CypherDate | LocalTime | CypherTime | LocalDateTime | CypherDateTime | CypherDuration;

const int = (value: number | bigint): bigint => (typeof value === 'bigint' ? value : BigInt(Math.trunc(value)));

/**
 * Encodes a temporal value. `utc` selects the 5.x DateTime structures (`I`/`i`, UTC seconds)
 * over the legacy 4.4 ones (`F`/`f`, local wall-clock seconds).
 */
export function temporalToStructure(value: TemporalValue, utc: boolean): Structure {
  if (value instanceof CypherDate) return new Structure(ValueSignature.Date, [int(value.epochDay)]);
  if (value instanceof LocalTime) return new Structure(ValueSignature.LocalTime, [int(value.nanoOfDay)]);
  if (value instanceof CypherTime) {
    return new Structure(ValueSignature.Time, [int(value.nanoOfDay), int(value.offsetSeconds)]);
  }
  if (value instanceof LocalDateTime) {
    return new Structure(ValueSignature.LocalDateTime, [int(value.epochSecond), int(value.nano)]);
  }
  if (value instanceof CypherDateTime) return dateTimeToStructure(value, utc);
  return new Structure(ValueSignature.Duration, [int(value.months), int(value.days), int(value.seconds), int(value.nanoseconds)]);
}

function dateTimeToStructure(value: CypherDateTime, utc: boolean): Structure {
  const seconds = utc ? value.epochSecond : value.epochSecond + BigInt(value.offsetSeconds);
  if (value.zoneId !== null) {
    const signature = utc ? ValueSignature.DateTimeZoneId : ValueSignature.LegacyDateTimeZoneId;
    return new Structure(signature, [int(seconds), int(value.nano), value.zoneId]);
  }
  const signature = utc ? ValueSignature.DateTime : ValueSignature.LegacyDateTime;
  return new Structure(signature, [int(seconds), int(value.nano), int(value.offsetSeconds)]);
}

/** True for signatures this module decodes. */
export function isTemporalSignature(signature: number): boolean {
  return TEMPORAL_FIELDS.has(signature);
}

/** Field kinds per signature: i = integer, s = string. */
const TEMPORAL_FIELDS = new Map<number, string>([
  [ValueSignature.Date, 'i'],
  [ValueSignature.LocalTime, 'i'],
  [ValueSignature.Time, 'ii'],
  [ValueSignature.LocalDateTime, 'ii'],
  [ValueSignature.DateTime, 'iii'],
  [ValueSignature.DateTimeZoneId, 'iis'],
  [ValueSignature.LegacyDateTime, 'iii'],
  [ValueSignature.LegacyDateTimeZoneId, 'iis'],
  [ValueSignature.Duration, 'iiii'],
]);

/** Decodes a temporal structure received as a parameter. */
export function temporalFromStructure(structure: Structure): TemporalValue {
  const shape = TEMPORAL_FIELDS.get(structure.signature) ?? '';
  const fields = structure.fields;
  const valid =
    fields.length === shape.length &&
    [...shape].every((kind, i) => (kind === 'i' ? typeof fields[i] === 'bigint' : typeof fields[i] === 'string'));
  if (!valid) throw invalidValue(`Invalid temporal structure ${structure.toString()}`);
  const n = (i: number): number => Number(fields[i]);
  const big = (i: number): bigint => fields[i] as bigint;
  switch (structure.signature) {
    case ValueSignature.Date:
      return new CypherDate(n(0));
    case ValueSignature.LocalTime:
      return new LocalTime(n(0));
    case ValueSignature.Time:
      return new CypherTime(n(0), n(1));
    case ValueSignature.LocalDateTime:
      return new LocalDateTime(big(0), n(1));
    case ValueSignature.DateTime:
      return new CypherDateTime(big(0), n(1), n(2), null);
    case ValueSignature.LegacyDateTime:
      return new CypherDateTime(big(0) - big(2), n(1), n(2), null);
    case ValueSignature.DateTimeZoneId: {
      const zone = fields[2] as string;
      return new CypherDateTime(big(0), n(1), zoneOffsetAt(zone, n(0)), zone);
    }
    case ValueSignature.LegacyDateTimeZoneId: {
      const zone = fields[2] as string;
      const resolved = resolveLocal(zone, big(0));
      return new CypherDateTime(resolved.epochSecond, n(1), resolved.offsetSeconds, zone);
    }
    default:
      return new CypherDuration(n(0), n(1), big(2), n(3));
  }
}
