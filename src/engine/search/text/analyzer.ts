/**
 * Text analysis for full-text search: split into word tokens, lower-case, then Porter-stem.
 * The same analyzer runs at index time and at query time, so a query for "running" matches a
 * document containing "runs". Numbers are kept as tokens; punctuation separates tokens.
 */
import PorterStemmer from 'natural/lib/natural/stemmers/porter_stemmer.js';

/** Unicode letters and digits, with inner apostrophes kept ("don't" stays one token). */
const WORD = /[\p{L}\p{N}]+(?:['’][\p{L}\p{N}]+)*/gu;

/** Longest token indexed; longer runs are usually base64 or hashes, not words. */
const MAX_TOKEN_LENGTH = 64;

/** Turns text into the lower-cased, unstemmed word tokens it contains, in order. */
export function tokenize(text: string): string[] {
  const tokens: string[] = [];
  for (const match of text.matchAll(WORD)) {
    const token = match[0].toLowerCase().replace(/['’]/g, '');
    if (token.length > 0 && token.length <= MAX_TOKEN_LENGTH) tokens.push(token);
  }
  return tokens;
}

/** Stems one lower-cased token (Porter). Tokens with digits are kept as they are. */
export function stem(token: string): string {
  if (/\d/.test(token)) return token;
  return PorterStemmer.stem(token);
}

/** Tokenizes and stems: the terms a text contributes to the index, in order (positions matter for phrases). */
export function analyze(text: string): string[] {
  return tokenize(text).map(stem);
}
