/**
 * Everything a physical operator or compiled expression needs while a statement runs.
 */
import type { GraphReader, GraphWriter } from '../../storage/graph-store.js';
import type { CypherMap, CypherValue, EntityAccessor } from '../../values/types.js';
import { StatusCodes, graphError } from '../../errors/index.js';
import type { StatementClock } from './statement-clock.js';
import type { AdminHooks } from './admin-hooks.js';
import type { FunctionContext } from '../functions/registry.js';
import type { MemoryTracker } from '../memory/memory-tracker.js';
import type { ImportFiles } from '../../files/import-files.js';
import type { NestedQuery } from './nested-query.js';
import type { GraphSource } from './graph-source.js';

/** Per-statement state shared by operators and expressions. */
export interface ExecutionContext extends FunctionContext {
  readonly database: string;
  readonly reader: GraphReader;
  /** The writer when the statement runs in a write transaction, else null. */
  readonly writer: GraphWriter | null;
  readonly parameters: ReadonlyMap<string, CypherValue>;
  readonly accessor: EntityAccessor;
  readonly scheduler: StatementClock;
  /** Counts storage calls for PROFILE (incremented by the counting reader). */
  readonly stats: { dbHits: number };
  /**
   * True when the statement may commit between batches (a COMMIT signal): auto-commit writes.
   * False in explicit transactions, where everything commits with the transaction.
   */
  readonly batchCommits?: boolean;
  /** Database administration and procedures, provided by the engine facade. */
  readonly admin: AdminHooks;
  /** Files and URLs the statement may read (import directory, allowlist, LOAD privilege). */
  readonly files: ImportFiles;
  /** What the statement's buffering operators hold (limits: memory.transaction_max / _total_max). */
  readonly memory: MemoryTracker;
  /**
   * Compiles and plans Cypher text to run inside this statement (APOC's `apoc.cypher.*`),
   * see runtime/nested-query.ts; injected so procedures need not import the compiler.
   */
  prepareNested(text: string, parameterNames: ReadonlySet<string>): NestedQuery;
  /** The constituent graphs when the statement runs on a composite database (`CALL { USE ... }`). */
  readonly graphs?: GraphSource;
}

/**
 * True when the statement's transaction has written anything so far (conservatively: any
 * non-zero counter); indexes fed by committed changes do not hold those writes.
 */
export function hasUncommittedWrites(ctx: ExecutionContext): boolean {
  if (ctx.writer === null) return false;
  return Object.values(ctx.writer.counters).some((n) => n !== 0);
}

/** The writer, or a clear error when the statement runs read-only. */
export function requireWriter(ctx: ExecutionContext): GraphWriter {
  if (ctx.writer === null) {
    throw graphError(
      StatusCodes.ForbiddenDueToTransactionType,
      'Writing in read access mode not allowed. Attempted write to database ' + ctx.database,
    );
  }
  return ctx.writer;
}

/**
 * An EntityAccessor over a reader: what property access and `labels()` read. A class, so a
 * statement allocates one object instead of a closure per method.
 */
class ReaderAccessor implements EntityAccessor {
  constructor(private readonly reader: GraphReader) {}

  nodeLabels(id: bigint): readonly string[] | null {
    return this.reader.nodeLabels(id);
  }

  nodeProperties(id: bigint): CypherMap | null {
    return this.reader.getNode(id)?.properties ?? null;
  }

  nodeProperty(id: bigint, key: string): CypherValue | undefined {
    return this.reader.nodeProperty(id, key);
  }

  relationshipProperties(id: bigint): CypherMap | null {
    return this.reader.getRelationship(id)?.properties ?? null;
  }

  relationshipProperty(id: bigint, key: string): CypherValue | undefined {
    return this.reader.relationshipProperty(id, key);
  }

  nodeElementId(id: bigint): string {
    return this.reader.nodeElementId(id);
  }

  relationshipElementId(id: bigint): string {
    return this.reader.relationshipElementId(id);
  }
}

/** An EntityAccessor over a reader: what property access and `labels()` read. */
export function accessorFor(reader: GraphReader): EntityAccessor {
  return new ReaderAccessor(reader);
}
