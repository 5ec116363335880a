import type { CallProcedure, CallSubquery, Clause, ProjectionBody, SetItem, With } from '../ast/clauses.js';
import type { Expression } from '../ast/expressions.js';
import { Kind } from '../ast/kinds.js';
import type { Query, SingleQuery } from '../ast/statements.js';
import { containsAggregate } from './ast-utils.js';
import type { VariableSymbol } from './context.js';
import { PatternBinder } from './pattern-binder.js';
import { Scope } from './scope.js';
import { elementOf, typeFromSignature } from './static-types.js';

/** The variables in scope around one clause (for the planner). */
export interface ClauseScope {
  readonly before: readonly VariableSymbol[];
  readonly after: readonly VariableSymbol[];
}

/**
 * Terminology:
 * - The binder walks clauses in order, threading a flat scope from one clause to the next; WITH
 *   and RETURN replace the scope with their projection, UNION parts start empty, CALL
 *   subqueries import explicitly.
 * - Every variable occurrence is bound to its symbol in the ValidationContext, so rules can ask
 *   for static types afterwards.
 */
export class Binder extends PatternBinder {
  /** Scope before and after each clause, by clause node. */
  readonly clauseScopes = new Map<Clause, ClauseScope>();

  /** Binds a top-level query; returns its result columns. */
  bindTopLevel(query: Query): readonly string[] {
    return this.bindQuery(query, () => new Scope()) ?? [];
  }

  /** A query nested in an expression (EXISTS / COUNT / COLLECT): it sees the whole outer scope. */
  bindNestedQuery(query: Query, outer: Scope): readonly string[] | null {
    return this.bindQuery(query, () => outer.flatten());
  }

  /** `Query`: each UNION part starts from `initial()`; reports `DifferentColumnsInUnion`. */
  private bindQuery(query: Query, initial: () => Scope, importScope?: Scope): readonly string[] | null {
    if (query.kind === Kind.SingleQuery) return this.bindSingleQuery(query, initial(), importScope);
    const left = this.bindQuery(query.left, initial, importScope);
    const right = this.bindSingleQuery(query.right, initial(), importScope);
    if (left !== null && right !== null && (left.length !== right.length || left.some((name, i) => name !== right[i]))) {
      this.context.report(query.right, 'All sub queries in an UNION must have the same return column names', 'DifferentColumnsInUnion');
    }
    return left;
  }

  /**
   * Binds the clauses in order; returns the RETURN columns (or a standalone procedure call's
   * outputs), null when the query returns nothing. `importScope` is what a leading WITH of a
   * legacy `CALL { WITH a ... }` subquery reads from.
   */
  private bindSingleQuery(query: SingleQuery, scope: Scope, importScope?: Scope): readonly string[] | null {
    let columns: readonly string[] | null = null;
    query.clauses.forEach((clause, index) => {
      const before = scope.symbols();
      const input = index === 0 && importScope && clause.kind === Kind.With ? importScope : scope;
      const result = this.bindClause(clause, input, query.clauses.length === 1);
      scope = result.scope;
      if (result.columns !== null) columns = result.columns;
      this.clauseScopes.set(clause, { before, after: scope.symbols() });
    });
    return columns;
  }

  /** Binds one clause against `scope`; returns the scope after it and any result columns. */
  private bindClause(clause: Clause, scope: Scope, standalone: boolean): { scope: Scope; columns: readonly string[] | null } {
    const same = { scope, columns: null };
    switch (clause.kind) {
      case Kind.Use:
      case Kind.Finish:
        return same;
      case Kind.Match:
        this.bindPattern(clause.pattern, scope, 'match');
        for (const hint of clause.hints) for (const variable of hint.variables) this.resolve(variable, scope);
        if (clause.where) this.bindExpression(clause.where, scope);
        return same;
      case Kind.Unwind:
        this.bindExpression(clause.expression, scope);
        this.declareFresh(scope, clause.variable, elementOf(this.context.typeOf(clause.expression)));
        return same;
      case Kind.With: {
        if (clause.form === 'LET') this.checkLet(clause, scope);
        const next = this.bindProjection(clause.projection, scope, false, clause.form === 'LET' || clause.form === 'FILTER');
        if (clause.where) {
          // WHERE also sees the variables before a non-aggregating WITH (Neo4j 5 semantics).
          const aggregating = clause.projection.items.some((item) => containsAggregate(item.expression, this.context.lookupFunction));
          const whereScope = aggregating ? next.scope : new Scope(null, [...scope.symbols(), ...next.scope.symbols()]);
          this.bindExpression(clause.where, whereScope);
        }
        return { scope: next.scope, columns: null };
      }
      case Kind.Return:
        return this.bindProjection(clause.projection, scope, true);
      case Kind.CallSubquery:
        return { scope: this.bindCallSubquery(clause, scope), columns: null };
      case Kind.CallProcedure:
        return this.bindCallProcedure(clause, scope, standalone);
      case Kind.LoadCsv:
        this.bindExpression(clause.source, scope);
        this.declareFresh(scope, clause.variable, clause.withHeaders ? 'Map' : { list: 'String' });
        return same;
      case Kind.Create:
        this.bindPattern(clause.pattern, scope, 'create');
        return same;
      case Kind.Merge:
        this.bindPatternPart(clause.pattern, scope, 'merge');
        for (const action of clause.actions) for (const item of action.items) this.bindSetItem(item, scope);
        return same;
      case Kind.Set:
        for (const item of clause.items) this.bindSetItem(item, scope);
        return same;
      case Kind.Remove:
        for (const item of clause.items) {
          if (item.kind === Kind.RemoveLabels) {
            this.resolve(item.variable, scope);
            for (const label of item.dynamicLabels) this.bindExpression(label.expression, scope);
          } else this.bindExpression(item.target, scope);
        }
        return same;
      case Kind.Delete:
        for (const expression of clause.expressions) this.bindExpression(expression, scope);
        return same;
      case Kind.Foreach: {
        this.bindExpression(clause.list, scope);
        let inner = scope.flatten();
        this.declare(inner, clause.variable, elementOf(this.context.typeOf(clause.list)));
        for (const nested of clause.clauses) inner = this.bindClause(nested, inner, false).scope;
        return same;
      }
    }
  }

  private bindSetItem(item: SetItem, scope: Scope): void {
    if (item.kind === Kind.SetLabels) {
      this.resolve(item.variable, scope);
      for (const label of item.dynamicLabels) this.bindExpression(label.expression, scope);
      return;
    }
    if (item.kind === Kind.SetVariable) this.resolve(item.variable, scope);
    else this.bindExpression(item.target, scope);
    this.bindExpression(item.value, scope);
  }

  /** Declares a variable that must not exist yet (`VariableAlreadyBound` otherwise). */
  private declareFresh(scope: Scope, variable: Parameters<Binder['declare']>[1], type: Parameters<Binder['declare']>[2]): void {
    if (scope.lookup(variable.name)) this.reportAlreadyBound(variable);
    else this.declare(scope, variable, type);
  }

  /** `LET x = e`: `x` must be new (Neo4j: VariableAlreadyBound) and `e` must not aggregate. */
  private checkLet(clause: With, scope: Scope): void {
    const item = clause.projection.items[0]!;
    const name = item.alias!.name;
    if (scope.lookup(name)) this.context.report(item.alias!, `Variable \`${name}\` already declared`, 'VariableAlreadyBound');
    if (containsAggregate(item.expression, this.context.lookupFunction)) {
      this.context.report(item.expression, 'Aggregate expressions are not allowed in LET', 'InvalidAggregation');
    }
  }

  /**
   * WITH / RETURN projection: reports `NoExpressionAlias`, `ColumnNameConflict`,
   * `NoVariablesInScope`, and resolves ORDER BY against the projection (plus the incoming scope
   * unless DISTINCT or aggregating). SKIP and LIMIT are checked by their own rule.
   */
  private bindProjection(
    body: ProjectionBody,
    scope: Scope,
    isReturn: boolean,
    keepsScope = false,
  ): { scope: Scope; columns: readonly string[] } {
    if (body.star && scope.symbols().length === 0 && !keepsScope) {
      this.context.report(
        body,
        `${isReturn ? 'RETURN' : 'WITH'} * is not allowed when there are no variables in scope`,
        'NoVariablesInScope',
      );
    }
    const next = new Scope(null, body.star ? scope.symbols() : []);
    const columns = body.star ? scope.names().sort() : [];
    const seen = new Set<string>(columns);
    for (const item of body.items) {
      this.bindExpression(item.expression, scope);
      let name: string;
      if (item.alias) name = item.alias.name;
      else if (item.expression.kind === Kind.Variable) name = item.expression.name;
      else {
        if (!isReturn) this.context.report(item, 'Expression in WITH must be aliased (use AS)', 'NoExpressionAlias');
        name = item.text;
      }
      if (seen.has(name)) {
        this.context.report(item, `Multiple result columns with the same name \`${name}\` are not supported`, 'ColumnNameConflict');
      }
      seen.add(name);
      columns.push(name);
      const type = this.context.typeOf(item.expression);
      const symbol: VariableSymbol = {
        name,
        type,
        declaration: item.alias ?? (item.expression.kind === Kind.Variable ? item.expression : null),
      };
      next.declare(symbol);
      if (item.alias) this.context.bind(item.alias, symbol);
    }
    if (body.orderBy) {
      const aggregating = body.items.some((item) => containsAggregate(item.expression, this.context.lookupFunction));
      const restricted = body.distinct || aggregating;
      const orderScope = restricted ? next : new Scope(null, [...scope.symbols(), ...next.symbols()]);
      const resolved: Expression[] = restricted ? body.items.map((item) => item.expression) : [];
      for (const sortItem of body.orderBy.items) this.bindExpression(sortItem.expression, orderScope, resolved);
    }
    return { scope: next, columns };
  }

  /** `CALL [(scope)] { ... }`: imports, binds the inner query, adds its columns to the outer scope. */
  private bindCallSubquery(clause: CallSubquery, scope: Scope): Scope {
    let columns: readonly string[] | null;
    if (clause.scope === null) {
      columns = this.bindQuery(clause.query, () => new Scope(), scope);
    } else {
      const imported =
        clause.scope === '*' ? scope.symbols() : clause.scope.map((v) => this.resolve(v, scope)).filter((s) => s !== undefined);
      columns = this.bindQuery(clause.query, () => new Scope(null, imported));
    }
    const tx = clause.inTransactions;
    if (tx?.batchSize) this.bindExpression(tx.batchSize, scope);
    if (tx?.concurrency) this.bindExpression(tx.concurrency, scope);
    const next = scope.flatten();
    for (const name of columns ?? []) {
      if (next.lookup(name)) this.context.report(clause, `Variable \`${name}\` already declared in outer scope`, 'VariableAlreadyBound');
      else next.declare({ name, type: 'Any', declaration: null });
    }
    if (tx?.reportStatusAs) this.declareFresh(next, tx.reportStatusAs, 'Map');
    return next;
  }

  /** `CALL proc(args) YIELD ...`: binds arguments and yielded variables. */
  private bindCallProcedure(clause: CallProcedure, scope: Scope, standalone: boolean): { scope: Scope; columns: readonly string[] | null } {
    for (const arg of clause.args ?? []) this.bindExpression(arg, scope);
    const signature = this.context.options.procedures?.([...clause.namespace, clause.name].join('.'));
    const outputs = signature?.outputs ?? [];
    if (clause.yieldStar) {
      for (const output of outputs) scope.declare({ name: output.name, type: typeFromSignature(output.type), declaration: null });
      return { scope, columns: standalone ? outputs.map((output) => output.name) : null };
    }
    if (clause.yieldItems === null) {
      if (!standalone) return { scope, columns: null };
      for (const output of outputs) scope.declare({ name: output.name, type: typeFromSignature(output.type), declaration: null });
      return { scope, columns: outputs.map((output) => output.name) };
    }
    const columns: string[] = [];
    for (const item of clause.yieldItems) {
      const output = outputs.find((o) => o.name === item.field);
      const variable = item.alias ?? { kind: Kind.Variable as const, name: item.field, loc: item.loc };
      this.declareFresh(scope, variable, output ? typeFromSignature(output.type) : 'Any');
      columns.push(variable.name);
    }
    if (clause.where) this.bindExpression(clause.where, scope);
    return { scope, columns: standalone ? columns : null };
  }
}
