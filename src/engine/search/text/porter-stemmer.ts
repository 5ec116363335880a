/**
 * The Porter stemmer (M. F. Porter, "An algorithm for suffix stripping", 1980) for lower-cased
 * English tokens. Its stems are exactly those of the `natural` package's Porter stemmer (8.1.1),
 * which the full-text indexes were built with, including where that stemmer departs from the
 * paper: the measure counts `y` after a consonant as a vowel group of its own, and steps 2 and 3
 * apply every listed suffix whose stem has measure > 0, in list order, to the already-rewritten
 * word. test/search/porter-stemmer.test.ts checks the stems against a recorded vocabulary.
 */

/** The word as a string of `C`/`V` groups (a `y` after consonants counts as a vowel). */
function groups(word: string): string {
  return word
    .replace(/[^aeiouy]+y/g, 'CV')
    .replace(/[aeiou]+/g, 'V')
    .replace(/[^V]+/g, 'C');
}

/** The word as a string of `C`/`V` letters (a `y` after a consonant counts as a vowel). */
function letters(word: string): string {
  return word
    .replace(/[^aeiouy]y/g, 'CV')
    .replace(/[aeiou]/g, 'V')
    .replace(/[^V]/g, 'C');
}

/** Porter's measure m of `[C](VC)^m[V]`; -1 for no word at all. */
function measure(word: string | null): number {
  if (!word) return -1;
  return groups(word).replace(/^C/, '').replace(/V$/, '').length / 2;
}

function hasVowel(word: string): boolean {
  return groups(word).includes('V');
}

function endsWithDoubleConsonant(word: string): boolean {
  return /([^aeiou])\1$/.test(word);
}

/** Whether the word ends consonant-vowel-consonant, the last consonant not w, x or y (`*o`). */
function endsCvc(word: string): boolean {
  return letters(word).endsWith('CVC') && /[^wxy]$/.test(word);
}

/** A suffix rule: `suffix` becomes `replacement`. */
type Rule = readonly [suffix: string, replacement: string];

/**
 * Applies the rules in order to the word as rewritten by the rules before it. With `minMeasure`,
 * a rule applies only when its suffix ends the original word with a stem of measure > `minMeasure`.
 */
function applyRules(word: string, rules: readonly Rule[], minMeasure?: number): string {
  let result = word;
  for (const [suffix, replacement] of rules) {
    if (minMeasure !== undefined && (!word.endsWith(suffix) || measure(word.slice(0, -suffix.length)) <= minMeasure)) continue;
    if (!result.endsWith(suffix)) continue;
    const rewritten = result.slice(0, -suffix.length) + replacement;
    if (rewritten) result = rewritten;
  }
  return result;
}

function step1a(word: string): string {
  if (/(ss|i)es$/.test(word)) return word.slice(0, -2);
  if (word.endsWith('s') && word.at(-2) !== 's' && word.length > 2) return word.slice(0, -1);
  return word;
}

const STEP1B_RULES: readonly Rule[] = [
  ['at', 'ate'],
  ['bl', 'ble'],
  ['iz', 'ize'],
];

function step1b(word: string): string {
  if (word.endsWith('eed')) return measure(word.slice(0, -3)) > 0 ? word.slice(0, -1) : word;
  const suffix = /(ed|ing)$/.exec(word)?.[0];
  if (suffix === undefined) return word;
  const stem = word.slice(0, -suffix.length);
  if (!stem || !hasVowel(stem)) return word;
  const fixed = applyRules(stem, STEP1B_RULES);
  if (fixed !== stem) return fixed;
  if (endsWithDoubleConsonant(stem) && /[^lsz]$/.test(stem)) return stem.slice(0, -1);
  if (measure(stem) === 1 && endsCvc(stem)) return stem + 'e';
  return stem;
}

function step1c(word: string): string {
  return word.endsWith('y') && groups(word).slice(0, -1).includes('V') ? word.slice(0, -1) + 'i' : word;
}

const STEP2_RULES: readonly Rule[] = [
  ['ational', 'ate'],
  ['tional', 'tion'],
  ['enci', 'ence'],
  ['anci', 'ance'],
  ['izer', 'ize'],
  ['abli', 'able'],
  ['bli', 'ble'],
  ['alli', 'al'],
  ['entli', 'ent'],
  ['eli', 'e'],
  ['ousli', 'ous'],
  ['ization', 'ize'],
  ['ation', 'ate'],
  ['ator', 'ate'],
  ['alism', 'al'],
  ['iveness', 'ive'],
  ['fulness', 'ful'],
  ['ousness', 'ous'],
  ['aliti', 'al'],
  ['iviti', 'ive'],
  ['biliti', 'ble'],
  ['logi', 'log'],
];

const STEP3_RULES: readonly Rule[] = [
  ['icate', 'ic'],
  ['ative', ''],
  ['alize', 'al'],
  ['iciti', 'ic'],
  ['ical', 'ic'],
  ['ful', ''],
  ['ness', ''],
];

const STEP4_SUFFIX = /^(.+?)(al|ance|ence|er|ic|able|ible|ant|ement|ment|ent|ou|ism|ate|iti|ous|ive|ize)$/;
const STEP4_ION = /^(.+?)(s|t)ion$/;

function step4(word: string): string {
  const suffix = STEP4_SUFFIX.exec(word);
  if (suffix && measure(suffix[1]!) > 1) return suffix[1]!;
  const ion = STEP4_ION.exec(word);
  if (ion && measure(ion[1]! + ion[2]!) > 1) return ion[1]! + ion[2]!;
  return word;
}

function step5a(word: string): string {
  const stem = word.replace(/e$/, '');
  const m = measure(stem);
  const kinds = letters(word);
  const start = Math.max(0, kinds.length - 4);
  const cvcBeforeE = kinds.slice(start, start + 3) === 'CVC' && /[^wxy].$/.test(word);
  return m > 1 || (m === 1 && !cvcBeforeE) ? stem : word;
}

function step5b(word: string): string {
  return measure(word) > 1 ? word.replace(/ll$/, 'l') : word;
}

/** The Porter stem of a token (lower-cased first); tokens shorter than three letters are kept. */
export function porterStem(token: string): string {
  if (token.length < 3) return token;
  let word = token.toLowerCase();
  word = step1c(step1b(step1a(word)));
  word = applyRules(word, STEP2_RULES, 0);
  word = applyRules(word, STEP3_RULES, 0);
  return step5b(step5a(step4(word)));
}
