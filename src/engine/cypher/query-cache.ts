import { GraphError } from '../errors/index.js';
import { Kind } from './ast/kinds.js';
import { lookupFunction } from './functions/index.js';
import type { Statement } from './ast/statements.js';
import { parse } from './parser/index.js';
import { analyze, validate, type AnalyzedStatement } from './semantic/analyze.js';
import type { AnalyzeOptions } from './semantic/context.js';
import { ProcedureCallRule } from './semantic/rules/index.js';

/** A parsed and analyzed statement, shared by every execution of the same text. */
export interface CompiledStatement {
  readonly ast: Statement;
  readonly analysis: AnalyzedStatement;
}

/** Options of a cache: the lookups analysis uses (one cache per engine/database). */
export type QueryCacheOptions = Omit<AnalyzeOptions, 'parameterNames'> & {
  /** Entries kept (least recently used evicted first); default 1000. */
  readonly capacity?: number;
  /** Statements longer than this many characters are compiled but not cached; default 65,536. */
  readonly maxTextLength?: number;
  /**
   * Estimated heap bytes the cached statements (and the plans that hang off them) may hold
   * together (`dbms.memory.query_cache.max_size`); least recently used evicted first. Default 64 MiB.
   */
  readonly maxBytes?: number;
};

/** Default of `QueryCacheOptions.maxBytes`. */
export const DEFAULT_QUERY_CACHE_BYTES = 64 * 1024 * 1024;

/**
 * Heap bytes a cached statement holds per character of its text (syntax tree, analysis, cached
 * plan and physical operators), and per entry: measured on statements of 200 to 60,000
 * characters (test/robustness/cache-bytes.test.ts checks the estimate stays above the real cost).
 */
const BYTES_PER_CHARACTER = 200;
const BYTES_PER_ENTRY = 4 * 1024;

/** Estimated heap bytes of a cached statement of `text`. */
export function compiledStatementBytes(text: string): number {
  return BYTES_PER_ENTRY + text.length * BYTES_PER_CHARACTER;
}

/**
 * A cached outcome plus the lookups it depended on (`p:name` / `f:name` → what the lookup
 * returned), so registering or replacing a procedure or function invalidates exactly the
 * statements that used it.
 */
type Entry = ({ readonly compiled: CompiledStatement; readonly implicitCall: boolean } | { readonly error: GraphError }) & {
  readonly dependencies: readonly Dependency[];
  /** Estimated heap bytes (`compiledStatementBytes`). */
  readonly bytes: number;
  /** The cache's use counter at the entry's last use (least recently used = smallest). */
  used: number;
};

/** One procedure or function lookup an entry's analysis made, and what it returned. */
interface Dependency {
  readonly procedure: boolean;
  readonly name: string;
  readonly value: unknown;
}

/**
 * An LRU cache of compiled statements keyed by statement text, so repeated parameterised
 * queries skip lexing, parsing and analysis. It is bounded both in entries and in estimated
 * bytes, so many distinct large statements cannot grow the heap without end. Failures are cached too (the same text fails the
 * same way). An entry is recompiled when a procedure or function it looked up now resolves
 * differently (registered, replaced or removed). The check that depends on the request's
 * parameters (implicit procedure arguments) is re-run per call, and only for statements that
 * need it.
 */
export class QueryCache {
  private readonly entries = new Map<string, Entry>();
  private readonly capacity: number;
  /** The byte bound (`QueryCacheOptions.maxBytes`). */
  readonly maxBytes: number;
  private heldBytes = 0;
  private hitCount = 0;
  private missCount = 0;
  /**
   * Counts uses; an entry records it at each use, and eviction drops the smallest. A hit costs a
   * store, not a Map delete and re-insert (which made V8 rehash the map every few hits).
   */
  private uses = 0;

  constructor(private readonly options: QueryCacheOptions = {}) {
    this.capacity = Math.max(1, options.capacity ?? 1000);
    this.maxBytes = options.maxBytes ?? DEFAULT_QUERY_CACHE_BYTES;
  }

  /** Compiles `text` (or returns the cached result); throws the statement's GraphError. */
  compile(text: string, parameterNames?: ReadonlySet<string>): CompiledStatement {
    let entry = this.entries.get(text);
    if (entry !== undefined && !this.isCurrent(entry)) {
      this.forget(text, entry);
      entry = undefined;
    }
    if (entry === undefined) {
      this.missCount++;
      entry = this.build(text);
      entry.used = ++this.uses;
      if (text.length <= (this.options.maxTextLength ?? 65_536) && entry.bytes <= this.maxBytes) {
        this.entries.set(text, entry);
        this.heldBytes += entry.bytes;
        this.evict();
      }
    } else {
      this.hitCount++;
      entry.used = ++this.uses;
    }
    if ('error' in entry) throw entry.error;
    if (entry.implicitCall && parameterNames !== undefined) {
      const [error] = validate(entry.compiled.ast, { ...this.options, parameterNames }, [ProcedureCallRule]);
      if (error) throw error;
    }
    return entry.compiled;
  }

  /** Drops least recently used entries until both bounds hold (a scan per eviction; evictions follow misses only). */
  private evict(): void {
    while (this.entries.size > this.capacity || this.heldBytes > this.maxBytes) {
      let oldest: [string, Entry] | null = null;
      for (const pair of this.entries) if (oldest === null || pair[1].used < oldest[1].used) oldest = pair;
      this.forget(oldest![0], oldest![1]);
    }
  }

  private forget(text: string, entry: Entry): void {
    this.entries.delete(text);
    this.heldBytes -= entry.bytes;
  }

  private build(text: string): Entry {
    const lookups = new Map<string, Dependency>();
    const procedures = this.options.procedures;
    const functions = this.options.functions ?? lookupFunction;
    const recording: AnalyzeOptions = {
      ...this.options,
      procedures: procedures && ((name) => record(lookups, true, name, procedures(name))),
      functions: (name) => record(lookups, false, name, functions(name)),
    };
    const dependencies = (): Dependency[] => [...lookups.values()];
    try {
      const ast = parse(text);
      const analysis = analyze(ast, recording);
      return {
        compiled: { ast, analysis },
        implicitCall: hasImplicitCall(ast),
        dependencies: dependencies(),
        bytes: compiledStatementBytes(text),
        used: 0,
      };
    } catch (error) {
      if (error instanceof GraphError) return { error, dependencies: dependencies(), bytes: compiledStatementBytes(text), used: 0 };
      throw error;
    }
  }

  /** True when every procedure and function the entry looked up still resolves to the same definition. */
  private isCurrent(entry: Entry): boolean {
    const dependencies = entry.dependencies;
    for (let i = 0; i < dependencies.length; i++) {
      const { procedure, name, value } = dependencies[i]!;
      const current = procedure ? this.options.procedures?.(name) : (this.options.functions ?? lookupFunction)(name);
      if (current !== value) return false;
    }
    return true;
  }

  /** Drops every entry (e.g. after procedures are registered or removed). */
  clear(): void {
    this.entries.clear();
    this.heldBytes = 0;
  }

  /** Estimated heap bytes of the cached statements. */
  get bytes(): number {
    return this.heldBytes;
  }

  /** Number of cached statements. */
  get size(): number {
    return this.entries.size;
  }

  /** Cache hits and misses since creation. */
  get stats(): { readonly hits: number; readonly misses: number } {
    return { hits: this.hitCount, misses: this.missCount };
  }
}

/** Records a lookup of the analysis (the last answer per procedure or function name counts). */
function record<T>(lookups: Map<string, Dependency>, procedure: boolean, name: string, value: T): T {
  lookups.set(`${procedure ? 'p' : 'f'}:${name}`, { procedure, name, value });
  return value;
}

/** True for a standalone `CALL proc` that takes its arguments from the parameters. */
function hasImplicitCall(ast: Statement): boolean {
  const body = ast.body;
  return (
    body.kind === Kind.SingleQuery &&
    body.clauses.length === 1 &&
    body.clauses[0]!.kind === Kind.CallProcedure &&
    body.clauses[0].args === null
  );
}

const defaultCache = new QueryCache();

/**
 * The engine's entry point to the front end: text → `{ast, analysis}` through a process-wide
 * cache without procedure lookups. Engines with a procedure registry create their own
 * `QueryCache({procedures: (name) => registry.lookup(name)})`.
 */
export function compile(text: string, parameterNames?: ReadonlySet<string>): CompiledStatement {
  return defaultCache.compile(text, parameterNames);
}
