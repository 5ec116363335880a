/**
 * String metrics and phonetic codes for apoc.text: Levenshtein, Hamming, Jaro-Winkler,
 * Sørensen-Dice, Soundex (phonetic) and Double Metaphone (primary code).
 */

/** Levenshtein edit distance (by code point). */
export function levenshtein(a: string, b: string): number {
  const s = [...a];
  const t = [...b];
  let prev = Array.from({ length: t.length + 1 }, (_, i) => i);
  for (let i = 1; i <= s.length; i++) {
    const cur = [i];
    for (let j = 1; j <= t.length; j++) cur[j] = Math.min(prev[j]! + 1, cur[j - 1]! + 1, prev[j - 1]! + (s[i - 1] === t[j - 1] ? 0 : 1));
    prev = cur;
  }
  return prev[t.length]!;
}

/** Jaro-Winkler similarity (Apache commons-text's JaroWinklerSimilarity). */
export function jaroWinkler(a: string, b: string): number {
  if (a === b) return 1;
  const [longer, shorter] = a.length >= b.length ? [a, b] : [b, a];
  const range = Math.max(Math.floor(longer.length / 2) - 1, 0);
  const matchedShort: boolean[] = [];
  const matchedLong: boolean[] = [];
  let matches = 0;
  for (let i = 0; i < shorter.length; i++) {
    for (let j = Math.max(0, i - range); j < Math.min(longer.length, i + range + 1); j++) {
      if (!matchedLong[j] && shorter[i] === longer[j]) {
        matchedShort[i] = matchedLong[j] = true;
        matches++;
        break;
      }
    }
  }
  if (matches === 0) return 0;
  const ms1 = [...shorter].filter((_, i) => matchedShort[i]);
  const ms2 = [...longer].filter((_, j) => matchedLong[j]);
  let transpositions = 0;
  for (let i = 0; i < ms1.length; i++) if (ms1[i] !== ms2[i]) transpositions++;
  let prefix = 0;
  for (let i = 0; i < Math.min(4, shorter.length) && a[i] === b[i]; i++) prefix++;
  const m = matches;
  const jaro = (m / a.length + m / b.length + (m - transpositions / 2) / m) / 3;
  return jaro < 0.7 ? jaro : jaro + Math.min(0.1, 1 / longer.length) * prefix * (1 - jaro);
}

/** Sørensen-Dice coefficient over character bigrams (case-insensitive). */
export function sorensenDice(a: string, b: string): number {
  const bigrams = (s: string) => {
    const out = new Map<string, number>();
    const t = s.toLowerCase();
    for (let i = 0; i < t.length - 1; i++) out.set(t.slice(i, i + 2), (out.get(t.slice(i, i + 2)) ?? 0) + 1);
    return out;
  };
  if (a === b) return 1;
  const x = bigrams(a);
  const y = bigrams(b);
  const total = [...x.values()].reduce((s, n) => s + n, 0) + [...y.values()].reduce((s, n) => s + n, 0);
  if (total === 0) return 0;
  let common = 0;
  for (const [k, n] of x) common += Math.min(n, y.get(k) ?? 0);
  return (2 * common) / total;
}

const SOUNDEX: Record<string, string> = {
  B: '1',
  F: '1',
  P: '1',
  V: '1',
  C: '2',
  G: '2',
  J: '2',
  K: '2',
  Q: '2',
  S: '2',
  X: '2',
  Z: '2',
  D: '3',
  T: '3',
  L: '4',
  M: '5',
  N: '5',
  R: '6',
};

/** American Soundex (commons-codec): letter plus three digits. */
export function soundex(text: string): string {
  const s = text.toUpperCase().replace(/[^A-Z]/g, '');
  if (s === '') return '';
  let out = s[0]!;
  let last = SOUNDEX[s[0]!] ?? '';
  for (let i = 1; i < s.length && out.length < 4; i++) {
    const ch = s[i]!;
    const code = SOUNDEX[ch] ?? '';
    if (code !== '' && code !== last) out += code;
    if (ch !== 'H' && ch !== 'W') last = code;
  }
  return out.padEnd(4, '0');
}

const VOWELS = new Set(['A', 'E', 'I', 'O', 'U', 'Y']);

/** Double Metaphone primary code (the common rules of Lawrence Philips' algorithm), four characters. */
export function doubleMetaphone(text: string): string {
  const s = text.toUpperCase().replace(/[^A-Z]/g, '');
  if (s === '') return '';
  let out = '';
  let i = 0;
  const at = (k: number) => s[k] ?? '';
  if (['GN', 'KN', 'PN', 'WR', 'PS'].includes(s.slice(0, 2))) i = 1;
  if (s[0] === 'X') {
    out += 'S';
    i = 1;
  }
  while (i < s.length && out.length < 4) {
    const c = s[i]!;
    if (VOWELS.has(c)) {
      if (i === 0) out += 'A';
      i++;
      continue;
    }
    switch (c) {
      case 'B':
        out += 'P';
        i += at(i + 1) === 'B' ? 2 : 1;
        break;
      case 'C':
        if (at(i + 1) === 'H') {
          out += 'X';
          i += 2;
        } else if ('IEY'.includes(at(i + 1)) && at(i + 1) !== '') {
          out += 'S';
          i += 2;
        } else {
          out += 'K';
          i += at(i + 1) === 'C' || at(i + 1) === 'K' || at(i + 1) === 'Q' ? 2 : 1;
        }
        break;
      case 'D':
        if (at(i + 1) === 'G' && 'IEY'.includes(at(i + 2)) && at(i + 2) !== '') {
          out += 'J';
          i += 3;
        } else {
          out += 'T';
          i += at(i + 1) === 'T' || at(i + 1) === 'D' ? 2 : 1;
        }
        break;
      case 'G':
        if (at(i + 1) === 'H') {
          out += i > 0 && !VOWELS.has(at(i - 1)) ? 'K' : 'F';
          i += 2;
        } else if (at(i + 1) === 'N') {
          out += 'N';
          i += 2;
        } else if ('IEY'.includes(at(i + 1)) && at(i + 1) !== '') {
          out += 'J';
          i += 2;
        } else {
          out += 'K';
          i += at(i + 1) === 'G' ? 2 : 1;
        }
        break;
      case 'H':
        if ((i === 0 || VOWELS.has(at(i - 1))) && VOWELS.has(at(i + 1))) out += 'H';
        i++;
        break;
      case 'J':
        out += 'J';
        i += at(i + 1) === 'J' ? 2 : 1;
        break;
      case 'K':
      case 'Q':
        out += 'K';
        i += at(i + 1) === c ? 2 : 1;
        break;
      case 'P':
        if (at(i + 1) === 'H') {
          out += 'F';
          i += 2;
        } else {
          out += 'P';
          i += at(i + 1) === 'P' || at(i + 1) === 'B' ? 2 : 1;
        }
        break;
      case 'S':
        if (at(i + 1) === 'H' || (at(i + 1) === 'I' && (at(i + 2) === 'O' || at(i + 2) === 'A'))) {
          out += 'X';
          i += at(i + 1) === 'H' ? 2 : 3;
        } else {
          out += 'S';
          i += at(i + 1) === 'S' || at(i + 1) === 'Z' ? 2 : 1;
        }
        break;
      case 'T':
        if (at(i + 1) === 'H') {
          out += '0';
          i += 2;
        } else if (at(i + 1) === 'I' && (at(i + 2) === 'O' || at(i + 2) === 'A')) {
          out += 'X';
          i += 3;
        } else {
          out += 'T';
          i += at(i + 1) === 'T' || at(i + 1) === 'D' ? 2 : 1;
        }
        break;
      case 'V':
        out += 'F';
        i += at(i + 1) === 'V' ? 2 : 1;
        break;
      case 'W':
        if (VOWELS.has(at(i + 1))) out += 'A';
        i++;
        break;
      case 'X':
        out += 'KS';
        i += at(i + 1) === 'X' ? 2 : 1;
        break;
      case 'Z':
        out += 'S';
        i += at(i + 1) === 'Z' ? 2 : 1;
        break;
      default:
        out += c;
        i += at(i + 1) === c ? 2 : 1;
    }
  }
  return out.slice(0, 4);
}
