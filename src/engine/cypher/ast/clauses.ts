import type { BaseNode } from './base.js';
import type { Expression, Variable } from './expressions.js';
import type { Kind } from './kinds.js';
import type { DynamicLabel, Pattern, PatternPart } from './patterns.js';
import type { Query } from './statements.js';

/** Every clause of a single query, in the order they are written. */
export type Clause =
  | Use
  | Match
  | Unwind
  | With
  | Return
  | CallSubquery
  | CallProcedure
  | LoadCsv
  | Finish
  | Create
  | Merge
  | SetClause
  | Remove
  | Delete
  | Foreach;

/**
 * `USE graph [AT VERSION expr | AT TIME expr]` — `graph` is a (possibly dotted) name or a function
 * call like `graph.byName($n)`; `at` makes the query a temporal read (session/temporal-reads.ts).
 */
export interface Use extends BaseNode {
  readonly kind: Kind.Use;
  readonly graph: Expression;
  readonly at?: { readonly kind: 'VERSION' | 'TIME'; readonly value: Expression };
}

/** `[OPTIONAL] MATCH pattern [USING ...]* [WHERE expr]`. */
export interface Match extends BaseNode {
  readonly kind: Kind.Match;
  readonly optional: boolean;
  readonly pattern: Pattern;
  readonly hints: readonly UsingHint[];
  readonly where: Expression | null;
}

/**
 * Planner hints: `USING [RANGE|TEXT|POINT] INDEX [SEEK] v:L(p, ...)`, `USING SCAN v:L`,
 * `USING JOIN ON a, b`.
 */
export interface UsingHint extends BaseNode {
  readonly kind: Kind.UsingHint;
  readonly hint: 'INDEX' | 'INDEX SEEK' | 'SCAN' | 'JOIN';
  readonly indexType: 'RANGE' | 'TEXT' | 'POINT' | null;
  readonly variables: readonly Variable[];
  readonly labelOrType: string | null;
  readonly properties: readonly string[];
}

/** `UNWIND expression AS variable`. */
export interface Unwind extends BaseNode {
  readonly kind: Kind.Unwind;
  readonly expression: Expression;
  readonly variable: Variable;
}

/** `WITH projection [WHERE expr]`. */
export interface With extends BaseNode {
  readonly kind: Kind.With;
  readonly projection: ProjectionBody;
  readonly where: Expression | null;
  /**
   * Set when the clause was written in Cypher 25 / GQL form: `LET x = e` is `WITH *, e AS x`
   * (one clause per binding, so later bindings see earlier ones) and `FILTER [WHERE] p` is
   * `WITH * WHERE p`. Both keep every variable in scope and are printed back as written.
   * `NEXT` marks the `RETURN items` before `NEXT` (see parser/gql-composition.ts).
   */
  readonly form?: 'LET' | 'FILTER' | 'NEXT';
}

/** `RETURN projection`. */
export interface Return extends BaseNode {
  readonly kind: Kind.Return;
  readonly projection: ProjectionBody;
}

/** The shared body of WITH and RETURN. `star` is `*` (possibly followed by more items). */
export interface ProjectionBody extends BaseNode {
  readonly kind: Kind.ProjectionBody;
  readonly distinct: boolean;
  readonly star: boolean;
  readonly items: readonly ProjectionItem[];
  readonly orderBy: OrderBy | null;
  readonly skip: Expression | null;
  readonly limit: Expression | null;
}

/**
 * `expression [AS alias]`. `text` is the column name Neo4j reports when there is no alias: the
 * expression exactly as written in the source (like `loc`, it is ignored by AST comparisons).
 */
export interface ProjectionItem extends BaseNode {
  readonly kind: Kind.ProjectionItem;
  readonly expression: Expression;
  readonly alias: Variable | null;
  readonly text: string;
}

/** `ORDER BY item, ...`. */
export interface OrderBy extends BaseNode {
  readonly kind: Kind.OrderBy;
  readonly items: readonly SortItem[];
}

/** `expression [ASC|ASCENDING|DESC|DESCENDING]`. */
export interface SortItem extends BaseNode {
  readonly kind: Kind.SortItem;
  readonly expression: Expression;
  readonly descending: boolean;
}

/**
 * `[OPTIONAL] CALL [(scope)] { query } [IN TRANSACTIONS ...]`. `scope` is null without a
 * variable scope clause, `'*'` for `CALL (*)`, else the imported variables (`CALL (a, b)`).
 */
export interface CallSubquery extends BaseNode {
  readonly kind: Kind.CallSubquery;
  readonly optional: boolean;
  readonly scope: readonly Variable[] | '*' | null;
  readonly query: Query;
  readonly inTransactions: InTransactions | null;
}

/** `IN [n CONCURRENT] TRANSACTIONS [OF n ROWS] [ON ERROR CONTINUE|BREAK|FAIL] [REPORT STATUS AS v]`. */
export interface InTransactions extends BaseNode {
  readonly kind: Kind.InTransactions;
  readonly concurrency: Expression | null;
  readonly concurrent: boolean;
  readonly batchSize: Expression | null;
  readonly onError: 'CONTINUE' | 'BREAK' | 'FAIL' | null;
  readonly reportStatusAs: Variable | null;
}

/**
 * `[OPTIONAL] CALL ns.name(args) [YIELD * | YIELD item, ... [WHERE expr]]`. `args` is null when
 * written without parentheses (a standalone call taking its arguments from parameters).
 */
export interface CallProcedure extends BaseNode {
  readonly kind: Kind.CallProcedure;
  readonly optional: boolean;
  readonly namespace: readonly string[];
  readonly name: string;
  readonly args: readonly Expression[] | null;
  readonly yieldStar: boolean;
  readonly yieldItems: readonly YieldItem[] | null;
  readonly where: Expression | null;
}

/** `field [AS alias]` after YIELD (procedures and SHOW commands). */
export interface YieldItem extends BaseNode {
  readonly kind: Kind.YieldItem;
  readonly field: string;
  readonly alias: Variable | null;
}

/** `LOAD CSV [WITH HEADERS] FROM url AS v [FIELDTERMINATOR 'c']`. */
export interface LoadCsv extends BaseNode {
  readonly kind: Kind.LoadCsv;
  readonly withHeaders: boolean;
  readonly source: Expression;
  readonly variable: Variable;
  readonly fieldTerminator: string | null;
}

/** `FINISH`: run the query, return no rows. */
export interface Finish extends BaseNode {
  readonly kind: Kind.Finish;
}

/** `CREATE pattern`. */
export interface Create extends BaseNode {
  readonly kind: Kind.Create;
  readonly pattern: Pattern;
  /** Set when written as GQL's `INSERT pattern` (Cypher 25), which creates like CREATE. */
  readonly form?: 'INSERT';
}

/** `MERGE part [ON CREATE SET ... | ON MATCH SET ...]*`. */
export interface Merge extends BaseNode {
  readonly kind: Kind.Merge;
  readonly pattern: PatternPart;
  readonly actions: readonly MergeAction[];
}

/** `ON CREATE SET items` / `ON MATCH SET items`. */
export interface MergeAction extends BaseNode {
  readonly kind: Kind.MergeAction;
  readonly on: 'CREATE' | 'MATCH';
  readonly items: readonly SetItem[];
}

/** `SET item, ...`. */
export interface SetClause extends BaseNode {
  readonly kind: Kind.Set;
  readonly items: readonly SetItem[];
}

/** One assignment of a SET clause. */
export type SetItem = SetProperty | SetVariable | SetLabels;

/** `target = value` where target is `e.prop` or `e[key]`. */
export interface SetProperty extends BaseNode {
  readonly kind: Kind.SetProperty;
  readonly target: Expression;
  readonly value: Expression;
}

/** `v = map` (replace all properties) or `v += map` (`merge` true). */
export interface SetVariable extends BaseNode {
  readonly kind: Kind.SetVariable;
  readonly variable: Variable;
  readonly value: Expression;
  readonly merge: boolean;
}

/** `v:A:B` (or `v IS A`); `v:$(expr)` adds `dynamicLabels` computed per row. */
export interface SetLabels extends BaseNode {
  readonly kind: Kind.SetLabels;
  readonly variable: Variable;
  readonly labels: readonly string[];
  readonly dynamicLabels: readonly DynamicLabel[];
}

/** `REMOVE item, ...`. */
export interface Remove extends BaseNode {
  readonly kind: Kind.Remove;
  readonly items: readonly RemoveItem[];
}

/** One item of REMOVE. */
export type RemoveItem = RemoveProperty | RemoveLabels;

/** `REMOVE e.prop` / `REMOVE e[key]`. */
export interface RemoveProperty extends BaseNode {
  readonly kind: Kind.RemoveProperty;
  readonly target: Expression;
}

/** `REMOVE v:A:B`; `REMOVE v:$(expr)` adds `dynamicLabels` computed per row. */
export interface RemoveLabels extends BaseNode {
  readonly kind: Kind.RemoveLabels;
  readonly variable: Variable;
  readonly labels: readonly string[];
  readonly dynamicLabels: readonly DynamicLabel[];
}

/** `[DETACH|NODETACH] DELETE expr, ...`. */
export interface Delete extends BaseNode {
  readonly kind: Kind.Delete;
  readonly detach: boolean;
  readonly expressions: readonly Expression[];
}

/** `FOREACH (v IN list | clause ...)`: only updating clauses are allowed inside. */
export interface Foreach extends BaseNode {
  readonly kind: Kind.Foreach;
  readonly variable: Variable;
  readonly list: Expression;
  readonly clauses: readonly Clause[];
}
