/**
 * Shared, per-database state every reader and writer of that database uses.
 */
import type { Tokens } from '../catalog/tokens.js';

/** Caches decoded label sets: the `labels` column text ("3,7") -> label names. */
export class LabelSetCache {
  private readonly cache = new Map<string, readonly string[]>();

  constructor(private readonly tokens: Tokens) {}

  /** Label names of a `labels` column value. */
  names(text: string): readonly string[] {
    let names = this.cache.get(text);
    if (names === undefined) {
      names = text === '' ? [] : text.split(',').map((id) => this.tokens.labels.nameOf(Number(id)));
      if (this.cache.size > 10000) this.cache.clear();
      this.cache.set(text, names);
    }
    return names;
  }

  /** Label ids of a `labels` column value. */
  static ids(text: string): number[] {
    return text === '' ? [] : text.split(',').map(Number);
  }

  /** The column text of label ids. */
  static text(ids: readonly number[]): string {
    return ids.join(',');
  }

  /** Forgets everything (after a rollback removed tokens). */
  clear(): void {
    this.cache.clear();
  }
}

/** Identity and shared caches of one database. */
export interface StoreContext {
  readonly databaseName: string;
  readonly uuid: string;
  readonly tokens: Tokens;
  readonly labelSets: LabelSetCache;
}
