/**
 * The outcome of each write acknowledged with 202 by the write-behind path, readable by the
 * principal that sent it (or an admin) at `GET /db/{db}/tx/writes/{id}`: `queued` until it is
 * flushed, then `flushed` with the commit's version and bookmark, or `failed` with the Neo4j
 * status code and message of the error that stopped it. A request's statements share one id: it
 * is `failed` as soon as one of them fails, `flushed` once all of them are written.
 *
 * Only the most recent `capacity` writes are kept (`async_writes.status_capacity`, oldest evicted first), so the registry stays
 * bounded however many writes are accepted; an evicted id reads as unknown.
 */
import { randomUUID } from 'node:crypto';

/** What a client reads about one acknowledged write. */
export type WriteState =
  | { readonly state: 'queued' }
  | { readonly state: 'flushed'; readonly version: string; readonly bookmark: string }
  | { readonly state: 'failed'; readonly code: string; readonly message: string };

interface WriteRecord {
  readonly database: string;
  /** The principal that sent the write; null when authentication is disabled. */
  readonly owner: string | null;
  /** Statements not yet written. */
  remaining: number;
  /** The newest bookmark among its written statements. */
  bookmark: string | null;
  failure: { readonly code: string; readonly message: string } | null;
}

/** Bounded registry of acknowledged writes and their outcomes. */
export class WriteStatuses {
  private readonly records = new Map<string, WriteRecord>();

  /** `capacity`: how many recent outcomes are kept (setting `async_writes.status_capacity`). */
  constructor(private readonly capacity: number) {}

  /** Registers a write of `statements` statements and returns its id. */
  accept(database: string, owner: string | null, statements: number): string {
    const id = randomUUID();
    this.records.set(id, { database, owner, remaining: statements, bookmark: null, failure: null });
    while (this.records.size > this.capacity) this.records.delete(this.records.keys().next().value!);
    return id;
  }

  /** Records that one statement of write `id` was committed with `bookmark`. */
  written(id: string, bookmark: string | null): void {
    const record = this.records.get(id);
    if (record === undefined) return;
    record.remaining--;
    if (bookmark !== null) record.bookmark = bookmark;
  }

  /** Records that one statement of write `id` failed; the first failure is the one reported. */
  failed(id: string, code: string, message: string): void {
    const record = this.records.get(id);
    if (record === undefined) return;
    record.remaining--;
    record.failure ??= { code, message };
  }

  /**
   * The state of write `id` on `database` as `principal` may see it: null when unknown, evicted,
   * on another database, or sent by someone else (unless `admin`).
   */
  read(id: string, database: string, principal: string | null, admin: boolean): WriteState | null {
    const record = this.records.get(id);
    if (record === undefined || record.database !== database) return null;
    if (!admin && record.owner !== principal) return null;
    if (record.failure !== null) return { state: 'failed', ...record.failure };
    if (record.remaining > 0 || record.bookmark === null) return { state: 'queued' };
    return { state: 'flushed', version: versionOf(record.bookmark), bookmark: record.bookmark };
  }

  /** Number of outcomes held. */
  get size(): number {
    return this.records.size;
  }
}

/** The commit version a bookmark (`graphdb:{database}:{version}`) names. */
function versionOf(bookmark: string): string {
  return bookmark.slice(bookmark.lastIndexOf(':') + 1);
}
