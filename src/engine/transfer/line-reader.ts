/**
 * Streams the lines of a text file (UTF-8, `\n` or `\r\n`) with 1-based line numbers, keeping
 * memory flat whatever the file size. A `.gz` file is decompressed on the fly and `-` reads
 * standard input. `bytesRead` tracks progress (in bytes of the file as stored).
 *
 * `batches()` yields the lines of each 16 KiB chunk together (one await per chunk instead of one
 * per line: what the JSON Lines import uses); `lines()` yields them one by one; `chunks()` yields
 * the bytes (what the CSV reader parses).
 */
import { createReadStream, statSync } from 'node:fs';
import type { Readable } from 'node:stream';
import { StringDecoder } from 'node:string_decoder';
import { createGunzip } from 'node:zlib';

/** One line of input. */
export interface InputLine {
  readonly text: string;
  readonly line: number;
}

/** Bytes per chunk: a chunk is parsed in one synchronous step (16 KiB of short CSV records: a few ms). */
const CHUNK_BYTES = 1 << 14;

/** Reads a file line by line. */
export class LineReader {
  /** Size of the file as stored (0 for standard input: unknown). */
  readonly totalBytes: number;
  private stream: ReturnType<typeof createReadStream> | null = null;
  private stdinBytes = 0;

  constructor(readonly file: string) {
    this.totalBytes = file === '-' ? 0 : statSync(file).size;
  }

  /** Bytes consumed from the file so far. */
  get bytesRead(): number {
    return this.stream?.bytesRead ?? this.stdinBytes;
  }

  /** The decoded byte stream: the file, gunzipped when it ends in `.gz`, or standard input. */
  private open(): Readable {
    if (this.file === '-') return process.stdin;
    this.stream = createReadStream(this.file, { highWaterMark: CHUNK_BYTES });
    return this.file.toLowerCase().endsWith('.gz') ? this.stream.pipe(createGunzip({ chunkSize: CHUNK_BYTES })) : this.stream;
  }

  /** The bytes, decompressed, a chunk at a time (what the CSV reader parses). */
  async *chunks(): AsyncGenerator<Buffer> {
    const input = this.open();
    try {
      for await (const chunk of input) {
        if (input === process.stdin) this.stdinBytes += (chunk as Buffer).length;
        yield chunk as Buffer;
      }
    } finally {
      if (input !== process.stdin) input.destroy();
      this.stream?.destroy();
    }
  }

  /** The lines, in order, a chunk's worth at a time (line texts without `\r\n`/`\n`, BOM removed). */
  async *batches(): AsyncGenerator<InputLine[]> {
    const decoder = new StringDecoder('utf8');
    let carry = '';
    let line = 0;
    const cut = (text: string, final: boolean): InputLine[] => {
      const out: InputLine[] = [];
      let start = 0;
      for (;;) {
        const newline = text.indexOf('\n', start);
        if (newline < 0) break;
        const end = newline > start && text.charCodeAt(newline - 1) === 13 ? newline - 1 : newline;
        out.push({ text: text.slice(start, end), line: ++line });
        start = newline + 1;
      }
      carry = text.slice(start);
      if (final && carry !== '') {
        out.push({ text: carry.endsWith('\r') ? carry.slice(0, -1) : carry, line: ++line });
        carry = '';
      }
      if (out.length > 0 && out[0]!.line === 1 && out[0]!.text.charCodeAt(0) === 0xfeff) out[0] = { text: out[0]!.text.slice(1), line: 1 };
      return out;
    };
    for await (const chunk of this.chunks()) {
      const lines = cut(carry + decoder.write(chunk), false);
      if (lines.length > 0) yield lines;
    }
    const rest = cut(carry + decoder.end(), true);
    if (rest.length > 0) yield rest;
  }

  /** The lines, in order. */
  async *lines(): AsyncGenerator<InputLine> {
    for await (const batch of this.batches()) yield* batch;
  }
}
