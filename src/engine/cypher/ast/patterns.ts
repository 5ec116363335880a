import type { BaseNode } from './base.js';
import type { Expression, MapLiteral, Parameter, Variable } from './expressions.js';
import type { Kind } from './kinds.js';

/** A comma-separated list of pattern parts (`MATCH (a)-->(b), (c)`). */
export interface Pattern extends BaseNode {
  readonly kind: Kind.Pattern;
  readonly parts: readonly PatternPart[];
}

/**
 * One comma-separated part: `[p =] [selector] element`. `element` is a path pattern or a
 * `shortestPath(...)` / `allShortestPaths(...)` wrapper.
 */
export interface PatternPart extends BaseNode {
  readonly kind: Kind.PatternPart;
  readonly variable: Variable | null;
  readonly selector: PathSelector | null;
  readonly element: PathPattern | ShortestPath;
}

/**
 * GQL path selectors: `ANY SHORTEST`, `ALL SHORTEST`, `SHORTEST k`, `SHORTEST k GROUPS`,
 * `ANY k`, `ALL`. `count` is null where the syntax has no number (it then means 1).
 */
export interface PathSelector extends BaseNode {
  readonly kind: Kind.PathSelector;
  readonly selector: 'ANY' | 'ALL' | 'ANY SHORTEST' | 'ALL SHORTEST' | 'SHORTEST' | 'SHORTEST GROUPS';
  readonly count: bigint | null;
}

/** `shortestPath((a)-[*]-(b))` / `allShortestPaths(...)`; also usable as an expression. */
export interface ShortestPath extends BaseNode {
  readonly kind: Kind.ShortestPath;
  readonly all: boolean;
  readonly pattern: PathPattern;
}

/** What a path pattern is made of, in source order. */
export type PathElement = NodePattern | RelationshipPattern | QuantifiedPath;

/**
 * A path: elements in source order. A classic pattern alternates
 * `node, relationship, node, ...`; a quantified path pattern sits between two nodes
 * (`(a) ((x)-->(y)){1,3} (b)`) without a relationship beside it.
 */
export interface PathPattern extends BaseNode {
  readonly kind: Kind.PathPattern;
  readonly elements: readonly PathElement[];
}

/** `(v:Label {props} WHERE pred)`; every part optional. */
export interface NodePattern extends BaseNode {
  readonly kind: Kind.NodePattern;
  readonly variable: Variable | null;
  readonly labels: LabelExpression | null;
  readonly properties: MapLiteral | Parameter | null;
  readonly where: Expression | null;
}

/** Relationship direction as written: `-->` OUTGOING, `<--` INCOMING, `--` / `<-->` BOTH. */
export type RelationshipDirection = 'OUTGOING' | 'INCOMING' | 'BOTH';

/** `-[r:T|U *1..3 {props} WHERE pred]->`. `length` is set for variable-length relationships. */
export interface RelationshipPattern extends BaseNode {
  readonly kind: Kind.RelationshipPattern;
  readonly variable: Variable | null;
  readonly types: LabelExpression | null;
  readonly direction: RelationshipDirection;
  readonly length: Range | null;
  readonly properties: MapLiteral | Parameter | null;
  readonly where: Expression | null;
}

/**
 * Repetition bounds. `*` is `{min: null, max: null}`; `*3` is `{3, 3}`; `*..5` is `{null, 5}`.
 * Also the quantifier of a quantified path pattern (`{1,3}`, `+` = `{1, null}`, `*` = `{0, null}`).
 */
export interface Range extends BaseNode {
  readonly kind: Kind.Range;
  readonly min: bigint | null;
  readonly max: bigint | null;
}

/**
 * `(inner path WHERE pred){m,n}` — a quantified path pattern; with `quantifier` null it is a
 * parenthesized path `(p = (a)-->(b) WHERE pred)`.
 */
export interface QuantifiedPath extends BaseNode {
  readonly kind: Kind.QuantifiedPath;
  readonly variable: Variable | null;
  readonly pattern: PathPattern;
  readonly where: Expression | null;
  readonly quantifier: Range | null;
}

/** A label (node) or type (relationship) expression: `:A:B`, `:A|B`, `:!A`, `:A&B`, `:%`. */
export type LabelExpression = LabelName | LabelWildcard | LabelNot | LabelAnd | LabelOr | DynamicLabel;

/** A single label or relationship type name (decoded). */
export interface LabelName extends BaseNode {
  readonly kind: Kind.LabelName;
  readonly name: string;
}

/** `%`: any label. */
export interface LabelWildcard extends BaseNode {
  readonly kind: Kind.LabelWildcard;
}

/** `!A`. */
export interface LabelNot extends BaseNode {
  readonly kind: Kind.LabelNot;
  readonly operand: LabelExpression;
}

/**
 * `A&B`, also `:A:B` (`colon` true when written with colons; both mean "has both labels").
 */
export interface LabelAnd extends BaseNode {
  readonly kind: Kind.LabelAnd;
  readonly left: LabelExpression;
  readonly right: LabelExpression;
  readonly colon: boolean;
}

/**
 * `$(expr)`, `$all(expr)`, `$any(expr)` (Neo4j 5.26 dynamic labels and types): the names are
 * computed per row from a string or a list of strings. `$(...)` and `$all(...)` require every
 * name, `$any(...)` one of them; `quantifier` keeps the written form.
 */
export interface DynamicLabel extends BaseNode {
  readonly kind: Kind.DynamicLabel;
  readonly expression: Expression;
  readonly quantifier: 'all' | 'any' | null;
}

/** `A|B` (also the legacy `:A|:B` for relationship types). */
export interface LabelOr extends BaseNode {
  readonly kind: Kind.LabelOr;
  readonly left: LabelExpression;
  readonly right: LabelExpression;
}
