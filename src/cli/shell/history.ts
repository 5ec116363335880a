/**
 * Statement history persisted across shell runs: one JSON string per line in the history file
 * (default `~/.graphdb/history`), newest last, capped at 1000 entries.
 */
import { appendFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';

const MAX_ENTRIES = 1000;

/** The default history file. */
export function defaultHistoryFile(): string {
  return process.env.GRAPHDB_HISTORY ?? join(homedir(), '.graphdb', 'history');
}

/** A persistent list of entered statements. */
export class History {
  readonly entries: string[];

  constructor(private readonly file: string | null) {
    this.entries = file !== null && existsSync(file) ? parse(readFileSync(file, 'utf8')) : [];
    if (file !== null && this.entries.length > MAX_ENTRIES) {
      this.entries.splice(0, this.entries.length - MAX_ENTRIES);
      writeFileSync(file, this.entries.map((e) => JSON.stringify(e)).join('\n') + '\n');
    }
  }

  /** Appends an entry (consecutive duplicates are kept once). */
  add(entry: string): void {
    const text = entry.trim();
    if (text === '' || this.entries[this.entries.length - 1] === text) return;
    this.entries.push(text);
    if (this.file === null) return;
    mkdirSync(dirname(this.file), { recursive: true });
    appendFileSync(this.file, JSON.stringify(text) + '\n');
  }
}

function parse(content: string): string[] {
  const out: string[] = [];
  for (const line of content.split('\n')) {
    if (line.trim() === '') continue;
    try {
      const value = JSON.parse(line) as unknown;
      if (typeof value === 'string') out.push(value);
    } catch {
      out.push(line);
    }
  }
  return out;
}
