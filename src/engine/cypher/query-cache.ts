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
};

/**
 * A cached outcome plus the lookups it depended on (`p:name` / `f:name` → what the lookup
 * returned), so registering or replacing a procedure or function invalidates exactly the
 * statements that used it.
 */
type Entry = ({ readonly compiled: CompiledStatement; readonly implicitCall: boolean } | { readonly error: GraphError }) & {
  readonly dependencies: ReadonlyMap<string, unknown>;
};

/**
 * An LRU cache of compiled statements keyed by statement text, so repeated parameterised
 * queries skip lexing, parsing and analysis. Failures are cached too (the same text fails the
 * same way). An entry is recompiled when a procedure or function it looked up now resolves
 * differently (registered, replaced or removed). The check that depends on the request's
 * parameters (implicit procedure arguments) is re-run per call, and only for statements that
 * need it.
 */
export class QueryCache {
  private readonly entries = new Map<string, Entry>();
  private readonly capacity: number;
  private hitCount = 0;
  private missCount = 0;

  constructor(private readonly options: QueryCacheOptions = {}) {
    this.capacity = Math.max(1, options.capacity ?? 1000);
  }

  /** Compiles `text` (or returns the cached result); throws the statement's GraphError. */
  compile(text: string, parameterNames?: ReadonlySet<string>): CompiledStatement {
    let entry = this.entries.get(text);
    if (entry !== undefined && !this.isCurrent(entry)) {
      this.entries.delete(text);
      entry = undefined;
    }
    if (entry === undefined) {
      this.missCount++;
      entry = this.build(text);
      if (text.length <= (this.options.maxTextLength ?? 65_536)) {
        this.entries.set(text, entry);
        if (this.entries.size > this.capacity) this.entries.delete(this.entries.keys().next().value!);
      }
    } else {
      this.hitCount++;
      this.entries.delete(text);
      this.entries.set(text, entry);
    }
    if ('error' in entry) throw entry.error;
    if (entry.implicitCall && parameterNames !== undefined) {
      const [error] = validate(entry.compiled.ast, { ...this.options, parameterNames }, [ProcedureCallRule]);
      if (error) throw error;
    }
    return entry.compiled;
  }

  private build(text: string): Entry {
    const dependencies = new Map<string, unknown>();
    const procedures = this.options.procedures;
    const functions = this.options.functions ?? lookupFunction;
    const recording: AnalyzeOptions = {
      ...this.options,
      procedures: procedures && ((name) => record(dependencies, `p:${name}`, procedures(name))),
      functions: (name) => record(dependencies, `f:${name}`, functions(name)),
    };
    try {
      const ast = parse(text);
      const analysis = analyze(ast, recording);
      return { compiled: { ast, analysis }, implicitCall: hasImplicitCall(ast), dependencies };
    } catch (error) {
      if (error instanceof GraphError) return { error, dependencies };
      throw error;
    }
  }

  /** True when every procedure and function the entry looked up still resolves to the same definition. */
  private isCurrent(entry: Entry): boolean {
    for (const [key, value] of entry.dependencies) {
      const name = key.slice(2);
      const current = key.startsWith('p:') ? this.options.procedures?.(name) : (this.options.functions ?? lookupFunction)(name);
      if (current !== value) return false;
    }
    return true;
  }

  /** Drops every entry (e.g. after procedures are registered or removed). */
  clear(): void {
    this.entries.clear();
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

function record<T>(dependencies: Map<string, unknown>, key: string, value: T): T {
  dependencies.set(key, value);
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
