/**
 * Splits Cypher script text into statements at `;` outside string literals, quoted names and
 * comments, keeping each statement's starting line for error reports. The shell uses the same
 * scanner to decide whether typed input is complete (ends with `;`).
 */

/** One statement of a script. */
export interface ScriptStatement {
  readonly text: string;
  /** 1-based line of the statement's first character of code (after blank lines and comments). */
  readonly line: number;
}

/** Incremental statement splitter: feed text, take complete statements, keep the rest. */
export class StatementSplitter {
  private buffer = '';
  private bufferLine = 1;
  private state: 'code' | 'single' | 'double' | 'backtick' | 'line-comment' | 'block-comment' = 'code';
  private scanned = 0;

  /** Appends text (typically one line plus `\n`). */
  push(text: string): void {
    this.buffer += text;
  }

  /** True when unterminated text (other than blanks and comments) is pending. */
  get hasPending(): boolean {
    return stripComments(this.buffer).trim() !== '';
  }

  /** The pending text. */
  get pending(): string {
    return this.buffer;
  }

  /** Removes and returns every complete statement buffered so far. */
  take(): ScriptStatement[] {
    const out: ScriptStatement[] = [];
    const text = this.buffer;
    let start = 0;
    for (let i = this.scanned; i < text.length; i++) {
      const c = text[i]!;
      switch (this.state) {
        case 'code':
          if (c === "'") this.state = 'single';
          else if (c === '"') this.state = 'double';
          else if (c === '`') this.state = 'backtick';
          else if (c === '/' && text[i + 1] === '/') this.state = 'line-comment';
          else if (c === '/' && text[i + 1] === '*') {
            this.state = 'block-comment';
            i++;
          } else if (c === ';') {
            const statement = text.slice(start, i);
            const lead = leadingBlankLines(statement);
            if (stripComments(statement).trim() !== '') {
              out.push({ text: statement.trim(), line: this.bufferLine + countLines(text, 0, start) + lead });
            }
            start = i + 1;
          }
          break;
        case 'single':
        case 'double':
          if (c === '\\') i++;
          else if ((c === "'" && this.state === 'single') || (c === '"' && this.state === 'double')) this.state = 'code';
          break;
        case 'backtick':
          if (c === '`') this.state = 'code';
          break;
        case 'line-comment':
          if (c === '\n') this.state = 'code';
          break;
        case 'block-comment':
          if (c === '*' && text[i + 1] === '/') {
            this.state = 'code';
            i++;
          }
          break;
      }
    }
    this.bufferLine += countLines(text, 0, start);
    this.buffer = text.slice(start);
    this.scanned = this.buffer.length;
    return out;
  }

  /** Returns the unterminated rest (a final statement without `;`) and clears the buffer. */
  flush(): ScriptStatement | null {
    const rest = this.buffer;
    const line = this.bufferLine + leadingBlankLines(rest);
    this.buffer = '';
    this.scanned = 0;
    this.state = 'code';
    return stripComments(rest).trim() === '' ? null : { text: rest.trim(), line };
  }

  /** Drops pending text. */
  clear(): void {
    this.buffer = '';
    this.scanned = 0;
    this.state = 'code';
  }
}

function countLines(text: string, from: number, to: number): number {
  let n = 0;
  for (let i = from; i < to; i++) if (text.charCodeAt(i) === 10) n++;
  return n;
}

/** Lines before the statement's first character of code (blank lines and comments skipped). */
function leadingBlankLines(text: string): number {
  const lead = /^(?:\s+|\/\/[^\n]*|\/\*[\s\S]*?\*\/)*/.exec(text)![0];
  return lead.length === text.length ? 0 : countLines(text, 0, lead.length);
}

/** A statement's text from its first character of code (blank space and comments before it removed). */
export function withoutLeadingComments(text: string): string {
  return text.slice(/^(?:\s+|\/\/[^\n]*|\/\*[\s\S]*?\*\/)*/.exec(text)![0].length);
}

/** Removes `//` and block comments (outside quotes) for emptiness checks. */
function stripComments(text: string): string {
  return text.replace(
    /('(?:\\.|[^'\\])*'|"(?:\\.|[^"\\])*"|`[^`]*`)|\/\/[^\n]*|\/\*[\s\S]*?(?:\*\/|$)/g,
    (_m, quoted: string | undefined) => quoted ?? '',
  );
}

/** Splits a complete script; a last statement without `;` is included. */
export function splitStatements(script: string): ScriptStatement[] {
  const splitter = new StatementSplitter();
  splitter.push(script);
  const statements = splitter.take();
  const rest = splitter.flush();
  if (rest !== null) statements.push(rest);
  return statements;
}
