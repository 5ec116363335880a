/**
 * java.time's DateTimeFormatter patterns as APOC's date functions use them: formatting and
 * parsing with pattern letters (`yyyy-MM-dd'T'HH:mm:ss.SSSXXX`, `EEE, d MMM yyyy`), and the
 * named formatters (`iso_date_time`, `iso_offset_date_time`, `iso_zoned_date_time`,
 * `iso_instant`, `basic_iso_date`, `rfc_1123_date_time`, ...).
 */
import { civilOf, dayOfWeek, dayOfYear, epochDayOf, floorDiv, floorMod, SECONDS_PER_DAY } from '../../../values/temporal/calendar.js';
import { formatOffset, isKnownZone, parseOffset, resolveLocal, zoneOffsetAt } from '../../../values/temporal/time-zone.js';
import { illegalArgument } from './define.js';

/** A point in time broken into local fields, with its offset and zone when known. */
export interface DateTimeFields {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
  nano: number;
  offsetSeconds: number | null;
  zoneId: string | null;
}

const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];
const DAYS = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'];

const NAMED: Record<string, string> = {
  basic_iso_date: 'yyyyMMdd',
  iso_local_date: 'yyyy-MM-dd',
  iso_date: 'ISO_DATE',
  iso_local_time: 'ISO_LOCAL_TIME',
  iso_time: 'ISO_TIME',
  iso_offset_time: 'ISO_OFFSET_TIME',
  iso_local_date_time: 'ISO_LOCAL_DATE_TIME',
  iso_offset_date_time: 'ISO_OFFSET_DATE_TIME',
  iso_zoned_date_time: 'ISO_ZONED_DATE_TIME',
  iso_date_time: 'ISO_DATE_TIME',
  iso_instant: 'ISO_INSTANT',
  iso_ordinal_date: 'yyyy-DDD',
  rfc_1123_date_time: "EEE, d MMM yyyy HH:mm:ss 'GMT'",
  date: 'yyyy-MM-dd',
  basic_date: 'yyyyMMdd',
  date_time: 'ISO_OFFSET_DATE_TIME',
  date_hour: "yyyy-MM-dd'T'HH",
  date_hour_minute: "yyyy-MM-dd'T'HH:mm",
  date_hour_minute_second: "yyyy-MM-dd'T'HH:mm:ss",
  date_hour_minute_second_millis: "yyyy-MM-dd'T'HH:mm:ss.SSS",
  date_hour_minute_second_fraction: "yyyy-MM-dd'T'HH:mm:ss.SSS",
  hour_minute: 'HH:mm',
  hour_minute_second: 'HH:mm:ss',
  year_month: 'yyyy-MM',
  year_month_day: 'yyyy-MM-dd',
  year: 'yyyy',
  time: 'ISO_TIME',
};

/** The pattern of a named formatter (case-insensitive), or the text itself. */
export function resolvePattern(format: string): string {
  return NAMED[format.toLowerCase()] ?? format;
}

/** Fields of an instant in a zone (or a fixed offset). */
export function fieldsAt(epochSecond: number, nano: number, zone: string | null, fixedOffset: number | null = null): DateTimeFields {
  const offset = fixedOffset ?? (zone === null ? 0 : zoneOffsetAt(zone, epochSecond));
  const local = epochSecond + offset;
  const civil = civilOf(floorDiv(local, SECONDS_PER_DAY));
  const sod = floorMod(local, SECONDS_PER_DAY);
  return {
    year: civil.year,
    month: civil.month,
    day: civil.day,
    hour: Math.floor(sod / 3600),
    minute: Math.floor((sod % 3600) / 60),
    second: sod % 60,
    nano,
    offsetSeconds: offset,
    zoneId: zone,
  };
}

/** The instant of fields (their offset, else their zone, else `defaultZone`). */
export function epochSecondOf(f: DateTimeFields, defaultZone: string): number {
  const local = epochDayOf(f.year, f.month, f.day) * SECONDS_PER_DAY + f.hour * 3600 + f.minute * 60 + f.second;
  if (f.offsetSeconds !== null) return local - f.offsetSeconds;
  const zone = f.zoneId ?? defaultZone;
  return Number(resolveLocal(zone, BigInt(local)).epochSecond);
}

/** A zone argument (`UTC`, `Europe/Berlin`, `+02:00`): named zone or fixed offset. */
export function zoneArg(text: string | null | undefined): { zone: string | null; offset: number | null } {
  if (text === null || text === undefined || text === '') return { zone: 'UTC', offset: null };
  const offset = parseOffset(text);
  if (offset !== null) return { zone: null, offset };
  if (!isKnownZone(text)) throw illegalArgument(`Unknown time-zone ID: ${text}`);
  return { zone: text, offset: null };
}

function pad(n: number, width: number): string {
  const s = String(Math.abs(n)).padStart(width, '0');
  return n < 0 ? `-${s}` : s;
}

function fraction(nano: number): string {
  if (nano === 0) return '';
  return `.${String(nano).padStart(9, '0').replace(/0+$/, '')}`;
}

function isoTime(f: DateTimeFields): string {
  return `${pad(f.hour, 2)}:${pad(f.minute, 2)}:${pad(f.second, 2)}${fraction(f.nano)}`;
}

function isoDate(f: DateTimeFields): string {
  return `${pad(f.year, 4)}-${pad(f.month, 2)}-${pad(f.day, 2)}`;
}

function needOffset(f: DateTimeFields): number {
  if (f.offsetSeconds === null) throw illegalArgument('Unsupported field: OffsetSeconds');
  return f.offsetSeconds;
}

function formatIso(name: string, f: DateTimeFields): string {
  switch (name) {
    case 'ISO_DATE':
      return isoDate(f) + (f.offsetSeconds === null ? '' : formatOffset(f.offsetSeconds));
    case 'ISO_LOCAL_TIME':
      return isoTime(f);
    case 'ISO_TIME':
      return isoTime(f) + (f.offsetSeconds === null ? '' : formatOffset(f.offsetSeconds));
    case 'ISO_OFFSET_TIME':
      return isoTime(f) + formatOffset(needOffset(f));
    case 'ISO_LOCAL_DATE_TIME':
      return `${isoDate(f)}T${isoTime(f)}`;
    case 'ISO_OFFSET_DATE_TIME':
      return `${isoDate(f)}T${isoTime(f)}${formatOffset(needOffset(f))}`;
    case 'ISO_ZONED_DATE_TIME':
      return `${isoDate(f)}T${isoTime(f)}${formatOffset(needOffset(f))}${f.zoneId !== null && f.zoneId !== 'UTC' && parseOffset(f.zoneId) === null ? `[${f.zoneId}]` : ''}`;
    case 'ISO_DATE_TIME':
      return `${isoDate(f)}T${isoTime(f)}${f.offsetSeconds === null ? '' : formatOffset(f.offsetSeconds)}${f.zoneId !== null && f.zoneId !== 'UTC' && parseOffset(f.zoneId) === null ? `[${f.zoneId}]` : ''}`;
    case 'ISO_INSTANT': {
      const utc = fieldsAt(epochSecondOf(f, 'UTC'), f.nano, null, 0);
      return `${isoDate(utc)}T${isoTime(utc)}Z`;
    }
    default:
      return '';
  }
}

type Token = { kind: 'letter'; letter: string; count: number } | { kind: 'text'; text: string };

function tokenize(pattern: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < pattern.length) {
    const ch = pattern[i]!;
    if (ch === "'") {
      const end = pattern.indexOf("'", i + 1);
      const text = end < 0 ? pattern.slice(i + 1) : pattern.slice(i + 1, end);
      tokens.push({ kind: 'text', text: text === '' ? "'" : text });
      i = end < 0 ? pattern.length : end + 1;
    } else if (/[A-Za-z]/.test(ch)) {
      let j = i;
      while (pattern[j] === ch) j++;
      tokens.push({ kind: 'letter', letter: ch, count: j - i });
      i = j;
    } else if (ch === '[' || ch === ']') i++;
    else {
      tokens.push({ kind: 'text', text: ch });
      i++;
    }
  }
  return tokens;
}

function offsetText(offset: number, letter: string, count: number): string {
  const sign = offset < 0 ? '-' : '+';
  const abs = Math.abs(offset);
  const hh = pad(Math.floor(abs / 3600), 2);
  const mm = pad(Math.floor((abs % 3600) / 60), 2);
  if (letter === 'X' && offset === 0) return 'Z';
  if (letter === 'Z')
    return count >= 5
      ? offset === 0
        ? 'Z'
        : `${sign}${hh}:${mm}`
      : count === 4
        ? `GMT${offset === 0 ? '' : `${sign}${hh}:${mm}`}`
        : `${sign}${hh}${mm}`;
  if (count === 1) return `${sign}${hh}${mm === '00' ? '' : mm}`;
  if (count === 2 || count === 4) return `${sign}${hh}${mm}`;
  return `${sign}${hh}:${mm}`;
}

function formatLetter(t: { letter: string; count: number }, f: DateTimeFields): string {
  const epochDay = epochDayOf(f.year, f.month, f.day);
  switch (t.letter) {
    case 'y':
    case 'u':
    case 'Y':
      return t.count === 2 ? pad(floorMod(f.year, 100), 2) : pad(f.year, t.count);
    case 'M':
    case 'L':
      return t.count >= 4 ? MONTHS[f.month - 1]! : t.count === 3 ? MONTHS[f.month - 1]!.slice(0, 3) : pad(f.month, t.count);
    case 'd':
      return pad(f.day, t.count);
    case 'D':
      return pad(dayOfYear(epochDay), t.count);
    case 'E':
    case 'e':
      return t.count >= 4 ? DAYS[dayOfWeek(epochDay) - 1]! : DAYS[dayOfWeek(epochDay) - 1]!.slice(0, 3);
    case 'a':
      return f.hour < 12 ? 'AM' : 'PM';
    case 'H':
      return pad(f.hour, t.count);
    case 'k':
      return pad(f.hour === 0 ? 24 : f.hour, t.count);
    case 'h':
      return pad(f.hour % 12 === 0 ? 12 : f.hour % 12, t.count);
    case 'K':
      return pad(f.hour % 12, t.count);
    case 'm':
      return pad(f.minute, t.count);
    case 's':
      return pad(f.second, t.count);
    case 'S':
      return String(f.nano).padStart(9, '0').slice(0, t.count).padEnd(t.count, '0');
    case 'n':
      return String(f.nano);
    case 'X':
    case 'x':
    case 'Z':
      return offsetText(needOffset(f), t.letter, t.count);
    case 'z':
    case 'V':
      return f.zoneId ?? formatOffset(needOffset(f));
    case 'G':
      return f.year > 0 ? 'AD' : 'BC';
    case 'Q':
    case 'q':
      return String(Math.ceil(f.month / 3));
    default:
      throw illegalArgument(`Unknown pattern letter: ${t.letter}`);
  }
}

/** Formats fields with a pattern or a named formatter. */
export function formatJava(format: string, f: DateTimeFields): string {
  const pattern = resolvePattern(format);
  if (/^ISO_[A-Z_]+$/.test(pattern)) return formatIso(pattern, f);
  return tokenize(pattern)
    .map((t) => (t.kind === 'text' ? t.text : formatLetter(t, f)))
    .join('');
}

const ISO_PARSE =
  /^([+-]?\d{4,9})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d{1,9}))?)?)?\s*(Z|[+-]\d{2}(?::?\d{2})?)?(?:\[([^\]]+)\])?$/i;
const ISO_TIME_PARSE = /^(\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d{1,9}))?)?(Z|[+-]\d{2}(?::?\d{2})?)?$/i;

function parseIso(text: string): DateTimeFields {
  const m = ISO_PARSE.exec(text.trim());
  if (m === null) {
    const t = ISO_TIME_PARSE.exec(text.trim());
    if (t === null) throw illegalArgument(`Text '${text}' could not be parsed at index 0`);
    return {
      year: 1970,
      month: 1,
      day: 1,
      hour: Number(t[1]),
      minute: Number(t[2]),
      second: Number(t[3] ?? 0),
      nano: Number((t[4] ?? '').padEnd(9, '0') || 0),
      offsetSeconds: t[5] ? parseOffset(t[5]) : null,
      zoneId: null,
    };
  }
  const offset = m[8] ? parseOffset(m[8].toUpperCase() === 'Z' ? 'Z' : m[8]) : null;
  return {
    year: Number(m[1]),
    month: Number(m[2]),
    day: Number(m[3]),
    hour: Number(m[4] ?? 0),
    minute: Number(m[5] ?? 0),
    second: Number(m[6] ?? 0),
    nano: Number((m[7] ?? '').padEnd(9, '0') || 0),
    offsetSeconds: offset,
    zoneId: m[9] ?? null,
  };
}

function letterRegex(t: { letter: string; count: number }): string {
  switch (t.letter) {
    case 'M':
    case 'L':
      return t.count >= 3 ? '([A-Za-z]+)' : t.count === 2 ? '(\\d{2})' : '(\\d{1,2})';
    case 'E':
    case 'e':
    case 'a':
    case 'G':
      return '([A-Za-z]+)';
    case 'X':
    case 'x':
    case 'Z':
      return '(Z|[+-]\\d{2}(?::?\\d{2})?|GMT(?:[+-]\\d{2}:\\d{2})?)';
    case 'z':
    case 'V':
      return '([A-Za-z_]+(?:/[A-Za-z_]+)*|[+-]\\d{2}:\\d{2})';
    case 'y':
    case 'u':
    case 'Y':
      return t.count === 2 ? '(\\d{2})' : t.count === 4 ? '([+-]?\\d{4})' : '([+-]?\\d{1,9})';
    case 'S':
      return `(\\d{${t.count}})`;
    default:
      return t.count === 1 ? '(\\d{1,9})' : `(\\d{${t.count}})`;
  }
}

function escapeRegex(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** Parses text with a pattern or a named formatter; fields it does not give take defaults (1970-01-01T00:00). */
export function parseJava(format: string, text: string): DateTimeFields {
  const pattern = resolvePattern(format);
  if (/^ISO_[A-Z_]+$/.test(pattern)) return parseIso(text);
  const tokens = tokenize(pattern);
  const regex = new RegExp(`^${tokens.map((t) => (t.kind === 'text' ? escapeRegex(t.text) : letterRegex(t))).join('')}$`, 'i');
  const m = regex.exec(text.trim());
  if (m === null) throw illegalArgument(`Text '${text}' could not be parsed at index 0`);
  const f: DateTimeFields = { year: 1970, month: 1, day: 1, hour: 0, minute: 0, second: 0, nano: 0, offsetSeconds: null, zoneId: null };
  let pm: boolean | null = null;
  let group = 1;
  for (const t of tokens) {
    if (t.kind === 'text') continue;
    const v = m[group++]!;
    const n = Number(v);
    switch (t.letter) {
      case 'y':
      case 'u':
      case 'Y':
        f.year = t.count === 2 ? 2000 + n : n;
        break;
      case 'M':
      case 'L':
        f.month = t.count >= 3 ? MONTHS.findIndex((name) => name.toLowerCase().startsWith(v.toLowerCase().slice(0, 3))) + 1 : n;
        break;
      case 'd':
        f.day = n;
        break;
      case 'H':
      case 'k':
        f.hour = n % 24;
        break;
      case 'h':
      case 'K':
        f.hour = n % 12;
        break;
      case 'a':
        pm = v.toUpperCase() === 'PM';
        break;
      case 'm':
        f.minute = n;
        break;
      case 's':
        f.second = n;
        break;
      case 'S':
        f.nano = Number(v.padEnd(9, '0'));
        break;
      case 'X':
      case 'x':
      case 'Z':
        f.offsetSeconds = v.startsWith('GMT') ? (v === 'GMT' ? 0 : parseOffset(v.slice(3))) : parseOffset(v);
        break;
      case 'z':
      case 'V': {
        const offset = parseOffset(v);
        if (offset !== null) f.offsetSeconds = offset;
        else if (v === 'GMT' || v === 'UTC') f.offsetSeconds = 0;
        else f.zoneId = v;
        break;
      }
      default:
        break;
    }
  }
  if (pm !== null && pm) f.hour += 12;
  if (f.month < 1 || f.month > 12 || f.day < 1 || f.day > 31) throw illegalArgument(`Text '${text}' could not be parsed: Invalid date`);
  return f;
}
