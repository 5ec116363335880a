/**
 * Whether a `tx/commit` request may take the HTTP write-behind path: every statement must compile
 * (parse and semantic analysis, through a query cache so repeated texts cost one lookup), be
 * a pure CREATE (see pure-create.ts), and pass the parameter checks that can be made up front
 * (every parameter it uses must be given; one used as a property value, or as a whole property
 * map, must be storable), and create no node label or relationship type that a constraint of the
 * database covers (`constrained`): whether such a write violates a uniqueness, key, existence or
 * type constraint depends on the data and on writes queued before it, so it is known exactly only
 * when it runs. A statement that fails any of these is not eligible: it runs synchronously so its
 * normal error (Neo4j's `Schema.ConstraintValidationFailed` for a conflict) reaches the client
 * instead of a 202 for a write that could never be flushed.
 */
import { assertStorableProperty } from '../storage/property-rules.js';
import type { CypherValue } from '../values/types.js';
import { childrenOf, Kind, type AstNode, type Expression } from './ast/index.js';
import { QueryCache } from './query-cache.js';
import { pureCreateEstimate, type PureCreateEstimate } from './pure-create.js';

export type { PureCreateEstimate } from './pure-create.js';

/** One statement of a request, as the classifier needs it. */
export interface ClassifiedStatement {
  readonly statement: string;
  readonly parameters: ReadonlyMap<string, CypherValue>;
}

/** Classifies requests for the write-behind path. */
export class AsyncWriteClassifier {
  constructor(private readonly cache: QueryCache = new QueryCache()) {}

  /**
   * Estimates per statement when the whole request is eligible, else null. `constrained`: the
   * labels and relationship types some constraint of the database covers.
   */
  classify(statements: readonly ClassifiedStatement[], constrained: ReadonlySet<string> = new Set()): PureCreateEstimate[] | null {
    if (statements.length === 0) return null;
    const estimates: PureCreateEstimate[] = [];
    for (const request of statements) {
      let estimate: PureCreateEstimate | null;
      try {
        const { ast } = this.cache.compile(request.statement);
        estimate = pureCreateEstimate(ast, request.parameters);
        if (estimate !== null) assertStorableParameters(ast, request.parameters);
        if (estimate !== null && constrained.size > 0 && createsConstrained(ast, constrained)) return null;
      } catch {
        return null;
      }
      if (estimate === null) return null;
      estimates.push(estimate);
    }
    return estimates;
  }
}

/** True when a pattern names a constrained label or type, or a dynamic one (which might be). */
function createsConstrained(node: AstNode, constrained: ReadonlySet<string>): boolean {
  if (node.kind === Kind.LabelName) return constrained.has(node.name);
  if (node.kind === Kind.DynamicLabel) return true;
  return childrenOf(node).some((child) => createsConstrained(child, constrained));
}

/** Throws when a parameter is missing, or is a property value (or a property map) that cannot be stored. */
function assertStorableParameters(node: AstNode, parameters: ReadonlyMap<string, CypherValue>): void {
  if (node.kind === Kind.Parameter && !parameters.has(node.name)) throw new TypeError(`Expected parameter(s): ${node.name}`);
  if (node.kind === Kind.NodePattern || node.kind === Kind.RelationshipPattern) {
    const { properties } = node;
    if (properties?.kind === Kind.Parameter) {
      const map = parameters.get(properties.name);
      if (!(map instanceof Map)) throw new TypeError(`$${properties.name} is not a property map`);
      for (const value of (map as ReadonlyMap<string, CypherValue>).values()) if (value !== null) assertStorableProperty(value);
    } else if (properties?.kind === Kind.MapLiteral) {
      for (const entry of properties.entries) assertStorableValue(entry.value, parameters);
    }
  }
  for (const child of childrenOf(node)) assertStorableParameters(child, parameters);
}

function assertStorableValue(expression: Expression, parameters: ReadonlyMap<string, CypherValue>): void {
  if (expression.kind !== Kind.Parameter) return;
  const value = parameters.get(expression.name);
  if (value !== undefined && value !== null) assertStorableProperty(value);
}
