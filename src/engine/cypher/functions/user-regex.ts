/**
 * Regular expressions written by users (`=~`, and every function or procedure that takes a
 * pattern): compiled with RE2, a linear-time engine, so no pattern can hang the event loop
 * (`(a+)+$` on `aaaa…!` answers in microseconds instead of backtracking for minutes).
 *
 * Neo4j evaluates patterns with `java.util.regex`. The differences are handled here:
 * - inline flags `(?i)`, `(?s)`, `(?m)` work as in Java; Java's `(?u)` (Unicode case) and
 *   `(?U)` (Unicode classes) are accepted and dropped (RE2 always matches Unicode, and its own
 *   `(?U)` would mean "ungreedy"); `(?d)` (Unix lines) is dropped too;
 * - Java's POSIX classes `\p{Alpha}`, `\p{Digit}`, … and `\p{IsLatin}`-style names are
 *   translated to RE2 classes;
 * - constructs that need backtracking are refused with a ClientError naming the construct:
 *   backreferences (`\1`, `\k<name>`), lookaround (`(?=`, `(?!`, `(?<=`, `(?<!`), atomic groups
 *   (`(?>`), possessive quantifiers (`a*+`) and comments mode (`(?x)`).
 *
 * Compiled patterns are kept in one cache bounded both by entry count and by an estimate of
 * their memory, evicting the least recently used.
 */
import RE2 from 're2';
import { CypherTypeError } from '../../errors/index.js';

/** Most patterns the cache keeps. */
export const REGEX_CACHE_MAX_ENTRIES = 4096;
/** Most estimated bytes of compiled patterns the cache keeps, by default (`dbms.memory.regex_cache.max_size`). */
export const REGEX_CACHE_MAX_BYTES = 16 * 1024 * 1024;
/** Longest pattern accepted (characters); longer ones are refused before compiling. */
export const REGEX_MAX_PATTERN_LENGTH = 64 * 1024;

/** Java's ASCII POSIX classes (`\p{Alpha}`…): the body of an RE2 character class. */
const POSIX_BODIES: Readonly<Record<string, string>> = {
  Lower: 'a-z',
  Upper: 'A-Z',
  ASCII: '\\x00-\\x7F',
  Alpha: 'a-zA-Z',
  Digit: '0-9',
  Alnum: 'a-zA-Z0-9',
  Punct: '!-\\/:-@\\[-`{-~',
  Graph: '!-~',
  Print: ' -~',
  Blank: ' \\t',
  Cntrl: '\\x00-\\x1F\\x7F',
  XDigit: '0-9a-fA-F',
  Space: ' \\t\\n\\x0B\\f\\r',
};

/** Java's java.lang.Character and `Is…` classes: their RE2 Unicode class name. */
const UNICODE_NAMES: Readonly<Record<string, string>> = {
  javaLowerCase: 'Ll',
  javaUpperCase: 'Lu',
  javaLetter: 'L',
  javaDigit: 'Nd',
  IsAlphabetic: 'L',
  IsLetter: 'L',
  IsDigit: 'Nd',
  IsUppercase: 'Lu',
  IsLowercase: 'Ll',
  IsPunctuation: 'P',
};

/** Why a pattern is refused, or null: constructs RE2 cannot run in linear time. */
function unsupportedConstruct(pattern: string): string | null {
  let inClass = false;
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i];
    if (c === '\\') {
      const next = pattern[i + 1] ?? '';
      if (!inClass && /[1-9]/.test(next)) return 'a backreference';
      if (!inClass && next === 'k' && pattern[i + 2] === '<') return 'a backreference';
      if (next === 'Q') {
        const end = pattern.indexOf('\\E', i + 2);
        i = end < 0 ? pattern.length : end + 1;
        continue;
      }
      i++;
      continue;
    }
    if (inClass) {
      if (c === ']') inClass = false;
      continue;
    }
    if (c === '[') {
      inClass = true;
      if (pattern[i + 1] === '^') i++;
      if (pattern[i + 1] === ']') i++;
      continue;
    }
    if (c === '(' && pattern[i + 1] === '?') {
      const rest = pattern.slice(i + 2, i + 4);
      if (rest.startsWith('=') || rest.startsWith('!') || rest === '<=' || rest === '<!') return 'a lookaround';
      if (rest.startsWith('>')) return 'an atomic group';
      const flags = /^[a-zA-Z-]*/.exec(pattern.slice(i + 2))?.[0] ?? '';
      if (flags.includes('x')) return 'comments mode (?x)';
    }
    const quantifier = c === '*' || c === '+' || c === '?' || (c === '}' && /\{\d+(,\d*)?$/.test(pattern.slice(0, i)));
    if (quantifier && pattern[i + 1] === '+') return 'a possessive quantifier';
  }
  return null;
}

/** A Java `\p{…}`/`\P{…}` class in RE2 syntax, inside or outside a bracketed class. */
function translateClass(negated: boolean, name: string, inClass: boolean, pattern: string): string {
  const posix = POSIX_BODIES[name];
  if (posix !== undefined) {
    if (!inClass) return negated ? `[^${posix}]` : `[${posix}]`;
    if (negated) throw invalid(pattern, `a negated class \\P{${name}} inside brackets is not supported`);
    return posix;
  }
  const unicode = UNICODE_NAMES[name] ?? (name.startsWith('Is') || name.startsWith('In') ? name.slice(2) : name);
  return `\\${negated ? 'P' : 'p'}{${unicode}}`;
}

/** Java inline flags kept for RE2: `u`, `U` and `d` have no RE2 meaning (or another one) and go. */
function translateFlags(flags: string): string {
  const [on = '', off] = flags.split('-');
  const keep = (f: string): string => f.replace(/[uUd]/g, '');
  const keptOff = off === undefined ? '' : keep(off);
  return keep(on) + (keptOff === '' ? '' : `-${keptOff}`);
}

/** Rewrites Java-only syntax into RE2 syntax (see the module comment). */
function translateJava(pattern: string): string {
  let out = '';
  let inClass = false;
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i]!;
    if (c === '\\') {
      const next = pattern[i + 1] ?? '';
      const named = /^\{(\w+)\}/.exec(pattern.slice(i + 2));
      if ((next === 'p' || next === 'P') && named !== null) {
        out += translateClass(next === 'P', named[1]!, inClass, pattern);
        i += 1 + named[0].length;
        continue;
      }
      if (next === 'Q') {
        const end = pattern.indexOf('\\E', i + 2);
        const stop = end < 0 ? pattern.length : end + 2;
        out += pattern.slice(i, stop);
        i = stop - 1;
        continue;
      }
      out += c + next;
      i++;
      continue;
    }
    if (inClass) {
      if (c === ']') inClass = false;
      out += c;
      continue;
    }
    if (c === '[') {
      inClass = true;
      out += c;
      if (pattern[i + 1] === '^') out += pattern[++i];
      if (pattern[i + 1] === ']') out += pattern[++i];
      continue;
    }
    const flags = c === '(' ? /^\(\?([a-zA-Z]*(?:-[a-zA-Z]*)?)([:)])/.exec(pattern.slice(i)) : null;
    if (flags !== null && flags[1] !== '') {
      const kept = translateFlags(flags[1]!);
      out += kept === '' ? (flags[2] === ')' ? '' : '(?:') : `(?${kept}${flags[2]}`;
      i += flags[0].length - 1;
      continue;
    }
    out += c;
  }
  return out;
}

function invalid(pattern: string, reason: string): CypherTypeError {
  return new CypherTypeError(`Invalid Regex: ${reason} in '${pattern}'`, { detail: 'InvalidArgumentValue' });
}

/** Memory estimate of one compiled pattern (RE2 programs and DFA caches grow with the pattern). */
function estimatedBytes(pattern: string): number {
  return 2048 + pattern.length * 64;
}

/** A least-recently-used cache of compiled patterns bounded by count and estimated bytes. */
class PatternCache {
  private readonly entries = new Map<string, { readonly re: RE2; readonly bytes: number; readonly pressure: ArrayBuffer }>();
  private bytes = 0;

  constructor(
    private readonly maxEntries: number,
    private maxBytes: number,
  ) {}

  /** Changes the byte bound, evicting what no longer fits. */
  resize(maxBytes: number): void {
    this.maxBytes = maxBytes;
    this.evict();
  }

  get(key: string): RE2 | undefined {
    const entry = this.entries.get(key);
    if (entry === undefined) return undefined;
    this.entries.delete(key);
    this.entries.set(key, entry);
    return entry.re;
  }

  set(key: string, re: RE2, bytes: number): void {
    if (bytes > this.maxBytes) return;
    // RE2 allocates natively and does not tell V8, so evicted patterns would wait for a garbage
    // collection V8 sees no reason to run. An external buffer of the estimated size makes V8 count
    // that memory: evicted entries are then collected, RE2 programs included, at the usual pace.
    this.entries.set(key, { re, bytes, pressure: new ArrayBuffer(bytes) });
    this.bytes += bytes;
    this.evict();
  }

  private evict(): void {
    while (this.entries.size > this.maxEntries || this.bytes > this.maxBytes) {
      const oldest = this.entries.entries().next().value;
      if (oldest === undefined) break;
      this.entries.delete(oldest[0]);
      this.bytes -= oldest[1].bytes;
    }
  }

  stats(): { entries: number; bytes: number; maxBytes: number } {
    return { entries: this.entries.size, bytes: this.bytes, maxBytes: this.maxBytes };
  }
}

const cache = new PatternCache(REGEX_CACHE_MAX_ENTRIES, REGEX_CACHE_MAX_BYTES);

/** How a user pattern is matched: against the whole string (Java `matches()`, `=~`) or a part. */
export type RegexMode = 'full' | 'find';

/**
 * Compiles a user-supplied Java-syntax pattern with RE2 (cached). `full` anchors it so it must
 * match the whole input, as `=~` does. Throws a ClientError for invalid or unsupported syntax.
 */
export function userRegex(pattern: string, mode: RegexMode = 'find', global = false): RE2 {
  const key = `${mode}${global ? 'g' : '-'}${pattern}`;
  const cached = cache.get(key);
  if (cached !== undefined) {
    cached.lastIndex = 0;
    return cached;
  }
  if (pattern.length > REGEX_MAX_PATTERN_LENGTH)
    throw invalid(pattern.slice(0, 64) + '…', `pattern longer than ${REGEX_MAX_PATTERN_LENGTH} characters`);
  const unsupported = unsupportedConstruct(pattern);
  if (unsupported !== null)
    throw invalid(pattern, `${unsupported} cannot be used (patterns run on a linear-time engine, see docs/security.md)`);
  const source = translateJava(pattern);
  let re: RE2;
  try {
    re = new RE2(mode === 'full' ? `^(?:${source})$` : source, global ? 'gu' : 'u');
  } catch (error) {
    throw invalid(pattern, error instanceof Error ? error.message : String(error));
  }
  cache.set(key, re, estimatedBytes(pattern));
  return re;
}

/** `text =~ pattern`: Java `matches()` semantics (the whole string must match). */
export function regexFullMatch(text: string, pattern: string): boolean {
  return userRegex(pattern, 'full').test(text);
}

/** Entries and estimated bytes held by the compiled-pattern cache, and its byte bound. */
export function regexCacheStats(): { entries: number; bytes: number; maxBytes: number } {
  return cache.stats();
}

/**
 * Sets the byte bound of the compiled-pattern cache (`dbms.memory.regex_cache.max_size`). The
 * cache is shared by everything in this thread (each read worker has its own), so the engine
 * opened last sets it.
 */
export function setRegexCacheMaxBytes(maxBytes: number): void {
  cache.resize(maxBytes);
}
