/**
 * The writing half of every import: takes parsed rows (nodes with an external id, relationships
 * between external ids) and writes them into one database through the storage bulk loader
 * (`storage/bulk-load.ts`: multi-row inserts, indexes built in sorted passes, one commit per batch).
 *
 * Atomicity: with `batchSize` 0 (the default) the whole import is one bulk load (one commit), so
 * a fatal error leaves the database exactly as it was. With `batchSize` N, every N rows commit
 * together; a fatal error rolls back the current batch only (earlier batches stay). A batch is
 * never half-written: a bad row is either skipped before it touches the batch (`skip`) or
 * rolls the batch back (`fail`). Uniqueness of node keys is checked per row (the row is reported
 * as file:line); relationship uniqueness and existence constraints fail the batch at its commit.
 *
 * External ids live in memory (`id-map.ts`: 8 bytes per small numeric id, a map entry for other
 * ids); rows themselves are streamed, relationships buffered (~30 bytes each) until the batch
 * commits.
 */
import { BulkLoader, type DatabaseStore } from '../storage/index.js';
import type { CypherMap } from '../values/types.js';
import { EntityNotFound, GraphError } from '../errors/index.js';
import { ExternalIds } from './id-map.js';
import { ExistingNodes, IdSpaceKeyError, notEmptyForFullImport } from './existing-nodes.js';
import type { IdType } from './csv-values.js';
import {
  CheckpointTracker,
  changedSince,
  ImportResumeError,
  nothingToResume,
  parseCheckpoints,
  parseDeltas,
  resumeRequired,
  unfinishedNote,
  type FoundCheckpoint,
  type ImportPosition,
} from './resume.js';

/**
 * How an import relates to what the database holds (neo4j-admin's modes): `full` needs an empty
 * database; `incremental` adds to it, nodes of the files being identified in the database by their
 * id space's key (a label and a uniquely constrained id property), so relationship files may refer
 * to nodes already there and an entry already there is a duplicate, never written twice.
 */
export type ImportMode = 'full' | 'incremental';

/** What to do with a bad row. */
export type OnError = 'skip' | 'fail';

/** Where a row came from, for error reports (`file:line`). */
export interface RowOrigin {
  readonly file: string;
  readonly line: number;
}

/** A rejected row. */
export interface ImportRowError extends RowOrigin {
  readonly message: string;
}

/** Progress of a running import (bytes of the input files). */
export interface ImportProgress {
  readonly bytesRead: number;
  readonly totalBytes: number;
  readonly nodes: number;
  readonly relationships: number;
  readonly errors: number;
  /** Batches committed (a batched import). */
  readonly batches: number;
  readonly elapsedMs: number;
}

/** Outcome of an import. */
export interface ImportSummary {
  readonly database: string;
  readonly nodes: number;
  readonly relationships: number;
  readonly properties: number;
  readonly labels: number;
  readonly skipped: number;
  readonly errors: readonly ImportRowError[];
  readonly durationMs: number;
  /** False when a fatal error stopped the import (nothing of the failing batch was kept). */
  readonly completed: boolean;
  readonly batchesCommitted: number;
  /** A failed batched import whose committed batches are recorded: where `resume` continues. */
  readonly resumable?: ImportPosition & { readonly batches: number };
  /** A Cypher script import: true when every script was of the export's shape and went through the bulk loader. */
  readonly bulkLoaded?: boolean;
  /** A resumed import: where it continued (after the recorded batches). */
  readonly resumedAfter?: ImportPosition & { readonly batches: number };
}

/** Thrown (with the offending row) when a bad entry fails the import. */
export class ImportRowFailure extends Error {
  override name = 'ImportRowFailure';
  constructor(readonly row: ImportRowError) {
    super(`${row.file}:${row.line}: ${row.message}`);
  }
}

/** Options of an ImportSink. */
export interface ImportSinkOptions {
  readonly onError?: OnError;
  /** Rows per commit; 0 means one transaction for the whole import. */
  readonly batchSize?: number;
  /** Error reports kept in the summary (all are counted). */
  readonly maxReportedErrors?: number;
  /** Bad entries skipped before the import fails anyway (neo4j-admin's --bad-tolerance; default unlimited). */
  readonly badTolerance?: number;
  /** Skip relationships that refer to missing nodes even in `fail` mode (neo4j-admin's --skip-bad-relationships). */
  readonly skipBadRelationships?: boolean;
  /** Skip nodes whose id was already imported even in `fail` mode (neo4j-admin's --skip-duplicate-nodes). */
  readonly skipDuplicateNodes?: boolean;
  /** Without a mode, rows are added to whatever the database holds and ids are this import's own. */
  readonly mode?: ImportMode;
  /** How ids are read (default `string`): `integer` compares them as numbers, `actual` refers to node ids. */
  readonly idType?: IdType;
  /** Makes a batched import resumable (`resume.ts`): its key (null for standard input), and whether to resume it. */
  readonly resumable?: { readonly key: () => Promise<string | null>; readonly resume: boolean; readonly files: readonly string[] };
}

/** An id of the files: its id space and text. */
export interface IdRef {
  readonly idSpace: string;
  readonly id: string;
}

/** What kind of bad entry a rejected row is (some kinds can be skipped on their own). */
export type BadEntryKind = 'row' | 'bad-relationship' | 'duplicate-node';

/** Writes imported rows into one database. */
export class ImportSink {
  private loader: BulkLoader | null = null;
  private readonly ids = new ExternalIds();
  private readonly errors: ImportRowError[] = [];
  private readonly onError: OnError;
  private readonly batchSize: number;
  private readonly maxReportedErrors: number;
  private readonly badTolerance: number;
  private readonly skippable: ReadonlySet<BadEntryKind>;
  private readonly startedAt = Date.now();
  private readonly mode: ImportMode | undefined;
  private readonly idType: IdType;
  /** Id types of the id spaces declared by node headers (`:ID{id-type:long}`). */
  private readonly spaceTypes = new Map<string, IdType>();
  private readonly existing: ExistingNodes;
  private rowsInBatch = 0;
  private batches = 0;
  private committedBatches = 0;
  private errorCount = 0;
  nodes = 0;
  relationships = 0;
  private properties = 0;
  private labels = 0;
  private committed = { nodes: 0, relationships: 0, properties: 0, labels: 0 };
  /** Checkpoints of a resumable import (null: not resumable). */
  private tracker: CheckpointTracker | null = null;
  /** Index of the input being read. */
  private input = 0;
  /** The last row written (where a checkpoint says the import stands). */
  private position: RowOrigin = { file: '', line: 0 };
  /** A resumed import skips the rows up to here (its committed batches hold them). */
  private resumeAt: ImportPosition | null = null;
  private resumedAfter: (ImportPosition & { batches: number }) | undefined;
  /** Where the last committed checkpoint says the import stands. */
  private checkpointed: (ImportPosition & { batches: number }) | undefined;

  constructor(
    private readonly store: DatabaseStore,
    options: ImportSinkOptions = {},
  ) {
    this.onError = options.onError ?? 'fail';
    this.batchSize = options.batchSize ?? 0;
    this.maxReportedErrors = options.maxReportedErrors ?? 1000;
    this.badTolerance = options.badTolerance ?? Infinity;
    const skippable = new Set<BadEntryKind>(this.onError === 'skip' ? ['row', 'bad-relationship', 'duplicate-node'] : []);
    if (options.skipBadRelationships === true) skippable.add('bad-relationship');
    if (options.skipDuplicateNodes === true) skippable.add('duplicate-node');
    this.skippable = skippable;
    this.mode = options.mode;
    this.idType = options.idType ?? 'string';
    this.existing = new ExistingNodes(store);
    this.resumable = options.resumable;
  }

  private readonly resumable: ImportSinkOptions['resumable'];

  /**
   * Opens the first batch and checks, before anything is written, that the database suits the
   * import: an unfinished run of the same import recorded in it is resumed (`resumable.resume`)
   * or refused with how to resume it; a full import needs an empty database (so running it twice
   * never duplicates anything).
   * @throws Error / ImportResumeError naming the database and the way out
   */
  async start(): Promise<void> {
    await this.openLoader();
    const found = parseCheckpoints(this.loader!.checkpoints());
    const resume = this.resumable?.resume === true;
    const key = this.resumable !== undefined && (this.batchSize > 0 || resume || found.length > 0) ? await this.resumable.key() : null;
    if (resume && key === null) throw new ImportResumeError('An import from standard input cannot be resumed: it cannot be read again.');
    const own = found.find((c) => c.key === key);
    if (own !== undefined && !resume) throw resumeRequired(this.store.name, own);
    if (own === undefined && resume) throw nothingToResume(this.store.name, found);
    if (own !== undefined) this.restore(own);
    else if (this.mode === 'full' && !this.existing.isEmpty()) throw notEmptyForFullImport(this.store.name, unfinishedNote(found));
    if (key !== null && own === undefined && this.batchSize > 0)
      this.tracker = new CheckpointTracker(key, this.resumable!.files, {
        startedAt: new Date().toISOString(),
        firstRelationshipId: this.loader!.nextRelationshipId,
      });
  }

  /** Continues the unfinished import `own`: its id map, bad entries and totals, and the rows to skip. */
  private restore(own: FoundCheckpoint): void {
    const state = own.state;
    if (this.mode === 'full') {
      const now = this.store.stats();
      if (now.nodes !== state.nodes || now.relationships !== state.relationships) throw changedSince(this.store.name, state, now);
    }
    for (const delta of parseDeltas(this.loader!.checkpointDeltas(own.key))) {
      for (const [space, external, id] of delta.ids) this.ids.set(space, external, id);
      for (const row of delta.errors) if (this.errors.length < this.maxReportedErrors) this.errors.push(row);
    }
    this.nodes = state.nodes;
    this.relationships = state.relationships;
    this.properties = state.properties;
    this.labels = state.labels;
    this.errorCount = state.badEntries;
    this.batches = state.batches;
    this.committedBatches = state.batches;
    this.committed = { nodes: this.nodes, relationships: this.relationships, properties: this.properties, labels: this.labels };
    const firstRelationshipId = BigInt(state.firstRelationshipId);
    this.existing.ownRelationshipsStartAt(firstRelationshipId);
    this.resumeAt = { input: state.input, file: state.file, line: state.line };
    this.resumedAfter = { input: state.input, file: state.file, line: state.line, batches: state.batches };
    this.checkpointed = this.resumedAfter;
    this.tracker = new CheckpointTracker(own.key, state.files, { startedAt: state.startedAt, firstRelationshipId });
  }

  /** Starts reading input number `index` (inputs are read in order). */
  beginInput(index: number): void {
    this.input = index;
    if (this.resumeAt !== null && index > this.resumeAt.input) this.resumeAt = null;
  }

  /** True for a data row of the current input that a resumed import's committed batches already hold (the reader skips it). */
  replayed(line: number): boolean {
    const at = this.resumeAt;
    return at !== null && (this.input < at.input || line <= at.line);
  }

  /** The id type of an id space: its header's `id-type`, else the import's. */
  idTypeOf(space: string): IdType {
    return this.spaceTypes.get(space) ?? this.idType;
  }

  /**
   * Declares the id column of a node file: its id space's id type, and in incremental mode the key
   * identifying its nodes in the database (`uuid:ID(Person){label:Person}`, or the file's one label).
   * @throws IdSpaceKeyError when the column cannot identify nodes as the mode needs
   */
  declareIdSpace(column: { name: string; idSpace: string; idLabel?: string; idType?: IdType }, fileLabels: readonly string[]): void {
    const type = column.idType ?? this.idType;
    if (type === 'actual')
      throw new IdSpaceKeyError("With --id-type actual node ids are the database's own: a node file cannot have an :ID column");
    const known = this.spaceTypes.get(column.idSpace);
    if (known !== undefined && known !== type)
      throw new IdSpaceKeyError(`Id space '${column.idSpace}' holds ${known} ids elsewhere, not ${type} ids`);
    this.spaceTypes.set(column.idSpace, type);
    if (this.mode !== 'incremental') return;
    const label = column.idLabel ?? (fileLabels.length === 1 ? fileLabels[0] : undefined);
    if (column.name === '' || label === undefined) {
      throw new IdSpaceKeyError(
        'An incremental import identifies nodes by a stored id property of one label: name the id column and its label, e.g. uuid:ID{label:Person}',
      );
    }
    this.existing.declare(column.idSpace, { label, property: column.name, integer: type === 'integer' });
  }

  /** Batches committed so far. */
  get batchesCommitted(): number {
    return this.batches;
  }

  /** Number of rejected rows so far. */
  get errorTotal(): number {
    return this.errorCount;
  }

  /** Opens the bulk load of the next batch (waits for the database's write lock). */
  private async openLoader(): Promise<void> {
    this.loader ??= await BulkLoader.open(this.store, { uniqueChecks: 'per-row', sliced: true });
  }

  /**
   * Records a bad entry: counts and skips it when its kind may be skipped and the bad-entry
   * tolerance is not exceeded, otherwise throws ImportRowFailure (the import fails).
   */
  reject(origin: RowOrigin, message: string, kind: BadEntryKind = 'row'): void {
    this.errorCount++;
    const skippable = this.skippable.has(kind);
    const exceeded = skippable && this.errorCount > this.badTolerance;
    const note = exceeded ? ` (more than ${this.badTolerance} bad entries: the bad-entry tolerance is exceeded)` : '';
    const row = { file: origin.file, line: origin.line, message: message + note };
    if (this.errors.length < this.maxReportedErrors) {
      this.errors.push(row);
      this.tracker?.noteError(row);
    }
    if (!skippable || exceeded) throw new ImportRowFailure(row);
  }

  /**
   * Writes a node; `externalId` (when not null) lets later relationships refer to it. Returns a
   * promise only when it has to wait (opening a batch), so callers can skip an await per row:
   * `const wait = sink.addNode(...); if (wait) await wait;`.
   */
  addNode(
    origin: RowOrigin,
    idSpace: string,
    externalId: string | null,
    labels: readonly string[],
    properties: CypherMap,
  ): Promise<void> | undefined {
    const loader = this.loader;
    if (loader === null) return this.openLoader().then(() => this.addNode(origin, idSpace, externalId, labels, properties));
    if (externalId !== null && this.ids.get(idSpace, externalId) !== undefined) {
      this.reject(origin, `Duplicate node id '${externalId}'${idSpace ? ` in id space '${idSpace}'` : ''}`, 'duplicate-node');
      return;
    }
    if (externalId !== null && this.mode === 'incremental' && this.existing.find(idSpace, externalId) !== undefined) {
      const key = this.existing.keyOf(idSpace)!;
      this.reject(origin, `Node with id '${externalId}' is already in the database (:${key.label} {${key.property}})`, 'duplicate-node');
      return;
    }
    let id: bigint;
    try {
      id = loader.addNode(labels, properties);
    } catch (error) {
      this.rejectWriteError(origin, error);
      return;
    }
    if (externalId !== null) {
      this.ids.set(idSpace, externalId, Number(id));
      this.tracker?.noteId(idSpace, externalId, Number(id));
    }
    this.nodes++;
    this.labels += labels.length < 2 ? labels.length : new Set(labels).size;
    this.properties += countSet(properties);
    return this.rowDone(origin);
  }

  /** Writes a relationship between two previously imported nodes (returns a promise like `addNode`). */
  addRelationship(origin: RowOrigin, type: string, start: IdRef, end: IdRef, properties: CypherMap): Promise<void> | undefined {
    const loader = this.loader;
    if (loader === null) return this.openLoader().then(() => this.addRelationship(origin, type, start, end, properties));
    const startNode = this.resolve(start);
    const endNode = this.resolve(end);
    if (startNode === undefined || endNode === undefined) {
      const missing = startNode === undefined ? start : end;
      this.reject(
        origin,
        `Relationship refers to unknown node id '${missing.id}'${missing.idSpace ? ` in id space '${missing.idSpace}'` : ''}`,
        'bad-relationship',
      );
      return undefined;
    }
    if (type === '') {
      this.reject(origin, 'Relationship has no type');
      return undefined;
    }
    if (startNode.existing && endNode.existing && this.mode === 'incremental') {
      if (this.existing.hasRelationship(BigInt(startNode.id), type, BigInt(endNode.id), properties)) {
        this.reject(
          origin,
          `Relationship (${start.id})-[:${type}]->(${end.id}) with these properties is already in the database`,
          'duplicate-node',
        );
        return undefined;
      }
    }
    try {
      loader.addRelationship(type, startNode.id, endNode.id, properties);
    } catch (error) {
      if (error instanceof EntityNotFound)
        this.reject(origin, `Relationship refers to unknown node id: ${error.message}`, 'bad-relationship');
      else this.rejectWriteError(origin, error);
      return;
    }
    this.relationships++;
    this.properties += countSet(properties);
    return this.rowDone(origin);
  }

  /**
   * The node an id of a relationship file refers to: a node of this import, a node already in the
   * database (incremental mode: by its id space's key; `--id-type actual`: by its id), or undefined.
   */
  private resolve(ref: IdRef): { id: number | bigint; existing: boolean } | undefined {
    const type = this.idTypeOf(ref.idSpace);
    if (type === 'actual') return /^\d+$/.test(ref.id) ? { id: BigInt(ref.id), existing: true } : undefined;
    const id = type === 'integer' ? canonicalInteger(ref.id) : ref.id;
    if (id === null) return undefined;
    const own = this.ids.get(ref.idSpace, id);
    if (own !== undefined) return { id: own, existing: false };
    if (this.mode !== 'incremental') return undefined;
    const found = this.existing.find(ref.idSpace, id);
    return found === undefined ? undefined : { id: found, existing: true };
  }

  private rejectWriteError(origin: RowOrigin, error: unknown): void {
    if (!(error instanceof GraphError)) throw error;
    this.reject(origin, `${error.code}: ${error.message}`);
  }

  /** Counts a written row; returns the commit's promise when the row completes a batch. */
  private rowDone(origin: RowOrigin): Promise<void> | undefined {
    this.position = origin;
    this.rowsInBatch++;
    return this.batchSize > 0 && this.rowsInBatch >= this.batchSize ? this.commitBatch(false) : undefined;
  }

  /** Commits the open batch with its checkpoint (`last`: the import's end, which clears the checkpoint). */
  private async commitBatch(last: boolean): Promise<void> {
    if (this.loader !== null) {
      const loader = this.loader;
      this.loader = null;
      const tracker = this.tracker;
      if (!last || this.rowsInBatch > 0) this.batches++;
      const position = { input: this.input, file: this.position.file, line: this.position.line };
      const checkpoint =
        tracker === null
          ? undefined
          : last
            ? { clear: tracker.key }
            : tracker.write(position, {
                batches: this.batches,
                nodes: this.nodes,
                relationships: this.relationships,
                properties: this.properties,
                labels: this.labels,
                badEntries: this.errorCount,
              });
      try {
        await loader.finish(checkpoint === undefined ? {} : { checkpoint });
      } catch (error) {
        this.batches = this.committedBatches;
        throw error;
      }
      this.committedBatches = this.batches;
      if (checkpoint !== undefined && !last) this.checkpointed = { ...position, batches: this.batches };
    }
    this.rowsInBatch = 0;
    this.committed = { nodes: this.nodes, relationships: this.relationships, properties: this.properties, labels: this.labels };
  }

  /** Commits what is pending (and forgets the import's checkpoint, in the same transaction) and reports. */
  async finish(): Promise<ImportSummary> {
    if (this.tracker !== null) await this.openLoader();
    await this.commitBatch(true);
    this.existing.close();
    return this.summary(true);
  }

  /** Rolls back the pending batch (after a fatal error) and reports what stayed committed. */
  abort(): ImportSummary {
    this.loader?.abort();
    this.loader = null;
    this.existing.close();
    this.nodes = this.committed.nodes;
    this.relationships = this.committed.relationships;
    this.properties = this.committed.properties;
    this.labels = this.committed.labels;
    const summary = this.summary(false);
    return this.checkpointed === undefined ? summary : { ...summary, resumable: this.checkpointed };
  }

  private summary(completed: boolean): ImportSummary {
    return {
      database: this.store.name,
      nodes: this.nodes,
      relationships: this.relationships,
      properties: this.properties,
      labels: this.labels,
      skipped: this.errorCount,
      errors: this.errors,
      durationMs: Date.now() - this.startedAt,
      completed,
      batchesCommitted: this.batches,
      ...(this.resumedAfter === undefined ? {} : { resumedAfter: this.resumedAfter }),
    };
  }
}

function countSet(properties: CypherMap): number {
  let n = 0;
  for (const v of properties.values()) if (v !== null) n++;
  return n;
}

/** The canonical text of an integer id (`007` and `7` are one id), or null when it is not an integer. */
export function canonicalInteger(text: string): string | null {
  const trimmed = text.trim();
  if (!/^[+-]?\d+$/.test(trimmed)) return null;
  const value = BigInt(trimmed);
  return value > 9223372036854775807n || value < -9223372036854775808n ? null : value.toString();
}
