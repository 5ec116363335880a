/**
 * Text analysis for full-text search: split into word tokens, lower-case, then Porter-stem.
 * The same analyzer runs at index time and at query time, so a query for "running" matches a
 * document containing "runs". Numbers are kept as tokens; punctuation separates tokens; an
 * apostrophe inside a word is dropped ("don't" -> "dont").
 */
import { porterStem } from './porter-stemmer.js';
import { ShardedMap, stringShard } from './sharded-map.js';

/** Longest token indexed; longer runs are usually base64 or hashes, not words. */
const MAX_TOKEN_LENGTH = 64;
const LETTER_OR_DIGIT = /[\p{L}\p{N}]/u;

function isWordChar(code: number, text: string, index: number): boolean {
  if (code < 0x80) {
    return (code >= 0x61 && code <= 0x7a) || (code >= 0x41 && code <= 0x5a) || (code >= 0x30 && code <= 0x39);
  }
  return LETTER_OR_DIGIT.test(text[index]!);
}

function isApostrophe(code: number): boolean {
  return code === 0x27 || code === 0x2019;
}

/** Turns text into the lower-cased, unstemmed word tokens it contains, in order. */
export function tokenize(text: string): string[] {
  const tokens: string[] = [];
  let start = -1;
  let parts = '';
  const flush = (end: number): void => {
    const token = (parts + text.slice(start, end)).toLowerCase();
    if (token.length > 0 && token.length <= MAX_TOKEN_LENGTH) tokens.push(token);
    start = -1;
    parts = '';
  };
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (isWordChar(code, text, i)) {
      if (start < 0) start = i;
    } else if (start >= 0 && isApostrophe(code) && i + 1 < text.length && isWordChar(text.charCodeAt(i + 1), text, i + 1)) {
      parts += text.slice(start, i);
      start = i + 1;
    } else if (start >= 0) {
      flush(i);
    }
  }
  if (start >= 0) flush(text.length);
  return tokens;
}

/** Stems are memoized: word frequencies are Zipfian, so a bounded cache removes most stemming work. */
const stemCache = new ShardedMap<string, string>(stringShard);
const STEM_CACHE_MAX = 200_000;

/** Stems one lower-cased token (Porter). Tokens with digits are kept as they are. */
export function stem(token: string): string {
  const cached = stemCache.get(token);
  if (cached !== undefined) return cached;
  const stemmed = /\d/.test(token) ? token : porterStem(token);
  if (stemCache.size >= STEM_CACHE_MAX) stemCache.clear();
  stemCache.set(token, stemmed);
  return stemmed;
}

/** Tokenizes and stems: the terms a text contributes to the index, in order (positions matter for phrases). */
export function analyze(text: string): string[] {
  return tokenize(text).map(stem);
}
