import type { BaseNode } from './base.js';
import type { Clause } from './clauses.js';
import type { AdminCommand } from './admin.js';
import type { SchemaCommand } from './schema.js';
import type { Kind } from './kinds.js';

/**
 * One complete statement:
 * `[CYPHER [version] [key=value ...]] [EXPLAIN|PROFILE] (query | schema command | admin command)`.
 */
export interface Statement extends BaseNode {
  readonly kind: Kind.Statement;
  /** The CYPHER preamble's version (`'5'`, `'25'`), or null. */
  readonly cypherVersion: string | null;
  /** `key=value` options of the CYPHER preamble (`runtime=slotted`). */
  readonly options: readonly CypherOption[];
  readonly explain: 'EXPLAIN' | 'PROFILE' | null;
  readonly body: Query | SchemaCommand | AdminCommand;
}

/** `key=value` in the CYPHER preamble. */
export interface CypherOption extends BaseNode {
  readonly kind: Kind.CypherOption;
  readonly key: string;
  readonly value: string;
}

/** A query: one clause sequence, or several joined by UNION. */
export type Query = SingleQuery | Union;

/** A sequence of clauses (`MATCH ... WITH ... RETURN ...`). */
export interface SingleQuery extends BaseNode {
  readonly kind: Kind.SingleQuery;
  readonly clauses: readonly Clause[];
}

/**
 * `left UNION [ALL] right`, left-associative: `a UNION b UNION ALL c` is
 * `Union(Union(a, b, all=false), c, all=true)`.
 */
export interface Union extends BaseNode {
  readonly kind: Kind.Union;
  readonly all: boolean;
  readonly left: Query;
  readonly right: SingleQuery;
}

/** The value returned by `parse()`. */
export type StatementAst = Statement;
