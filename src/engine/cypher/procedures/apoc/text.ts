/**
 * apoc.text: string functions (case conversions, padding, cleaning, regular expressions on the
 * linear-time engine, encodings, similarity metrics, phonetic codes, random strings).
 */
import { randomInt } from 'node:crypto';
import type { CypherValue } from '../../../values/types.js';
import { formatLiteral, valueText } from '../../../values/to-string.js';
import { userRegex } from '../../functions/user-regex.js';
import { fn, generatedLength, illegalArgument, proc } from './define.js';
import { javaFormat } from './format.js';
import { doubleMetaphone, jaroWinkler, levenshtein, sorensenDice, soundex } from './text-similarity.js';
import { listArg } from './values.js';

type Str = (s: string, args: readonly CypherValue[]) => CypherValue;

/** A text function returning null for a null first argument. */
function textFn(signature: string, description: string, body: Str) {
  return fn(signature, description, (args) => (args[0] === null ? null : body(valueText(args[0]), args)));
}

function words(s: string): string[] {
  return s
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .split(/[^A-Za-z0-9]+/)
    .filter((w) => w !== '');
}

function capitalize(w: string): string {
  return w.charAt(0).toUpperCase() + w.slice(1);
}

function clean(s: string): string {
  return s
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^\p{L}\p{N}]/gu, '')
    .toLowerCase();
}

function bytesOf(s: string, charset: CypherValue): Buffer {
  const name = valueText(charset ?? 'UTF-8')
    .toLowerCase()
    .replace(/[-_]/g, '');
  const encoding = (
    {
      utf8: 'utf8',
      utf16le: 'utf16le',
      utf16: 'utf16le',
      iso88591: 'latin1',
      latin1: 'latin1',
      usascii: 'ascii',
      ascii: 'ascii',
    } as Record<string, BufferEncoding>
  )[name];
  if (encoding === undefined) throw illegalArgument(`Unsupported charset: ${valueText(charset)}`);
  return Buffer.from(s, encoding);
}

function indexesOf(s: string, lookup: string, from: number, to: number): number[] {
  const end = to < 0 || to > s.length ? s.length : to;
  const out: number[] = [];
  if (lookup === '') return out;
  for (let i = s.indexOf(lookup, Math.max(0, from)); i >= 0 && i + lookup.length <= end; i = s.indexOf(lookup, i + 1)) out.push(i);
  return out;
}

function pad(s: string, count: number, delimiter: string, left: boolean): string {
  if (s.length >= count || delimiter === '') return s;
  const missing = generatedLength(count, 'padded string') - s.length;
  const filler = delimiter.repeat(Math.ceil(missing / delimiter.length)).slice(0, missing);
  return left ? filler + s : s + filler;
}

/** Expands `A-Za-z0-9` style character ranges. */
function charset(spec: string): string[] {
  const out: string[] = [];
  for (let i = 0; i < spec.length; i++) {
    if (spec[i + 1] === '-' && i + 2 < spec.length) {
      for (let c = spec.charCodeAt(i); c <= spec.charCodeAt(i + 2); c++) out.push(String.fromCharCode(c));
      i += 2;
    } else out.push(spec[i]!);
  }
  return out;
}

function javaReplacement(replacement: string): string {
  return replacement.replace(/\$\{(\w+)\}/g, '$<$1>');
}

/** The apoc.text functions and procedures. */
export const textEntries = [
  textFn('apoc.text.base64Encode(text :: STRING) :: STRING', 'Encodes the given `STRING` with Base64.', (s) =>
    Buffer.from(s, 'utf8').toString('base64'),
  ),
  textFn('apoc.text.base64Decode(text :: STRING) :: STRING', 'Decodes the given Base64 encoded `STRING`.', (s) =>
    Buffer.from(s, 'base64').toString('utf8'),
  ),
  textFn('apoc.text.base64UrlEncode(url :: STRING) :: STRING', 'Encodes the given URL with Base64.', (s) =>
    Buffer.from(s, 'utf8').toString('base64url'),
  ),
  textFn('apoc.text.base64UrlDecode(url :: STRING) :: STRING', 'Decodes the given Base64 encoded URL.', (s) =>
    Buffer.from(s, 'base64url').toString('utf8'),
  ),
  textFn(
    "apoc.text.byteCount(text :: STRING, charset = 'UTF-8' :: STRING) :: INTEGER",
    'Returns the size of the given `STRING` in bytes.',
    (s, [, c]) => BigInt(bytesOf(s, c!).length),
  ),
  textFn("apoc.text.bytes(text :: STRING, charset = 'UTF-8' :: STRING) :: LIST<ANY>", 'Returns the given `STRING` as bytes.', (s, [, c]) =>
    [...bytesOf(s, c!)].map((b) => BigInt(b)),
  ),
  textFn('apoc.text.camelCase(text :: STRING) :: STRING', 'Converts the given `STRING` to camel case.', (s) =>
    words(s)
      .map((w, i) => (i === 0 ? w.toLowerCase() : capitalize(w.toLowerCase())))
      .join(''),
  ),
  textFn('apoc.text.upperCamelCase(text :: STRING) :: STRING', 'Converts the given `STRING` to upper camel case.', (s) =>
    words(s)
      .map((w) => capitalize(w.toLowerCase()))
      .join(''),
  ),
  textFn('apoc.text.snakeCase(text :: STRING) :: STRING', 'Converts the given `STRING` to snake case.', (s) =>
    words(s)
      .map((w) => w.toLowerCase())
      .join('-'),
  ),
  textFn('apoc.text.toUpperCase(text :: STRING) :: STRING', 'Converts the given `STRING` to upper case.', (s) =>
    words(s)
      .map((w) => w.toUpperCase())
      .join('_'),
  ),
  textFn('apoc.text.capitalize(text :: STRING) :: STRING', 'Capitalizes the first letter of the given `STRING`.', (s) => capitalize(s)),
  textFn('apoc.text.capitalizeAll(text :: STRING) :: STRING', 'Capitalizes the first letter of every word in the given `STRING`.', (s) =>
    s.replace(/(^|\s)(\S)/g, (_m, a: string, b: string) => a + b.toUpperCase()),
  ),
  textFn(
    'apoc.text.decapitalize(text :: STRING) :: STRING',
    'Turns the first letter of the given `STRING` from upper case to lower case.',
    (s) => s.charAt(0).toLowerCase() + s.slice(1),
  ),
  textFn(
    'apoc.text.decapitalizeAll(text :: STRING) :: STRING',
    'Turns the first letter of every word in the given `STRING` to lower case.',
    (s) => s.replace(/(^|\s)(\S)/g, (_m, a: string, b: string) => a + b.toLowerCase()),
  ),
  textFn('apoc.text.swapCase(text :: STRING) :: STRING', 'Swaps the cases in the given `STRING`.', (s) =>
    [...s].map((ch) => (ch === ch.toUpperCase() ? ch.toLowerCase() : ch.toUpperCase())).join(''),
  ),
  textFn(
    'apoc.text.charAt(text :: STRING, index :: INTEGER) :: INTEGER',
    'Returns the `INTEGER` value of the character at the given index.',
    (s, [, i]) => {
      const n = Number(i);
      return n < 0 || n >= s.length ? null : BigInt(s.charCodeAt(n));
    },
  ),
  textFn(
    'apoc.text.hexCharAt(text :: STRING, index :: INTEGER) :: STRING',
    'Returns the hexadecimal value of the given `STRING` at the given index.',
    (s, [, i]) => {
      const n = Number(i);
      return n < 0 || n >= s.length ? null : s.charCodeAt(n).toString(16).toUpperCase().padStart(4, '0');
    },
  ),
  fn('apoc.text.hexValue(value :: INTEGER) :: STRING', 'Returns the hexadecimal value of the given value.', ([v]) => {
    if (v === null) return null;
    const n = v as bigint;
    const int32 = (x: bigint) => BigInt.asUintN(32, x).toString(16).toUpperCase();
    if (n > 0xffffffffn) return BigInt.asUintN(64, n).toString(16).toUpperCase().padStart(16, '0');
    if (n > 0xffffn) return int32(n).padStart(8, '0');
    if (n > 0xffn) return int32(n).padStart(4, '0');
    return int32(n).padStart(2, '0');
  }),
  fn('apoc.text.code(codepoint :: INTEGER) :: STRING', 'Converts the `INTEGER` value into a `STRING`.', ([c]) => {
    if (c === null) return null;
    const n = Number(c);
    if (n < 0 || n > 0x10ffff) throw illegalArgument(`Expected codepoint in the range 0..0x10FFFF but got ${n}`);
    return String.fromCodePoint(n);
  }),
  textFn(
    'apoc.text.clean(text :: STRING) :: STRING',
    'Strips the given `STRING` of everything except alpha numeric characters and converts it to lower case.',
    (s) => clean(s),
  ),
  fn(
    'apoc.text.compareCleaned(text1 :: STRING, text2 :: STRING) :: BOOLEAN',
    'Compares two given `STRING` values stripped of everything except alpha numeric characters converted to lower case.',
    ([a, b]) => (a === null || b === null ? false : clean(valueText(a)) === clean(valueText(b))),
  ),
  fn(
    'apoc.text.distance(text1 :: STRING, text2 :: STRING) :: INTEGER',
    'Compares the two given `STRING` values using the Levenshtein distance algorithm.',
    ([a, b]) => (a === null || b === null ? null : BigInt(levenshtein(valueText(a), valueText(b)))),
  ),
  fn(
    'apoc.text.levenshteinDistance(text1 :: STRING, text2 :: STRING) :: INTEGER',
    'Compares the given `STRING` values using the Levenshtein distance algorithm.',
    ([a, b]) => (a === null || b === null ? null : BigInt(levenshtein(valueText(a), valueText(b)))),
  ),
  fn(
    'apoc.text.levenshteinSimilarity(text1 :: STRING, text2 :: STRING) :: FLOAT',
    'Returns the similarity (a value within 0 and 1) between the two given `STRING` values based on the Levenshtein distance algorithm.',
    ([a, b]) => {
      if (a === null || b === null) return null;
      const longer = Math.max(valueText(a).length, valueText(b).length);
      return longer === 0 ? 1 : (longer - levenshtein(valueText(a), valueText(b))) / longer;
    },
  ),
  fn(
    'apoc.text.hammingDistance(text1 :: STRING, text2 :: STRING) :: INTEGER',
    'Compares the two given `STRING` values using the Hamming distance algorithm.',
    ([a, b]) => {
      if (a === null || b === null) return null;
      const s = valueText(a);
      const t = valueText(b);
      if (s.length !== t.length) throw illegalArgument('Strings must have the same length');
      let d = 0;
      for (let i = 0; i < s.length; i++) if (s[i] !== t[i]) d++;
      return BigInt(d);
    },
  ),
  fn(
    'apoc.text.jaroWinklerDistance(text1 :: STRING, text2 :: STRING) :: FLOAT',
    'Compares the two given `STRING` values using the Jaro-Winkler distance algorithm.',
    ([a, b]) => (a === null || b === null ? null : jaroWinkler(valueText(a), valueText(b))),
  ),
  fn(
    "apoc.text.sorensenDiceSimilarity(text1 :: STRING, text2 :: STRING, languageTag = 'en' :: STRING) :: FLOAT",
    'Compares the two given `STRING` values using the Sørensen–Dice coefficient formula, with the provided IETF language tag.',
    ([a, b]) => (a === null || b === null ? null : sorensenDice(valueText(a), valueText(b))),
  ),
  fn(
    'apoc.text.fuzzyMatch(text1 :: STRING, text2 :: STRING) :: BOOLEAN',
    'Performs a fuzzy match search of the two given `STRING` values.',
    ([a, b]) => {
      if (a === null || b === null) return false;
      const s = valueText(a);
      const allowed = s.length <= 4 ? 0 : s.length <= 7 ? 1 : 2;
      return levenshtein(s, valueText(b)) <= allowed;
    },
  ),
  textFn(
    'apoc.text.phonetic(text :: STRING) :: STRING',
    'Returns the US_ENGLISH phonetic soundex encoding of all words of the `STRING`.',
    (s) =>
      s
        .split(/\s+/)
        .filter((w) => w !== '')
        .map(soundex)
        .join(''),
  ),
  textFn(
    'apoc.text.doubleMetaphone(value :: STRING) :: STRING',
    'Returns the double metaphone phonetic encoding of all words in the given `STRING` value.',
    (s) =>
      s
        .split(/\s+/)
        .filter((w) => w !== '')
        .map(doubleMetaphone)
        .join(' '),
  ),
  proc(
    'apoc.text.phoneticDelta(text1 :: STRING, text2 :: STRING) :: (phonetic1 :: STRING, phonetic2 :: STRING, delta :: INTEGER)',
    'READ',
    'Returns the US_ENGLISH soundex character difference between the two given `STRING` values.',
    function* ([a, b]) {
      const p1 = soundex(valueText(a ?? ''));
      const p2 = soundex(valueText(b ?? ''));
      let delta = 0;
      for (let i = 0; i < 4; i++) if (p1[i] === p2[i]) delta++;
      yield [p1, p2, BigInt(delta)];
    },
  ),
  fn(
    "apoc.text.format(text :: STRING, params :: LIST<ANY>, language = 'en' :: STRING) :: STRING",
    'Formats the given `STRING` with the given parameters.',
    ([s, params]) => (s === null ? null : javaFormat(valueText(s), listArg(params ?? null))),
  ),
  fn(
    'apoc.text.indexOf(text :: STRING, lookup :: STRING, from = 0 :: INTEGER, to = -1 :: INTEGER) :: INTEGER',
    'Returns the first occurrence of the lookup `STRING` in the given `STRING`, or -1 if not found.',
    ([s, l, from, to]) => {
      if (s === null || l === null) return null;
      return BigInt(indexesOf(valueText(s), valueText(l), Number(from), Number(to))[0] ?? -1);
    },
  ),
  fn(
    'apoc.text.indexesOf(text :: STRING, lookup :: STRING, from = 0 :: INTEGER, to = -1 :: INTEGER) :: LIST<ANY>',
    'Returns all occurrences of the lookup `STRING` in the given `STRING`, or an empty list if not found.',
    ([s, l, from, to]) =>
      s === null || l === null ? null : indexesOf(valueText(s), valueText(l), Number(from), Number(to)).map((i) => BigInt(i)),
  ),
  fn(
    'apoc.text.join(texts :: LIST<STRING>, delimiter :: STRING) :: STRING',
    'Joins the given `STRING` values using the given delimiter.',
    ([list, d]) =>
      list === null
        ? null
        : listArg(list)
            .map((x) => (x === null ? 'null' : valueText(x)))
            .join(valueText(d ?? '')),
  ),
  textFn(
    "apoc.text.lpad(text :: STRING, count :: INTEGER, delimiter = ' ' :: STRING) :: STRING",
    'Left pads the given `STRING` by the given width.',
    (s, [, n, d]) => pad(s, Number(n), valueText(d ?? ' '), true),
  ),
  textFn(
    "apoc.text.rpad(text :: STRING, count :: INTEGER, delimiter = ' ' :: STRING) :: STRING",
    'Right pads the given `STRING` by the given width.',
    (s, [, n, d]) => pad(s, Number(n), valueText(d ?? ' '), false),
  ),
  fn(
    'apoc.text.repeat(item :: STRING, count :: INTEGER) :: STRING',
    'Returns the result of the given item multiplied by the given count.',
    ([s, n]) => {
      if (s === null || n === null) return null;
      generatedLength(valueText(s).length * Number(n), 'repeated string');
      return valueText(s).repeat(Math.max(0, Number(n)));
    },
  ),
  fn(
    "apoc.text.random(length :: INTEGER, valid = 'A-Za-z0-9' :: STRING) :: STRING",
    'Generates a random `STRING` to the given length using a length parameter and an optional `STRING` of valid characters.',
    ([n, valid]) => {
      const chars = charset(valueText(valid ?? 'A-Za-z0-9'));
      if (chars.length === 0) return '';
      return Array.from({ length: generatedLength(Number(n ?? 0n), 'random string') }, () => chars[randomInt(chars.length)]).join('');
    },
    { deterministic: false },
  ),
  fn(
    'apoc.text.regexGroups(text :: STRING, regex :: STRING) :: LIST<ANY>',
    'Returns all groups matching the given regular expression in the given text.',
    ([s, r]) => {
      if (s === null || r === null) return null;
      const re = userRegex(valueText(r), 'find', true);
      return [...valueText(s).matchAll(re as unknown as RegExp)].map((m) => [...m].map((g) => g ?? null));
    },
  ),
  fn(
    'apoc.text.regexGroupsByName(text :: STRING, regex :: STRING) :: LIST<ANY>',
    'Returns all groups with their group name matching the given regular expression in the given text.',
    ([s, r]) => {
      if (s === null || r === null) return null;
      const re = userRegex(valueText(r), 'find', true);
      return [...valueText(s).matchAll(re as unknown as RegExp)].map(
        (m) =>
          new Map<string, CypherValue>([
            ['group', m[0]],
            ['matches', new Map(Object.entries(m.groups ?? {}).map(([k, v]) => [k, v ?? null]))],
          ]),
      );
    },
  ),
  fn(
    'apoc.text.replace(text :: STRING, regex :: STRING, replacement :: STRING) :: STRING',
    'Finds and replaces all matches found by the given regular expression with the given replacement.',
    ([s, r, rep]) =>
      s === null || r === null || rep === null
        ? null
        : valueText(s).replace(userRegex(valueText(r), 'find', true) as unknown as RegExp, javaReplacement(valueText(rep))),
  ),
  fn(
    'apoc.text.regreplace(text :: STRING, regex :: STRING, replacement :: STRING) :: STRING',
    'Finds and replaces all matches found by the given regular expression with the given replacement.',
    ([s, r, rep]) =>
      s === null || r === null || rep === null
        ? null
        : valueText(s).replace(userRegex(valueText(r), 'find', true) as unknown as RegExp, javaReplacement(valueText(rep))),
  ),
  fn(
    'apoc.text.split(text :: STRING, regex :: STRING, limit = 0 :: INTEGER) :: LIST<ANY>',
    'Splits the given `STRING` using a given regular expression as a separator.',
    ([s, r, limit]) => {
      if (s === null || r === null) return null;
      const parts = valueText(s).split(userRegex(valueText(r), 'find', true) as unknown as RegExp);
      const n = Number(limit ?? 0n);
      if (n > 0 && parts.length > n) {
        const re = userRegex(valueText(r), 'find', true);
        let rest = valueText(s);
        const out: string[] = [];
        for (let i = 0; i < n - 1; i++) {
          re.lastIndex = 0;
          const m = re.exec(rest);
          if (!m) break;
          out.push(rest.slice(0, m.index));
          rest = rest.slice(m.index + m[0].length);
        }
        return [...out, rest];
      }
      if (n === 0) while (parts.length > 0 && parts[parts.length - 1] === '') parts.pop();
      return parts;
    },
  ),
  textFn(
    "apoc.text.slug(text :: STRING, delimiter = '-' :: STRING) :: STRING",
    'Replaces the whitespace in the given `STRING` with the given delimiter.',
    (s, [, d]) =>
      s
        .trim()
        .split(/[\s\W]+/)
        .filter((w) => w !== '')
        .join(valueText(d ?? '-')),
  ),
  textFn('apoc.text.urlencode(text :: STRING) :: STRING', 'Encodes the given URL `STRING`.', (s) =>
    encodeURIComponent(s)
      .replace(/%20/g, '+')
      .replace(/[!'()~]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`),
  ),
  textFn('apoc.text.urldecode(text :: STRING) :: STRING', 'Decodes the given URL encoded `STRING`.', (s) => {
    try {
      return decodeURIComponent(s.replace(/\+/g, ' '));
    } catch {
      throw illegalArgument(`URLDecoder: Illegal hex characters in escape (%) pattern in ${s}`);
    }
  }),
  fn('apoc.text.toCypher(value :: ANY, config = {} :: MAP) :: STRING', 'Converts the given value to a Cypher property `STRING`.', ([v]) =>
    formatLiteral(v!),
  ),
];
