/**
 * Streams the lines of a text file (UTF-8, `\n` or `\r\n`) with 1-based line numbers, keeping
 * memory flat whatever the file size. `bytesRead` tracks progress.
 */
import { createReadStream, statSync } from 'node:fs';
import { createInterface } from 'node:readline';

/** One line of input. */
export interface InputLine {
  readonly text: string;
  readonly line: number;
}

/** Reads a file line by line. */
export class LineReader {
  readonly totalBytes: number;
  private stream: ReturnType<typeof createReadStream> | null = null;

  constructor(readonly file: string) {
    this.totalBytes = statSync(file).size;
  }

  /** Bytes consumed from the file so far. */
  get bytesRead(): number {
    return this.stream?.bytesRead ?? 0;
  }

  /** The lines, in order. */
  async *lines(): AsyncGenerator<InputLine> {
    this.stream = createReadStream(this.file, { encoding: 'utf8', highWaterMark: 1 << 20 });
    const reader = createInterface({ input: this.stream, crlfDelay: Infinity });
    let line = 0;
    try {
      for await (const text of reader) {
        line++;
        yield { text: line === 1 && text.charCodeAt(0) === 0xfeff ? text.slice(1) : text, line };
      }
    } finally {
      reader.close();
      this.stream.destroy();
    }
  }
}
