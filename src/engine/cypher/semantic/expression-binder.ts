import type { Expression, SubqueryBody, Variable } from '../ast/expressions.js';
import { Kind } from '../ast/kinds.js';
import type { PathPattern, Pattern } from '../ast/patterns.js';
import type { Query } from '../ast/statements.js';
import { childrenOf } from '../ast/visitor.js';
import { sameAst } from './ast-utils.js';
import type { ValidationContext, VariableSymbol } from './context.js';
import { didYouMean, suggestionList } from './did-you-mean.js';
import { Scope } from './scope.js';
import { elementOf, type StaticType } from './static-types.js';

/** How a pattern may treat its variables. */
export type PatternMode = 'match' | 'create' | 'merge' | 'predicate' | 'comprehension';

/**
 * Resolves variables inside expressions and reports `UndefinedVariable`. Subclasses add
 * patterns and clauses; the layers call each other through the abstract methods.
 */
export abstract class ExpressionBinder {
  constructor(protected readonly context: ValidationContext) {}

  abstract bindPattern(pattern: Pattern, scope: Scope, mode: PatternMode): void;
  abstract bindPathPattern(path: PathPattern, scope: Scope, mode: PatternMode): void;
  /** Binds a nested query that sees `outer`; returns its result columns (null if it returns none). */
  abstract bindNestedQuery(query: Query, outer: Scope): readonly string[] | null;

  /**
   * Resolves every variable in `expression`. Subexpressions structurally equal to one of
   * `resolved` (projection items seen from ORDER BY) count as resolved without looking inside.
   */
  bindExpression(expression: Expression, scope: Scope, resolved: readonly Expression[] = []): void {
    if (resolved.length > 0 && resolved.some((r) => sameAst(r, expression))) return;
    switch (expression.kind) {
      case Kind.Variable:
        this.resolve(expression, scope);
        return;
      case Kind.ListComprehension:
      case Kind.ListPredicate: {
        this.bindExpression(expression.source, scope, resolved);
        const inner = scope.child();
        this.declare(inner, expression.variable, elementOf(this.context.typeOf(expression.source)));
        if (expression.where) this.bindExpression(expression.where, inner, resolved);
        if (expression.kind === Kind.ListComprehension && expression.projection)
          this.bindExpression(expression.projection, inner, resolved);
        return;
      }
      case Kind.Reduce: {
        this.bindExpression(expression.init, scope, resolved);
        this.bindExpression(expression.source, scope, resolved);
        const inner = scope.child();
        this.declare(inner, expression.accumulator, this.context.typeOf(expression.init));
        this.declare(inner, expression.variable, elementOf(this.context.typeOf(expression.source)));
        this.bindExpression(expression.expression, inner, resolved);
        return;
      }
      case Kind.PatternComprehension: {
        const inner = scope.child();
        this.bindPathPattern(expression.pattern, inner, 'comprehension');
        if (expression.variable) this.declare(inner, expression.variable, 'Path');
        if (expression.where) this.bindExpression(expression.where, inner, resolved);
        this.bindExpression(expression.projection, inner, resolved);
        return;
      }
      case Kind.PatternExpression:
        this.bindPathPattern(expression.pattern, scope, 'predicate');
        return;
      case Kind.ExistsSubquery:
      case Kind.CountSubquery:
        this.bindSubqueryBody(expression.body, scope);
        return;
      case Kind.CollectSubquery:
        this.bindNestedQuery(expression.body, scope);
        return;
      case Kind.MapProjection:
        this.resolve(expression.variable, scope);
        for (const selector of expression.selectors) {
          if (selector.kind === Kind.VariableSelector) this.resolve(selector.variable, scope);
          else if (selector.kind === Kind.LiteralEntrySelector) this.bindExpression(selector.value, scope, resolved);
        }
        return;
      default:
        // Children are expressions or hold them (CASE alternatives, map entries); labels and types hold none.
        for (const child of childrenOf(expression)) this.bindExpression(child as Expression, scope, resolved);
    }
  }

  private bindSubqueryBody(body: SubqueryBody, scope: Scope): void {
    if (body.kind !== Kind.SubqueryPattern) {
      this.bindNestedQuery(body, scope);
      return;
    }
    const inner = scope.child();
    this.bindPattern(body.pattern, inner, 'comprehension');
    if (body.where) this.bindExpression(body.where, inner);
  }

  /** Resolves a variable occurrence or reports `UndefinedVariable`. */
  protected resolve(variable: Variable, scope: Scope): VariableSymbol | undefined {
    const symbol = scope.lookup(variable.name);
    if (symbol) {
      this.context.bind(variable, symbol);
      return symbol;
    }
    this.reportUndefined(variable, scope);
    return undefined;
  }

  protected reportUndefined(variable: Variable, scope: Scope): void {
    const hint = didYouMean(suggestionList(variable.name, scope.names()));
    this.context.report(variable, `Variable \`${variable.name}\` not defined${hint ? `.${hint}` : ''}`, 'UndefinedVariable');
  }

  /** Declares a new variable in `scope`. */
  protected declare(scope: Scope, variable: Variable, type: StaticType): VariableSymbol {
    const symbol: VariableSymbol = { name: variable.name, type, declaration: variable };
    scope.declare(symbol);
    this.context.bind(variable, symbol);
    return symbol;
  }
}
