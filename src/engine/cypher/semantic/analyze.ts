import type { GraphError } from '../../errors/index.js';
import type { Clause } from '../ast/clauses.js';
import type { Expression, Variable } from '../ast/expressions.js';
import { Kind } from '../ast/kinds.js';
import type { Statement } from '../ast/statements.js';
import { visit, visitInParallel } from '../ast/visitor.js';
import { Binder, type ClauseScope } from './binder.js';
import { ValidationContext, type AnalyzeOptions, type VariableSymbol } from './context.js';
import { specifiedRules, type ValidationRule } from './rules/index.js';
import type { StaticType } from './static-types.js';

/** What the planner gets from the front end besides the AST. */
export interface AnalyzedStatement {
  readonly statement: Statement;
  /** `query` for clause sequences, `schema` for index/constraint/SHOW commands, `admin` for databases and aliases. */
  readonly category: 'query' | 'schema' | 'admin';
  /** Result columns in order (RETURN items, `RETURN *` sorted by name, standalone CALL outputs). */
  readonly columns: readonly string[];
  /** Variables in scope before and after each clause (keyed by clause node). */
  readonly clauseScopes: ReadonlyMap<Clause, ClauseScope>;
  /** Names of the parameters the statement uses. */
  readonly parameters: ReadonlySet<string>;
  /** True when the statement writes (CREATE, MERGE, SET, REMOVE, DELETE, FOREACH, commands). */
  readonly updating: boolean;
  /** The symbol a variable occurrence resolved to. */
  symbolOf(variable: Variable): VariableSymbol | undefined;
  /** The static type of an expression (`Any` when unknown). */
  typeOf(expression: Expression): StaticType;
}

const updatingKinds = new Set<Kind>([Kind.Create, Kind.Merge, Kind.Set, Kind.Remove, Kind.Delete, Kind.Foreach]);

/** Runs binding and every rule; returns the context holding the errors and resolutions. */
function run(
  statement: Statement,
  options: AnalyzeOptions,
  rules: readonly ValidationRule[],
): { context: ValidationContext; binder: Binder; columns: readonly string[] } {
  const context = new ValidationContext(statement, options);
  const binder = new Binder(context);
  const body = statement.body;
  const columns = body.kind === Kind.SingleQuery || body.kind === Kind.Union ? binder.bindTopLevel(body) : [];
  visit(statement, visitInParallel(rules.map((rule) => rule(context))));
  return { context, binder, columns };
}

/**
 * Errors that only matter when nothing more specific applies (Neo4j reports the ambiguity of an
 * unaliased aggregation before the missing alias).
 */
const lowPriorityDetails = new Set(['NoExpressionAlias']);

/** All semantic errors of a statement (empty when valid): binder errors, then rule errors, low-priority ones last. */
export function validate(
  statement: Statement,
  options: AnalyzeOptions = {},
  rules: readonly ValidationRule[] = specifiedRules,
): readonly GraphError[] {
  const errors = run(statement, options, rules).context.getErrors();
  const rank = (error: GraphError): number => (lowPriorityDetails.has(error.detail ?? '') ? 1 : 0);
  return [...errors].sort((a, b) => rank(a) - rank(b));
}

/**
 * Checks a parsed statement and returns scoping and typing facts for the planner. Throws the
 * first error (`CypherSyntaxError` with a TCK `detail`, or `CypherTypeError`,
 * `ProcedureNotFound`, `ParameterMissing`).
 */
export function analyze(statement: Statement, options: AnalyzeOptions = {}): AnalyzedStatement {
  const { context, binder, columns } = run(statement, options, specifiedRules);
  if (context.getErrors().length > 0) throw validate(statement, options)[0]!;
  const parameters = new Set<string>();
  let updating = statement.body.kind !== Kind.SingleQuery && statement.body.kind !== Kind.Union && statement.body.kind !== Kind.Show;
  visit(statement, {
    enter(node) {
      if (node.kind === Kind.Parameter) parameters.add(node.name);
      else if (updatingKinds.has(node.kind)) updating = true;
    },
  });
  const body = statement.body.kind;
  const category =
    body === Kind.SingleQuery || body === Kind.Union
      ? 'query'
      : body === Kind.CreateIndex ||
          body === Kind.DropIndex ||
          body === Kind.CreateConstraint ||
          body === Kind.DropConstraint ||
          body === Kind.Show
        ? 'schema'
        : 'admin';
  return {
    statement,
    category,
    columns,
    clauseScopes: binder.clauseScopes,
    parameters,
    updating,
    symbolOf: (variable) => context.symbolOf(variable),
    typeOf: (expression) => context.typeOf(expression),
  };
}
