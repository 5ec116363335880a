/** The query history: the last statements run, newest first, kept in localStorage. */

const KEY = 'graphdb.browser.history';
const LIMIT = 100;

/** History with a cursor for Up/Down navigation. */
export class QueryHistory {
  private entries: string[];
  /** -1 = not navigating (the editor holds a draft). */
  private cursor = -1;
  private draft = '';

  constructor(private readonly storage: Storage = localStorage) {
    try {
      const stored = JSON.parse(storage.getItem(KEY) ?? '[]') as unknown;
      this.entries = Array.isArray(stored) ? stored.filter((e): e is string => typeof e === 'string') : [];
    } catch {
      this.entries = [];
    }
  }

  /** The entries, newest first. */
  list(): readonly string[] {
    return this.entries;
  }

  /** Records a run (moved to the front when already present). */
  add(text: string): void {
    const trimmed = text.trim();
    if (trimmed === '') return;
    this.entries = [trimmed, ...this.entries.filter((e) => e !== trimmed)].slice(0, LIMIT);
    this.cursor = -1;
    this.storage.setItem(KEY, JSON.stringify(this.entries));
  }

  /** Moves back (-1, older) or forward (1, newer); returns the text to show, or null at an end. */
  step(direction: -1 | 1, current: string): string | null {
    if (this.cursor === -1) {
      if (direction === 1) return null;
      this.draft = current;
    }
    const next = this.cursor - direction;
    if (next >= this.entries.length) return null;
    if (next < 0) {
      this.cursor = -1;
      return this.draft;
    }
    this.cursor = next;
    return this.entries[next] ?? null;
  }

  clear(): void {
    this.entries = [];
    this.cursor = -1;
    this.storage.removeItem(KEY);
  }
}
