/**
 * `date.truncate`, `localtime.truncate`, `time.truncate`, `localdatetime.truncate`,
 * `datetime.truncate`: cut a temporal down to a unit, then apply overriding fields from a map.
 * A `timezone` in the map replaces the zone keeping the local date and time.
 */
import { ArgumentError } from '../../errors/index.js';
import type { TemporalInstant } from '../kinds.js';
import { CypherTime, type CypherValue } from '../types.js';
import {
  civilOf,
  epochDayOf,
  isoWeekOf,
  isoWeekOneStart,
  dayOfWeek,
  NANOS_PER_HOUR,
  NANOS_PER_MINUTE,
  NANOS_PER_SECOND,
  quarterOf,
  floorDiv,
} from './calendar.js';
import { defaultZone, parseZone, readFields, type TemporalEnvironment, type TemporalKind } from './construct.js';
import { resolveDate, resolveTime, hasDateFields, hasTimeFields } from './fields.js';
import { localSecondsOf, partsOf } from './parts.js';
import { dateTimeFromLocal, type Zone } from './zoned.js';
import { CypherDate, LocalDateTime, LocalTime } from '../types.js';
import { valueText } from '../to-string.js';

const DATE_UNITS = ['millennium', 'century', 'decade', 'year', 'weekyear', 'quarter', 'month', 'week', 'day'];
const TIME_UNITS: Record<string, number> = {
  day: 24 * NANOS_PER_HOUR,
  hour: NANOS_PER_HOUR,
  minute: NANOS_PER_MINUTE,
  second: NANOS_PER_SECOND,
  millisecond: 1_000_000,
  microsecond: 1000,
};

function truncateDay(unit: string, epochDay: number): number {
  const { year, month } = civilOf(epochDay);
  switch (unit) {
    case 'millennium':
      return epochDayOf(floorDiv(year, 1000) * 1000, 1, 1);
    case 'century':
      return epochDayOf(floorDiv(year, 100) * 100, 1, 1);
    case 'decade':
      return epochDayOf(floorDiv(year, 10) * 10, 1, 1);
    case 'year':
      return epochDayOf(year, 1, 1);
    case 'weekyear':
      return isoWeekOneStart(isoWeekOf(epochDay).weekYear);
    case 'quarter':
      return epochDayOf(year, (quarterOf(month) - 1) * 3 + 1, 1);
    case 'month':
      return epochDayOf(year, month, 1);
    case 'week':
      return epochDay - (dayOfWeek(epochDay) - 1);
    default:
      return epochDay;
  }
}

function unsupported(unit: string, kind: TemporalKind): ArgumentError {
  return new ArgumentError(`Unit '${unit}' is not supported for truncating to ${kind}`, { detail: 'InvalidArgumentValue' });
}

/** `kind.truncate(unit, value, overrides)`. */
export function truncateTemporal(
  kind: TemporalKind,
  unitText: string,
  value: TemporalInstant,
  overrides: ReadonlyMap<string, CypherValue> | null,
  env: TemporalEnvironment,
): TemporalInstant {
  const unit = unitText.toLowerCase();
  const isDateUnit = DATE_UNITS.includes(unit);
  if (!isDateUnit && TIME_UNITS[unit] === undefined)
    throw new ArgumentError(`Unknown unit: ${unitText}`, { detail: 'InvalidArgumentValue' });
  const withDate = kind === 'date' || kind === 'localdatetime' || kind === 'datetime';
  if (kind === 'date' && !isDateUnit) throw unsupported(unitText, kind);
  if (!withDate && isDateUnit && unit !== 'day') throw unsupported(unitText, kind);

  const p = partsOf(value);
  if (withDate && p.epochDay === null) throw unsupported(unitText, kind);
  let epochDay = p.epochDay === null ? 0 : truncateDay(unit, p.epochDay);
  const nanoOfDay = p.nanoOfDay ?? 0;
  let nano = isDateUnit ? 0 : nanoOfDay - (nanoOfDay % TIME_UNITS[unit]!);

  const map = overrides ?? new Map<string, CypherValue>();
  const f = readFields(map);
  if (withDate && hasDateFields(f)) epochDay = resolveDate(f, epochDay);
  if (hasTimeFields(f)) nano = resolveTime(f, nano);
  const tz = map.get('timezone');
  const zone: Zone = tz !== undefined && tz !== null ? parseZone(valueText(tz)) : (p.zone ?? defaultZone(env));

  switch (kind) {
    case 'date':
      return new CypherDate(epochDay);
    case 'localtime':
      return new LocalTime(nano);
    case 'time': {
      const offset = zone.kind === 'offset' ? zone.offsetSeconds : (p.offsetSeconds ?? 0);
      return new CypherTime(nano, offset);
    }
    case 'localdatetime': {
      const { localSecond, nano: n } = localSecondsOf(epochDay, nano);
      return new LocalDateTime(localSecond, n);
    }
    case 'datetime': {
      const { localSecond, nano: n } = localSecondsOf(epochDay, nano);
      return dateTimeFromLocal(localSecond, n, zone);
    }
  }
}
