/**
 * The constituent graphs a statement on a composite database reaches. The session of a
 * composite database (session/composite/) provides one per statement; on a standard database
 * there is none, and `CALL { USE ... }` runs on the statement's own database.
 */
import { SemanticError } from '../../errors/index.js';
import type { GraphReader, GraphWriter } from '../../storage/graph-store.js';
import type { CypherValue } from '../../values/types.js';
import { Kind } from '../ast/index.js';
import type { Expression, Query } from '../ast/index.js';
import type { GraphCatalog } from '../functions/registry.js';

/** One constituent, opened for a subquery. */
export interface ConstituentGraph {
  /** The standard database the constituent targets. */
  readonly database: string;
  readonly reader: GraphReader;
  /** The writer when the subquery writes (the transaction's one written constituent), else null. */
  readonly writer: GraphWriter | null;
  /** Entity references read on this constituent, as values that outlive its reader. */
  materialize(value: CypherValue): CypherValue;
}

/** What a statement on a composite database can reach. */
export interface GraphSource extends GraphCatalog {
  /**
   * Opens constituent `name` (qualified, `composite.alias`) to run `query`: checks that it is a
   * constituent of the composite and that the user may run `query` there; `writes` asks for the
   * writer (at most one constituent per transaction is written).
   */
  open(name: string, query: Query, writes: boolean): ConstituentGraph;
}

/** How a `USE` clause names its graph: a fixed name, or an expression evaluated per row. */
export type GraphReference =
  { readonly kind: 'name'; readonly name: string } | { readonly kind: 'byName' | 'byElementId'; readonly argument: Expression };

/** The graph reference of a `USE` expression (`a.b`, `graph.byName(expr)`, `graph.byElementId(expr)`). */
export function graphReference(expression: Expression): GraphReference {
  const name = staticName(expression);
  if (name !== null) return { kind: 'name', name };
  if (expression.kind === Kind.FunctionCall && expression.args.length === 1 && expression.namespace.join('.').toLowerCase() === 'graph') {
    const fn = expression.name.toLowerCase();
    if (fn === 'byname') return { kind: 'byName', argument: expression.args[0]! };
    if (fn === 'byelementid') return { kind: 'byElementId', argument: expression.args[0]! };
  }
  throw new SemanticError('Invalid graph reference in USE: expected a graph name, graph.byName(name) or graph.byElementId(id).');
}

function staticName(expression: Expression): string | null {
  if (expression.kind === Kind.Variable) return expression.name;
  if (expression.kind === Kind.PropertyAccess) {
    const base = staticName(expression.object);
    return base === null ? null : `${base}.${expression.property}`;
  }
  return null;
}
