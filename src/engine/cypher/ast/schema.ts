import type { BaseNode } from './base.js';
import type { Return, YieldItem, OrderBy } from './clauses.js';
import type { CypherTypeNode, Expression, MapLiteral, Parameter, Variable } from './expressions.js';
import type { Kind } from './kinds.js';

/** Index, constraint and SHOW commands. */
export type SchemaCommand = CreateIndex | DropIndex | CreateConstraint | DropConstraint | Show;

/** Index kinds; `null` in `CreateIndex.indexType` means the default (RANGE). */
export type IndexType = 'RANGE' | 'TEXT' | 'POINT' | 'LOOKUP' | 'FULLTEXT' | 'VECTOR' | 'BTREE';

/**
 * `CREATE [type] INDEX [name] [IF NOT EXISTS] FOR (v:L) ON (v.p, ...) [OPTIONS {...}]`, the
 * relationship form `FOR ()-[r:T]-()`, fulltext `FOR (n:A|B) ON EACH [n.p, ...]`, lookup
 * `FOR (n) ON EACH labels(n)`, and the legacy `CREATE INDEX ON :L(p)`.
 * `labels` is empty for LOOKUP indexes; `lookupFunction` is `labels` / `type` for them.
 */
export interface CreateIndex extends BaseNode {
  readonly kind: Kind.CreateIndex;
  readonly indexType: IndexType | null;
  readonly name: string | Parameter | null;
  readonly ifNotExists: boolean;
  readonly orReplace: boolean;
  readonly entity: 'NODE' | 'RELATIONSHIP';
  readonly variable: Variable | null;
  readonly labels: readonly string[];
  readonly properties: readonly string[];
  readonly lookupFunction: string | null;
  readonly options: MapLiteral | Parameter | null;
}

/** `DROP INDEX name [IF EXISTS]` or legacy `DROP INDEX ON :L(p, ...)`. */
export interface DropIndex extends BaseNode {
  readonly kind: Kind.DropIndex;
  readonly name: string | Parameter | null;
  readonly ifExists: boolean;
  readonly label: string | null;
  readonly properties: readonly string[];
}

/** Constraint kinds. */
export type ConstraintType = 'UNIQUE' | 'NODE_KEY' | 'RELATIONSHIP_KEY' | 'NOT_NULL' | 'PROPERTY_TYPE';

/**
 * `CREATE CONSTRAINT [name] [IF NOT EXISTS] FOR (v:L) REQUIRE v.p IS UNIQUE` (also
 * `(v.a, v.b) IS NODE KEY`, `IS NOT NULL`, `IS :: INTEGER`, relationship forms, and the legacy
 * `ON (v:L) ASSERT ...`).
 */
export interface CreateConstraint extends BaseNode {
  readonly kind: Kind.CreateConstraint;
  readonly name: string | Parameter | null;
  readonly ifNotExists: boolean;
  readonly orReplace: boolean;
  readonly entity: 'NODE' | 'RELATIONSHIP';
  readonly variable: Variable;
  readonly labelOrType: string;
  readonly properties: readonly string[];
  readonly constraintType: ConstraintType;
  readonly propertyType: CypherTypeNode | null;
  readonly options: MapLiteral | Parameter | null;
}

/** `DROP CONSTRAINT name [IF EXISTS]`. */
export interface DropConstraint extends BaseNode {
  readonly kind: Kind.DropConstraint;
  readonly name: string | Parameter;
  readonly ifExists: boolean;
}

/** What a SHOW command lists. */
export type ShowTarget =
  | 'INDEXES'
  | 'CONSTRAINTS'
  | 'DATABASES'
  | 'DATABASE'
  | 'DEFAULT DATABASE'
  | 'HOME DATABASE'
  | 'ALIASES'
  | 'LIMITS'
  | 'PROCEDURES'
  | 'FUNCTIONS'
  | 'TRANSACTIONS'
  | 'SETTINGS'
  | 'TERMINATE TRANSACTIONS'
  | 'USERS'
  | 'ROLES'
  | 'ROLES WITH USERS'
  | 'CURRENT USER'
  | 'PRIVILEGES'
  | 'ROLE PRIVILEGES'
  | 'USER PRIVILEGES';

/**
 * `SHOW [filter] target [name] [YIELD ...] [WHERE ...] [RETURN ...]`. `filter` is the optional
 * type word (`FULLTEXT`, `RANGE`, `VECTOR`, `UNIQUE`, `ALL`, `BUILT IN`, ...); `name` a database
 * name or transaction id list where the target takes one. `TERMINATE TRANSACTIONS ids ...` is a
 * Show with target `TERMINATE TRANSACTIONS`: its rows are the outcomes, with the same tail.
 */
export interface Show extends BaseNode {
  readonly kind: Kind.Show;
  readonly target: ShowTarget;
  readonly filter: string | null;
  readonly name: Expression | null;
  readonly yieldStar: boolean;
  readonly yieldItems: readonly YieldItem[] | null;
  readonly orderBy: OrderBy | null;
  readonly skip: Expression | null;
  readonly limit: Expression | null;
  readonly where: Expression | null;
  readonly returnClause: Return | null;
}
