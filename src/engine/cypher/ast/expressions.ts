import type { BaseNode } from './base.js';
import type { Kind } from './kinds.js';
import type { LabelExpression, PathPattern, Pattern, ShortestPath } from './patterns.js';
import type { Query } from './statements.js';

/** Every Cypher expression. */
export type Expression =
  | IntegerLiteral
  | FloatLiteral
  | StringLiteral
  | BooleanLiteral
  | NullLiteral
  | ListLiteral
  | MapLiteral
  | Parameter
  | Variable
  | PropertyAccess
  | Subscript
  | Slice
  | FunctionCall
  | CountStar
  | BinaryOperation
  | UnaryOperation
  | IsNull
  | TypePredicate
  | LabelPredicate
  | Case
  | ListComprehension
  | PatternComprehension
  | ListPredicate
  | Reduce
  | MapProjection
  | PatternExpression
  | ShortestPath
  | ExistsSubquery
  | CountSubquery
  | CollectSubquery;

/** `42`, `0x2A`, `0o52`, `1_000`: a 64-bit integer (out-of-range literals are a syntax error). */
export interface IntegerLiteral extends BaseNode {
  readonly kind: Kind.IntegerLiteral;
  readonly value: bigint;
}

/** `1.5`, `.5`, `1e3`: a double. */
export interface FloatLiteral extends BaseNode {
  readonly kind: Kind.FloatLiteral;
  readonly value: number;
}

/** `'text'` or `"text"`, escapes already decoded. */
export interface StringLiteral extends BaseNode {
  readonly kind: Kind.StringLiteral;
  readonly value: string;
}

/** `true` / `false`. */
export interface BooleanLiteral extends BaseNode {
  readonly kind: Kind.BooleanLiteral;
  readonly value: boolean;
}

/** `null`. */
export interface NullLiteral extends BaseNode {
  readonly kind: Kind.NullLiteral;
}

/** `[a, b, c]`. */
export interface ListLiteral extends BaseNode {
  readonly kind: Kind.ListLiteral;
  readonly items: readonly Expression[];
}

/** `{key: value, ...}`; keys in source order. */
export interface MapLiteral extends BaseNode {
  readonly kind: Kind.MapLiteral;
  readonly entries: readonly MapEntry[];
}

/** One `key: value` of a map literal. */
export interface MapEntry extends BaseNode {
  readonly kind: Kind.MapEntry;
  readonly key: string;
  readonly value: Expression;
}

/** `$name`, `$0`, `` $`odd name` ``; `name` is the decoded name without `$`. */
export interface Parameter extends BaseNode {
  readonly kind: Kind.Parameter;
  readonly name: string;
}

/** A variable reference or binding; `name` is decoded (no backticks). */
export interface Variable extends BaseNode {
  readonly kind: Kind.Variable;
  readonly name: string;
}

/** `object.property`. */
export interface PropertyAccess extends BaseNode {
  readonly kind: Kind.PropertyAccess;
  readonly object: Expression;
  readonly property: string;
}

/** `object[index]` (list index or dynamic map/property key). */
export interface Subscript extends BaseNode {
  readonly kind: Kind.Subscript;
  readonly object: Expression;
  readonly index: Expression;
}

/** `object[from..to]`; either bound may be missing. */
export interface Slice extends BaseNode {
  readonly kind: Kind.Slice;
  readonly object: Expression;
  readonly from: Expression | null;
  readonly to: Expression | null;
}

/**
 * `ns.name(DISTINCT? args)`. `namespace` holds the dotted prefix (`['db']` for `db.labels()`);
 * `name` is as written (function names are case-insensitive; compare lower-cased).
 */
export interface FunctionCall extends BaseNode {
  readonly kind: Kind.FunctionCall;
  readonly namespace: readonly string[];
  readonly name: string;
  readonly distinct: boolean;
  readonly args: readonly Expression[];
}

/** `count(*)`. */
export interface CountStar extends BaseNode {
  readonly kind: Kind.CountStar;
}

/** Binary operators, as the printer writes them. */
export type BinaryOperator =
  | 'OR'
  | 'XOR'
  | 'AND'
  | '='
  | '<>'
  | '<'
  | '>'
  | '<='
  | '>='
  | '=~'
  | 'STARTS WITH'
  | 'ENDS WITH'
  | 'CONTAINS'
  | 'IN'
  | '+'
  | '-'
  | '*'
  | '/'
  | '%'
  | '^'
  | '||';

/**
 * `left op right`. A comparison chain `a < b < c` is represented as
 * `(a < b) AND (b < c)` (openCypher semantics).
 */
export interface BinaryOperation extends BaseNode {
  readonly kind: Kind.BinaryOperation;
  readonly operator: BinaryOperator;
  readonly left: Expression;
  readonly right: Expression;
}

/** Unary operators. */
export type UnaryOperator = 'NOT' | '-' | '+';

/** `NOT x`, `-x`, `+x`. */
export interface UnaryOperation extends BaseNode {
  readonly kind: Kind.UnaryOperation;
  readonly operator: UnaryOperator;
  readonly operand: Expression;
}

/** `x IS NULL` / `x IS NOT NULL`. */
export interface IsNull extends BaseNode {
  readonly kind: Kind.IsNull;
  readonly operand: Expression;
  readonly negated: boolean;
}

/** `x IS :: INTEGER`, `x IS NOT TYPED STRING`, `x :: LIST<INTEGER>`. */
export interface TypePredicate extends BaseNode {
  readonly kind: Kind.TypePredicate;
  readonly operand: Expression;
  readonly type: CypherTypeNode;
  readonly negated: boolean;
}

/** `n:A:B`, `n:A|B`, `r:T` in an expression (label / type test). */
export interface LabelPredicate extends BaseNode {
  readonly kind: Kind.LabelPredicate;
  readonly operand: Expression;
  readonly labels: LabelExpression;
}

/** `CASE [subject] WHEN .. THEN .. [ELSE ..] END`; `subject` is null for the generic form. */
export interface Case extends BaseNode {
  readonly kind: Kind.Case;
  readonly subject: Expression | null;
  readonly alternatives: readonly CaseAlternative[];
  readonly otherwise: Expression | null;
}

/** One `WHEN when THEN then`. */
export interface CaseAlternative extends BaseNode {
  readonly kind: Kind.CaseAlternative;
  readonly when: Expression;
  readonly then: Expression;
}

/** `[variable IN source WHERE predicate | projection]`. */
export interface ListComprehension extends BaseNode {
  readonly kind: Kind.ListComprehension;
  readonly variable: Variable;
  readonly source: Expression;
  readonly where: Expression | null;
  readonly projection: Expression | null;
}

/** `[p = (a)-->(b) WHERE predicate | projection]`. */
export interface PatternComprehension extends BaseNode {
  readonly kind: Kind.PatternComprehension;
  readonly variable: Variable | null;
  readonly pattern: PathPattern;
  readonly where: Expression | null;
  readonly projection: Expression;
}

/** `all(x IN list WHERE pred)`, likewise `any`, `none`, `single`. */
export interface ListPredicate extends BaseNode {
  readonly kind: Kind.ListPredicate;
  readonly quantifier: 'all' | 'any' | 'none' | 'single';
  readonly variable: Variable;
  readonly source: Expression;
  readonly where: Expression | null;
}

/** `reduce(acc = init, x IN list | expression)`. */
export interface Reduce extends BaseNode {
  readonly kind: Kind.Reduce;
  readonly accumulator: Variable;
  readonly init: Expression;
  readonly variable: Variable;
  readonly source: Expression;
  readonly expression: Expression;
}

/** `v {.name, .*, other, key: expr}`. */
export interface MapProjection extends BaseNode {
  readonly kind: Kind.MapProjection;
  readonly variable: Variable;
  readonly selectors: readonly MapProjectionSelector[];
}

/** One element of a map projection. */
export type MapProjectionSelector = PropertySelector | AllPropertiesSelector | VariableSelector | LiteralEntrySelector;

/** `.name` inside a map projection. */
export interface PropertySelector extends BaseNode {
  readonly kind: Kind.PropertySelector;
  readonly property: string;
}

/** `.*` inside a map projection. */
export interface AllPropertiesSelector extends BaseNode {
  readonly kind: Kind.AllPropertiesSelector;
}

/** `other` inside a map projection (key `other`, value of variable `other`). */
export interface VariableSelector extends BaseNode {
  readonly kind: Kind.VariableSelector;
  readonly variable: Variable;
}

/** `key: expression` inside a map projection. */
export interface LiteralEntrySelector extends BaseNode {
  readonly kind: Kind.LiteralEntrySelector;
  readonly key: string;
  readonly value: Expression;
}

/** A bare relationship pattern used as a predicate: `WHERE (a)-[:T]->()`. */
export interface PatternExpression extends BaseNode {
  readonly kind: Kind.PatternExpression;
  readonly pattern: PathPattern;
}

/**
 * The body of `EXISTS { }`, `COUNT { }`, `COLLECT { }`: either a full query, or the short form
 * `pattern [WHERE expr]`.
 */
export type SubqueryBody = Query | SubqueryPattern;

/** The short form `{ (a)-->(b) WHERE pred }` of a subquery expression. */
export interface SubqueryPattern extends BaseNode {
  readonly kind: Kind.SubqueryPattern;
  readonly pattern: Pattern;
  readonly where: Expression | null;
}

/** `EXISTS { ... }`. */
export interface ExistsSubquery extends BaseNode {
  readonly kind: Kind.ExistsSubquery;
  readonly body: SubqueryBody;
}

/** `COUNT { ... }`. */
export interface CountSubquery extends BaseNode {
  readonly kind: Kind.CountSubquery;
  readonly body: SubqueryBody;
}

/** `COLLECT { ... }` (the body must be a query ending in RETURN of one column). */
export interface CollectSubquery extends BaseNode {
  readonly kind: Kind.CollectSubquery;
  readonly body: Query;
}

/** A Cypher type as written in `IS ::` predicates and property type constraints. */
export type CypherTypeNode = SimpleType | ListType | UnionType;

/**
 * `INTEGER`, `STRING NOT NULL`, `ANY`, `NOTHING`, `NODE`, `ZONED DATETIME`, ... `name` is the
 * canonical upper-case spelling (`INT` → `INTEGER`, `BOOL` → `BOOLEAN`, `TIMESTAMP WITH TIME ZONE`
 * → `ZONED DATETIME`).
 */
export interface SimpleType extends BaseNode {
  readonly kind: Kind.SimpleType;
  readonly name: string;
  readonly notNull: boolean;
}

/** `LIST<INTEGER>` / `ARRAY<STRING NOT NULL> NOT NULL`. */
export interface ListType extends BaseNode {
  readonly kind: Kind.ListType;
  readonly elementType: CypherTypeNode;
  readonly notNull: boolean;
}

/** `INTEGER | STRING` (also written `ANY<INTEGER | STRING>`). */
export interface UnionType extends BaseNode {
  readonly kind: Kind.UnionType;
  readonly types: readonly CypherTypeNode[];
}
