/**
 * Parsing of ISO-8601 temporal and duration strings in every form Neo4j accepts:
 * calendar (`2015-07-21`, `20150721`, `2015-07`, `2015`), week (`2015-W30-2`, `2015W302`,
 * `2015-W30`), ordinal (`2015-202`, `2015202`) dates with optional sign and long years;
 * times `21:40:32.142`, `214032.142`, `21:40`, `21` with `.`/`,` fractions; offsets `Z`,
 * `+01`, `+0100`, `+01:00`; named zones `[Europe/Stockholm]`; durations `P1Y2M3W4DT5H6M7.8S`
 * (signed and fractional components) and `P2012-02-02T14:37:21.545`.
 * Parsers return plain parts; the constructors build values and validate ranges.
 */
import { ArgumentError } from '../../errors/index.js';
import { parseOffset } from './time-zone.js';

/** Date fields as written; exactly one of the three shapes is set. */
export type DateParts =
  | { readonly kind: 'calendar'; readonly year: number; readonly month: number; readonly day: number }
  | { readonly kind: 'week'; readonly year: number; readonly week: number; readonly dayOfWeek: number }
  | { readonly kind: 'ordinal'; readonly year: number; readonly ordinalDay: number };

/** Time fields as written. */
export interface TimeParts {
  readonly hour: number;
  readonly minute: number;
  readonly second: number;
  readonly nano: number;
}

/** A zone as written: an offset in seconds and/or a zone name. */
export interface ZoneParts {
  readonly offsetSeconds: number | null;
  readonly zoneId: string | null;
}

function invalid(kind: string, text: string): ArgumentError {
  return new ArgumentError(`Text cannot be parsed to a ${kind}\n"${text}"`, { detail: 'InvalidArgumentValue' });
}

const DATE_PATTERNS: readonly [RegExp, (m: RegExpExecArray) => DateParts][] = [
  [/^([+-]?\d{4,9})-(\d{2})-(\d{2})$/, (m) => ({ kind: 'calendar', year: +m[1]!, month: +m[2]!, day: +m[3]! })],
  [/^([+-]?\d{4})(\d{2})(\d{2})$/, (m) => ({ kind: 'calendar', year: +m[1]!, month: +m[2]!, day: +m[3]! })],
  [/^([+-]?\d{4,9})-W(\d{2})(?:-(\d))?$/, (m) => ({ kind: 'week', year: +m[1]!, week: +m[2]!, dayOfWeek: +(m[3] ?? 1) })],
  [/^([+-]?\d{4})W(\d{2})(\d)?$/, (m) => ({ kind: 'week', year: +m[1]!, week: +m[2]!, dayOfWeek: +(m[3] ?? 1) })],
  [/^([+-]?\d{4,9})-(\d{3})$/, (m) => ({ kind: 'ordinal', year: +m[1]!, ordinalDay: +m[2]! })],
  [/^([+-]?\d{4})(\d{3})$/, (m) => ({ kind: 'ordinal', year: +m[1]!, ordinalDay: +m[2]! })],
  [/^([+-]?\d{4,9})-(\d{2})$/, (m) => ({ kind: 'calendar', year: +m[1]!, month: +m[2]!, day: 1 })],
  [/^([+-]?\d{4})(\d{2})$/, (m) => ({ kind: 'calendar', year: +m[1]!, month: +m[2]!, day: 1 })],
  [/^([+-]?\d{4,9})$/, (m) => ({ kind: 'calendar', year: +m[1]!, month: 1, day: 1 })],
];

/** Parses a date string. */
export function parseDateText(text: string): DateParts {
  for (const [pattern, build] of DATE_PATTERNS) {
    const m = pattern.exec(text);
    if (m !== null) return build(m);
  }
  throw invalid('date', text);
}

const TIME_PATTERN = /^(\d{2})(?::(\d{2})(?::(\d{2})(?:[.,](\d{1,9}))?)?)?$/;
const BASIC_TIME_PATTERN = /^(\d{2})(?:(\d{2})(?:(\d{2})(?:[.,](\d{1,9}))?)?)?$/;

/** Parses a time string without offset. */
export function parseTimeText(text: string): TimeParts {
  const m = TIME_PATTERN.exec(text) ?? BASIC_TIME_PATTERN.exec(text);
  if (m === null) throw invalid('time', text);
  return {
    hour: +m[1]!,
    minute: +(m[2] ?? 0),
    second: +(m[3] ?? 0),
    nano: m[4] === undefined ? 0 : +m[4].padEnd(9, '0'),
  };
}

/** Splits `12:00+01:00[Europe/Stockholm]` (a time, never a date) into the time text and its zone. */
export function splitZone(text: string): { rest: string; zone: ZoneParts | null } {
  let rest = text;
  let zoneId: string | null = null;
  const bracket = /\[([^\]]+)\]$/.exec(rest);
  if (bracket !== null) {
    zoneId = bracket[1]!;
    rest = rest.slice(0, bracket.index);
  }
  let offsetSeconds: number | null = null;
  const at = rest.search(/[+\-Zz]/);
  if (at >= 0) {
    offsetSeconds = parseOffset(rest.slice(at));
    if (offsetSeconds === null) throw invalid('time zone offset', text);
    rest = rest.slice(0, at);
  }
  if (zoneId === null && offsetSeconds === null) return { rest, zone: null };
  return { rest, zone: { offsetSeconds, zoneId } };
}

/** Parses a time with optional offset: `21:40:32.142+0100`. */
export function parseZonedTimeText(text: string): { time: TimeParts; zone: ZoneParts | null } {
  const { rest, zone } = splitZone(text);
  return { time: parseTimeText(rest), zone };
}

/** Parses a date-time with optional time, offset and zone. */
export function parseDateTimeText(text: string): { date: DateParts; time: TimeParts; zone: ZoneParts | null } {
  const t = text.indexOf('T');
  if (t < 0) {
    const bracket = /\[([^\]]+)\]$/.exec(text);
    const dateText = bracket === null ? text : text.slice(0, bracket.index);
    const zone = bracket === null ? null : { offsetSeconds: null, zoneId: bracket[1]! };
    return { date: parseDateText(dateText), time: { hour: 0, minute: 0, second: 0, nano: 0 }, zone };
  }
  const { time, zone } = parseZonedTimeText(text.slice(t + 1));
  return { date: parseDateText(text.slice(0, t)), time, zone };
}

/** Duration components as written (possibly fractional). */
export interface DurationParts {
  readonly months: number;
  readonly days: number;
  readonly seconds: number;
  readonly nanos: number;
  /** The seconds exactly, when hours, minutes and seconds are all whole numbers; else null. */
  readonly wholeSeconds: bigint | null;
}

const DURATION_PATTERN =
  /^([+-])?P(?:([+-]?\d+(?:[.,]\d+)?)Y)?(?:([+-]?\d+(?:[.,]\d+)?)M)?(?:([+-]?\d+(?:[.,]\d+)?)W)?(?:([+-]?\d+(?:[.,]\d+)?)D)?(?:T(?:([+-]?\d+(?:[.,]\d+)?)H)?(?:([+-]?\d+(?:[.,]\d+)?)M)?(?:([+-]?\d+)(?:[.,](\d{1,9}))?S)?)?$/i;
const ALT_DURATION_PATTERN = /^([+-])?P(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(?:[.,](\d{1,9}))?$/;

const num = (s: string | undefined): number => (s === undefined ? 0 : Number(s.replace(',', '.')));
const whole = (s: string | undefined): bigint | null => (s === undefined ? 0n : /^[+-]?\d+$/.test(s) ? BigInt(s) : null);

/** sign * (hours * 3600 + minutes * 60 + seconds) exactly, or null when one is fractional. */
function exactSeconds(sign: number, hours?: string, minutes?: string, seconds?: string): bigint | null {
  const [h, m, sec] = [whole(hours), whole(minutes), whole(seconds)];
  if (h === null || m === null || sec === null) return null;
  return BigInt(sign) * (h * 3600n + m * 60n + sec);
}

/** Parses an ISO-8601 duration. */
export function parseDurationText(text: string): DurationParts {
  const alt = ALT_DURATION_PATTERN.exec(text);
  if (alt !== null) {
    const sign = alt[1] === '-' ? -1 : 1;
    return {
      months: sign * (num(alt[2]) * 12 + num(alt[3])),
      days: sign * num(alt[4]),
      seconds: sign * (num(alt[5]) * 3600 + num(alt[6]) * 60 + num(alt[7])),
      nanos: sign * (alt[8] === undefined ? 0 : +alt[8].padEnd(9, '0')),
      wholeSeconds: exactSeconds(sign, alt[5], alt[6], alt[7]),
    };
  }
  const m = DURATION_PATTERN.exec(text);
  if (m === null || /^[+-]?PT?$/i.test(text) || /T$/i.test(text)) {
    throw new ArgumentError(`Text cannot be parsed to a Duration\n"${text}"`, { detail: 'InvalidArgumentValue' });
  }
  const sign = m[1] === '-' ? -1 : 1;
  const secondsText = m[8];
  const secondsSign = secondsText !== undefined && secondsText.startsWith('-') ? -1 : 1;
  const fraction = m[9] === undefined ? 0 : +m[9].padEnd(9, '0');
  return {
    months: sign * (num(m[2]) * 12 + num(m[3])),
    days: sign * (num(m[4]) * 7 + num(m[5])),
    seconds: sign * (num(m[6]) * 3600 + num(m[7]) * 60 + num(secondsText)),
    nanos: sign * secondsSign * fraction,
    wholeSeconds: exactSeconds(sign, m[6], m[7], secondsText),
  };
}
