/**
 * The typed services listeners, the CLI and commands use on databases, so that none of them is
 * handed a store: existence and alias resolution, the data directory, element ids, the schema
 * vocabulary, size figures, MVCC status and pruning, and the MVCC lifecycle service of the admin
 * routes. Graph reads go through sessions (Cypher); nothing here hands out a storage reader.
 * `GraphDB.databaseServices` is the one instance of an engine.
 */
import { DatabaseNotFound } from './errors/index.js';
import { MvccLifecycleService, type LifecycleServiceOptions } from './mvcc/lifecycle/index.js';
import { parseElementId } from './storage/element-id.js';
import type { MvccStatus, PruneOptions, PruneResult } from './storage/index.js';
import type { DatabaseStats } from './storage/database-store.js';
import type { StorageEngine } from './storage/storage-engine.js';

/** The names a database uses (shell completion). */
export interface Vocabulary {
  readonly labels: readonly string[];
  readonly relationshipTypes: readonly string[];
  readonly propertyKeys: readonly string[];
}

/** Options of the MVCC lifecycle service: the engine supplies the stores; `admit` may refuse a database first. */
export interface LifecycleOptions extends Omit<LifecycleServiceOptions, 'store' | 'freeBytes'> {
  /** Throws when the caller may not act on `database` (runs before the database is looked up). */
  readonly admit?: (database: string) => void;
  /** Free bytes of the data directory. */
  readonly freeBytes: (dataDir: string) => number;
}

/** Database services of one engine. */
export class DatabaseServices {
  constructor(
    private readonly storage: StorageEngine,
    private readonly assertOpen: () => void,
  ) {}

  /** The data directory (one SQLite file per database). */
  get dataDir(): string {
    return this.storage.dataDir;
  }

  /** True when `name` (a database, an alias or a composite database) names a database. */
  exists(name: string): boolean {
    if (this.storage.directory.composites.isComposite(name)) return true;
    try {
      this.storage.database(name);
      return true;
    } catch (error) {
      if (error instanceof DatabaseNotFound) return false;
      throw error;
    }
  }

  /** True when `name` is a composite database (docs/composite-databases.md). */
  isComposite(name: string): boolean {
    return this.storage.directory.composites.isComposite(name);
  }

  /** The database an alias or database name resolves to (lower-case). */
  resolve(name: string): string {
    return this.storage.directory.resolve(name);
  }

  /** Throws DatabaseNotFound unless `name` names a database. */
  require(name: string): void {
    this.assertOpen();
    this.storage.database(name);
  }

  /**
   * The internal id of a node (`kind` 'node', element id `4:…`) or relationship ('relationship',
   * `5:…`) element id of `database`; null when it is malformed, of another kind or of another
   * database. Says nothing about whether the entity exists.
   */
  idOfElementId(database: string, elementId: string, kind: 'node' | 'relationship'): bigint | null {
    this.assertOpen();
    if (!elementId.startsWith(kind === 'node' ? '4:' : '5:')) return null;
    return parseElementId(elementId, this.storage.database(database).uuid);
  }

  /** Labels, relationship types and property keys of the last committed state of `database`. */
  vocabulary(database: string): Vocabulary {
    this.assertOpen();
    const reader = this.storage.database(database).beginRead();
    try {
      return { labels: reader.labels(), relationshipTypes: reader.relationshipTypes(), propertyKeys: reader.propertyKeys() };
    } finally {
      reader.close();
    }
  }

  /** The labels and relationship types some constraint of `database` covers (last committed state). */
  constrainedTokens(database: string): ReadonlySet<string> {
    this.assertOpen();
    const reader = this.storage.database(database).beginRead();
    try {
      return new Set(reader.constraints().flatMap((c) => c.labelsOrTypes));
    } finally {
      reader.close();
    }
  }

  /** Cheap size figures of a database (counts, file bytes, version): no snapshot is opened. */
  figures(database: string): DatabaseStats {
    this.assertOpen();
    return this.storage.database(database).stats();
  }

  /**
   * When a live node or relationship was created and last changed (commit times in epoch ms;
   * GraphQL `createdAt` / `updatedAt`); null when it does not exist.
   */
  entityTimestamps(
    database: string,
    kind: 'node' | 'relationship',
    id: bigint,
  ): { readonly createdAt: number | null; readonly updatedAt: number | null } | null {
    this.assertOpen();
    return this.storage.database(database).entityTimestamps(kind, id);
  }

  /** Node and relationship counts of the last committed state (committed counters; no file sizes). */
  counts(database: string): { readonly nodes: number; readonly relationships: number } {
    this.assertOpen();
    const reader = this.storage.database(database).beginRead();
    try {
      return { nodes: reader.countNodes(), relationships: reader.countRelationships() };
    } finally {
      reader.close();
    }
  }

  /** MVCC figures of a database (`graphdb mvcc status`). */
  mvccStatus(database: string): MvccStatus {
    this.assertOpen();
    return this.storage.database(database).mvccStatus();
  }

  /** Removes closed versions no reader pins (`graphdb mvcc prune`). */
  async prune(database: string, options: PruneOptions): Promise<PruneResult> {
    this.assertOpen();
    return this.storage.database(database).prune(options);
  }

  /** The MVCC lifecycle service (debt, pressure, scheduled pruning) over this engine's databases. */
  lifecycle(options: LifecycleOptions): MvccLifecycleService {
    const { admit, freeBytes, ...rest } = options;
    return new MvccLifecycleService({
      ...rest,
      store: (database) => {
        admit?.(database);
        return this.storage.database(database);
      },
      freeBytes: () => freeBytes(this.storage.dataDir),
    });
  }
}
