/**
 * The shell's input line, edited with readline's (emacs mode) keys: moves by character and word,
 * Backspace/Delete, Ctrl-W/U/K cutting into a kill buffer that Ctrl-Y pastes, and an incremental
 * reverse history search (Ctrl-R). Pure state, no terminal: the ink app maps keys onto it.
 */

/** An input line with a cursor and a kill buffer. */
export class LineEditor {
  text = '';
  cursor = 0;
  private killed = '';

  /** Replaces the whole line (cursor at `at`, default the end). */
  set(text: string, at = text.length): void {
    this.text = text;
    this.cursor = Math.max(0, Math.min(at, text.length));
  }

  /** Inserts typed or pasted text at the cursor. */
  insert(text: string): void {
    this.text = this.text.slice(0, this.cursor) + text + this.text.slice(this.cursor);
    this.cursor += text.length;
  }

  /** Backspace: deletes the character before the cursor. */
  deleteBackward(): void {
    if (this.cursor === 0) return;
    this.text = this.text.slice(0, this.cursor - 1) + this.text.slice(this.cursor);
    this.cursor--;
  }

  /** Delete (and Ctrl-D on a non-empty line): deletes the character under the cursor. */
  deleteForward(): void {
    this.text = this.text.slice(0, this.cursor) + this.text.slice(this.cursor + 1);
  }

  /** Left arrow / Ctrl-B. */
  left(): void {
    this.cursor = Math.max(0, this.cursor - 1);
  }

  /** Right arrow / Ctrl-F. */
  right(): void {
    this.cursor = Math.min(this.text.length, this.cursor + 1);
  }

  /** Home / Ctrl-A. */
  home(): void {
    this.cursor = 0;
  }

  /** End / Ctrl-E. */
  end(): void {
    this.cursor = this.text.length;
  }

  /** Alt-B: to the start of the previous word. */
  wordLeft(): void {
    this.cursor = previousWordStart(this.text, this.cursor);
  }

  /** Alt-F: past the end of the next word. */
  wordRight(): void {
    let at = this.cursor;
    while (at < this.text.length && !isWordChar(this.text[at]!)) at++;
    while (at < this.text.length && isWordChar(this.text[at]!)) at++;
    this.cursor = at;
  }

  /** Ctrl-W: cuts the whitespace-delimited word before the cursor (as readline's unix-word-rubout). */
  cutWordBackward(): void {
    let at = this.cursor;
    while (at > 0 && /\s/.test(this.text[at - 1]!)) at--;
    while (at > 0 && !/\s/.test(this.text[at - 1]!)) at--;
    this.cut(at, this.cursor);
  }

  /** Ctrl-U: cuts from the start of the line to the cursor. */
  cutToStart(): void {
    this.cut(0, this.cursor);
  }

  /** Ctrl-K: cuts from the cursor to the end of the line. */
  cutToEnd(): void {
    this.cut(this.cursor, this.text.length);
  }

  /** Ctrl-Y: pastes the last cut text at the cursor. */
  yank(): void {
    this.insert(this.killed);
  }

  private cut(from: number, to: number): void {
    if (to <= from) return;
    this.killed = this.text.slice(from, to);
    this.text = this.text.slice(0, from) + this.text.slice(to);
    this.cursor = from;
  }
}

/** Ctrl-R: an incremental search backwards through the history, newest first. */
export class HistorySearch {
  query = '';
  /** Index of the entry shown, or null when nothing matches. */
  index: number | null = null;

  constructor(private readonly entries: readonly string[]) {}

  /** The entry shown (one line), or '' when nothing matches. */
  get match(): string {
    return this.index === null ? '' : oneLine(this.entries[this.index]!);
  }

  /** The prompt readline shows while searching. */
  get prompt(): string {
    return `(${this.index === null && this.query !== '' ? 'failed ' : ''}reverse-i-search)'${this.query}': `;
  }

  /** Extends the query and finds the newest entry (at or before the current one) containing it. */
  type(text: string): void {
    this.query += text;
    this.find(this.index ?? this.entries.length - 1);
  }

  /** Shortens the query and searches again from the newest entry. */
  deleteBackward(): void {
    this.query = this.query.slice(0, -1);
    this.find(this.entries.length - 1);
  }

  /** Ctrl-R again: the next older entry containing the query. */
  older(): void {
    if (this.index === null) return;
    const current = this.index;
    this.find(current - 1);
    if (this.index === null) this.index = current;
  }

  private find(from: number): void {
    for (let i = from; i >= 0; i--) {
      if (this.entries[i]!.includes(this.query)) {
        this.index = i;
        return;
      }
    }
    this.index = null;
  }
}

/** A history entry shown on one input line. */
export function oneLine(entry: string): string {
  return entry.replace(/\s*\n\s*/g, ' ');
}

function isWordChar(c: string): boolean {
  return /[\p{L}\p{N}_$]/u.test(c);
}

function previousWordStart(text: string, from: number): number {
  let at = from;
  while (at > 0 && !isWordChar(text[at - 1]!)) at--;
  while (at > 0 && isWordChar(text[at - 1]!)) at--;
  return at;
}

/**
 * The keys of an input chunk that holds several (keys typed or sent faster than the shell reads
 * them, e.g. over a slow link): each control character on its own, text runs together; null when
 * the chunk is one key or plain text (a paste, whose line breaks submit lines).
 */
export function splitKeyBurst(chunk: string): string[] | null {
  // eslint-disable-next-line no-control-regex
  if (chunk.length < 2 || chunk.startsWith('\x1b') || !/[\x00-\x08\x0b-\x0c\x0e-\x1f\x7f]/.test(chunk)) return null;
  // eslint-disable-next-line no-control-regex
  return chunk.match(/[\x00-\x1f\x7f]|[^\x00-\x1f\x7f]+/g);
}
