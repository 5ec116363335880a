/**
 * Tab completion: the word before the cursor is completed from keywords, functions and
 * procedures, or from labels and relationship types after `:`, property keys after `.`, or
 * commands after a leading `:`.
 */
import type { Vocabulary } from './client.js';
import { KEYWORDS } from './highlight.js';

const COMMANDS = [':begin', ':commit', ':rollback', ':use', ':param', ':params', ':format', ':history', ':help', ':exit'];

/** Result of a completion request. */
export interface Completion {
  /** The new input text and cursor position. */
  readonly text: string;
  readonly cursor: number;
  /** Candidates when the prefix is ambiguous (shown to the user). */
  readonly candidates: readonly string[];
}

function commonPrefix(words: readonly string[]): string {
  if (words.length === 0) return '';
  let prefix = words[0]!;
  for (const w of words) while (!w.toLowerCase().startsWith(prefix.toLowerCase())) prefix = prefix.slice(0, -1);
  return prefix;
}

/** Completes the word ending at `cursor` in `text`. */
export function complete(text: string, cursor: number, vocabulary: Vocabulary): Completion {
  const before = text.slice(0, cursor);
  if (/^\s*:\w*$/.test(before)) return apply(text, cursor, before.trimStart(), COMMANDS);
  const procedureCall = /\bCALL\s+[\w.]*$/i.test(before);
  const match = (procedureCall ? /([A-Za-z_][\w.]*)$/ : /([A-Za-z_]\w*)$/).exec(before);
  const word = match?.[1] ?? '';
  const start = cursor - word.length;
  const previous = before.slice(0, start).trimEnd().slice(-1);
  let pool: readonly string[];
  if (procedureCall) pool = vocabulary.procedures;
  else if (previous === ':') pool = [...vocabulary.labels, ...vocabulary.types];
  else if (before[start - 1] === '.') pool = vocabulary.propertyKeys;
  else pool = [...KEYWORDS, ...vocabulary.functions.map((f) => `${f}(`), ...vocabulary.procedures];
  if (word === '' && previous !== ':' && before[start - 1] !== '.' && !procedureCall) return { text, cursor, candidates: [] };
  return apply(text, cursor, word, pool);
}

function apply(text: string, cursor: number, word: string, pool: readonly string[]): Completion {
  const lower = word.toLowerCase();
  const matches = [...new Set(pool.filter((p) => p.toLowerCase().startsWith(lower)))].sort();
  if (matches.length === 0) return { text, cursor, candidates: [] };
  const keyword = (w: string) => KEYWORDS.includes(w);
  let replacement = matches.length === 1 ? matches[0]! : commonPrefix(matches);
  if (replacement.length < word.length) replacement = word;
  if (matches.length === 1 && keyword(replacement) && word === word.toLowerCase()) replacement = replacement.toLowerCase();
  else if (matches.length > 1) replacement = word + replacement.slice(word.length);
  const suffix = matches.length === 1 && !replacement.endsWith('(') ? ' ' : '';
  const start = cursor - word.length;
  const next = text.slice(0, start) + replacement + suffix + text.slice(cursor);
  return { text: next, cursor: start + replacement.length + suffix.length, candidates: matches.length > 1 ? matches : [] };
}
