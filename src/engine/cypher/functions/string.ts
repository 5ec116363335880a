/**
 * String functions: case, trimming, substring/left/right, replace, split, normalize, length.
 * Positions count UTF-16 code units as Java strings do.
 */
import type { CypherValue } from '../../values/types.js';
import { asInteger, asString, badArgument, scalar, wrongType } from './define.js';
import type { ScalarFunction } from './registry.js';
import { isList } from '../../values/kinds.js';

const STR = ['String'] as const;
const INT = ['Integer'] as const;

function stringFn(name: string, description: string, f: (s: string) => string): ScalarFunction {
  return scalar(name, { category: 'String', description, signature: `${name}(input :: STRING) :: STRING`, argumentTypes: [STR] }, ([s]) =>
    f(asString(name, s!)),
  );
}

function nonNegative(fn: string, v: CypherValue, what: string): number {
  const n = asInteger(fn, v);
  if (n < 0n) throw badArgument(`Invalid input for function '${fn}()': ${what} must be non-negative, got ${n}`, 'NegativeIntegerArgument');
  return Number(n);
}

function trimChars(s: string, chars: string, start: boolean, end: boolean): string {
  let from = 0;
  let to = s.length;
  if (start) while (from < to && chars.includes(s[from]!)) from++;
  if (end) while (to > from && chars.includes(s[to - 1]!)) to--;
  return s.slice(from, to);
}

function trimFn(name: string, start: boolean, end: boolean): ScalarFunction {
  return scalar(
    name,
    {
      min: 1,
      max: 2,
      category: 'String',
      description: `Removes characters from the ${start && end ? 'both ends' : start ? 'start' : 'end'} of a string.`,
    },
    ([s, chars]) => {
      const text = asString(name, s!);
      if (chars === undefined) {
        return start && end ? text.trim() : start ? text.trimStart() : text.trimEnd();
      }
      return trimChars(text, asString(name, chars), start, end);
    },
  );
}

/** The string functions. */
export const stringFunctions: readonly ScalarFunction[] = [
  stringFn('toUpper', 'Converts a string to upper case.', (s) => s.toUpperCase()),
  stringFn('toLower', 'Converts a string to lower case.', (s) => s.toLowerCase()),
  stringFn('upper', 'Converts a string to upper case.', (s) => s.toUpperCase()),
  stringFn('lower', 'Converts a string to lower case.', (s) => s.toLowerCase()),
  trimFn('trim', true, true),
  trimFn('btrim', true, true),
  trimFn('ltrim', true, false),
  trimFn('rtrim', false, true),
  scalar(
    'replace',
    { min: 3, category: 'String', description: 'Replaces every occurrence of a search string.', argumentTypes: [STR, STR, STR] },
    ([s, search, replacement]) => asString('replace', s!).split(asString('replace', search!)).join(asString('replace', replacement!)),
  ),
  scalar(
    'substring',
    {
      min: 2,
      max: 3,
      category: 'String',
      description: 'A substring from a 0-based start, optionally of a length.',
      argumentTypes: [STR, INT],
    },
    ([s, start, length]) => {
      const text = asString('substring', s!);
      const from = nonNegative('substring', start!, 'start');
      if (length === undefined) return text.slice(from);
      return text.slice(from, from + nonNegative('substring', length, 'length'));
    },
  ),
  scalar('left', { min: 2, category: 'String', description: 'The leftmost characters of a string.', argumentTypes: [STR, INT] }, ([s, n]) =>
    asString('left', s!).slice(0, nonNegative('left', n!, 'length')),
  ),
  scalar(
    'right',
    { min: 2, category: 'String', description: 'The rightmost characters of a string.', argumentTypes: [STR, INT] },
    ([s, n]) => {
      const text = asString('right', s!);
      const count = nonNegative('right', n!, 'length');
      return count === 0 ? '' : text.slice(Math.max(0, text.length - count));
    },
  ),
  scalar(
    'split',
    {
      min: 2,
      category: 'String',
      description: 'Splits a string on a delimiter (or any of a list of delimiters).',
      argumentTypes: [STR, ['String', 'List']],
    },
    ([s, delimiter]) => {
      const text = asString('split', s!);
      const delimiters = isList(delimiter) ? delimiter.map((d) => asString('split', d)) : [asString('split', delimiter!)];
      if (delimiters.length === 1 && delimiters[0] === '') return [...text];
      let parts = [text];
      for (const d of delimiters) parts = parts.flatMap((p) => p.split(d));
      return parts;
    },
  ),
  scalar('normalize', { min: 1, max: 2, category: 'String', description: 'Unicode normalization (NFC by default).' }, ([s, form]) => {
    const text = asString('normalize', s!);
    const name = form === undefined ? 'NFC' : asString('normalize', form).toUpperCase();
    if (!['NFC', 'NFD', 'NFKC', 'NFKD'].includes(name)) throw badArgument(`Unknown normal form: ${name}`);
    return text.normalize(name as 'NFC');
  }),
  scalar('char_length', { category: 'String', description: 'Number of characters in a string.', argumentTypes: [STR] }, ([s]) =>
    BigInt([...asString('char_length', s!)].length),
  ),
  scalar('character_length', { category: 'String', description: 'Number of characters in a string.', argumentTypes: [STR] }, ([s]) =>
    BigInt([...asString('character_length', s!)].length),
  ),
  scalar('isEmpty', { category: 'Predicate', description: 'True for an empty string, list or map.' }, ([v]) => {
    if (typeof v === 'string') return v.length === 0;
    if (Array.isArray(v)) return v.length === 0;
    if (v instanceof Map) return v.size === 0;
    throw wrongType('isEmpty', v!, 'String, List or Map');
  }),
];
