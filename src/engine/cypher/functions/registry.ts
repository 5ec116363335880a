/**
 * The Cypher function registry: scalar and aggregating functions by lower-cased, namespaced
 * name (`tolower`, `date.truncate`, `point.distance`).
 *
 * How the engine uses it:
 * ```ts
 * import { lookupFunction, isAggregate } from '../functions/index.js';
 * const fn = lookupFunction('toUpper');           // case-insensitive; undefined if unknown
 * if (fn?.kind === 'scalar') fn.call([arg], ctx);  // ctx: FunctionContext
 * if (fn?.kind === 'aggregate') {
 *   const acc = fn.createAccumulator(distinct);    // one per group
 *   acc.add([value, ...otherArgs], ctx);           // per row, all argument values evaluated
 *   acc.result();                                  // at the end of the group
 * }
 * ```
 * Arity: the frontend checks `minArgs <= n <= maxArgs` (`maxArgs` is `Infinity` for
 * variadics such as `coalesce`) and reports `InvalidNumberOfArguments`; unknown names are
 * `UnknownFunction`. `argumentTypes` lists, per parameter, the `typeName()`s it accepts (or
 * `'Any'`), so the semantic checker can reject literal arguments of the wrong type at compile
 * time (`InvalidArgumentType`). Null is accepted everywhere unless a function says otherwise.
 * Functions raise `CypherTypeError`/`ArgumentError` (with `detail` set to the TCK vocabulary)
 * at run time.
 */
import type { MemoryTracker } from '../memory/memory-tracker.js';
import type { CypherMap, CypherValue, EntityAccessor } from '../../values/types.js';

/** An instant for the temporal clocks: seconds and nanoseconds since the epoch, UTC. */
export interface ClockInstant {
  readonly epochSecond: number;
  readonly nano: number;
}

/** What a function may read besides its arguments. */
export interface FunctionContext {
  /** Labels, properties, element ids of entity references. */
  readonly accessor: EntityAccessor;
  /**
   * The clocks of `datetime.transaction()`, `.statement()` and `.realtime()`. The default
   * `datetime()`/`timestamp()` use `statement`: fixed for one statement, as in Neo4j.
   */
  clock(kind: 'transaction' | 'statement' | 'realtime'): ClockInstant;
  /** The default time zone (`db.temporal.timezone`), e.g. `UTC` or `Europe/Berlin`. */
  readonly defaultTimeZone: string;
  /** Uniform random number in [0, 1) for `rand()`. */
  random(): number;
  /** The running statement's memory tracker (functions that build large values charge it). */
  readonly memory?: MemoryTracker;
  /** The constituent graphs, when the statement runs on a composite database (`graph.names()`). */
  readonly graphs?: GraphCatalog;
}

/** The graphs of a composite database as `graph.names()` and `graph.propertiesByName()` see them. */
export interface GraphCatalog {
  /** Qualified names of the constituents the user may access, ordered. */
  names(): readonly string[];
  /** The properties of a constituent's alias, or null when it is no accessible constituent. */
  properties(name: string): CypherMap | null;
  /** The qualified name of the constituent holding the element `elementId`. */
  byElementId(elementId: string): string;
}

/** Names returned by `typeName()` plus `Any`, `Number` (Integer or Float), `Temporal`. */
export type ArgumentType = string;

/** Fields shared by scalar and aggregate functions (also the rows of SHOW FUNCTIONS). */
export interface FunctionInfo {
  /** Display name, e.g. `toUpper`, `date.truncate`. */
  readonly name: string;
  readonly minArgs: number;
  readonly maxArgs: number;
  /** `SHOW FUNCTIONS` category: `String`, `Numeric`, `Temporal`, `Aggregating`, ... */
  readonly category: string;
  /** One-line description. */
  readonly description: string;
  /** Signature text, e.g. `toUpper(input :: STRING) :: STRING`. */
  readonly signature: string;
  /** Accepted types per parameter position (the last entry repeats for variadics). */
  readonly argumentTypes?: readonly (readonly ArgumentType[])[];
}

/** A function of one row. */
export interface ScalarFunction extends FunctionInfo {
  readonly kind: 'scalar';
  /** False for `rand()`, `randomUUID()`, `timestamp()`... (no constant folding). */
  readonly deterministic: boolean;
  call(args: readonly CypherValue[], ctx: FunctionContext): CypherValue;
}

/** Per-group state of an aggregation. */
export interface Accumulator {
  add(args: readonly CypherValue[], ctx: FunctionContext): void;
  result(): CypherValue;
}

/** A function over the rows of a group. */
export interface AggregateFunction extends FunctionInfo {
  readonly kind: 'aggregate';
  /** With `distinct`, equivalent first-argument values are added once. */
  createAccumulator(distinct: boolean): Accumulator;
}

/** A scalar or an aggregate function. */
export type CypherFunction = ScalarFunction | AggregateFunction;

const TEMPORAL_TYPES = new Set(['Date', 'LocalTime', 'Time', 'LocalDateTime', 'DateTime']);

/**
 * True unless `fn` declares argument types and `type` (a `typeName()`, `List`, or the static
 * names `Number`, `Temporal`, `Any`, `Null`) is definitely not accepted at `position`.
 * For the semantic checker's compile-time `InvalidArgumentType`.
 */
export function acceptsArgument(fn: FunctionInfo, position: number, type: ArgumentType): boolean {
  const declared = fn.argumentTypes;
  if (declared === undefined || declared.length === 0 || type === 'Any' || type === 'Null') return true;
  const accepted = declared[Math.min(position, declared.length - 1)]!;
  if (accepted.includes('Any') || accepted.includes(type)) return true;
  if (type === 'Number') return accepted.includes('Integer') || accepted.includes('Float');
  if (type === 'Temporal') return accepted.some((t) => TEMPORAL_TYPES.has(t));
  return false;
}

/** A set of functions by lower-cased name. */
export class FunctionRegistry {
  private readonly functions = new Map<string, CypherFunction>();

  /** Adds (or replaces) a function. */
  register(fn: CypherFunction): void {
    this.functions.set(fn.name.toLowerCase(), fn);
  }

  /** Adds several functions. */
  registerAll(fns: readonly CypherFunction[]): void {
    for (const fn of fns) this.register(fn);
  }

  /** Removes a function; returns whether it existed. */
  unregister(name: string): boolean {
    return this.functions.delete(name.toLowerCase());
  }

  /** The function called `name` (any case), or undefined. */
  lookup(name: string): CypherFunction | undefined {
    return this.functions.get(name.toLowerCase());
  }

  /** Every function, sorted by name (for SHOW FUNCTIONS / dbms.functions). */
  list(): CypherFunction[] {
    return [...this.functions.values()].sort((a, b) => (a.name.toLowerCase() < b.name.toLowerCase() ? -1 : 1));
  }
}
