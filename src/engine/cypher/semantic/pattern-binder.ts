import type { MapLiteral, Parameter, Variable } from '../ast/expressions.js';
import { Kind } from '../ast/kinds.js';
import type { LabelExpression, NodePattern, PathPattern, Pattern, PatternPart, RelationshipPattern } from '../ast/patterns.js';
import { childrenOf } from '../ast/visitor.js';
import { ExpressionBinder, type PatternMode } from './expression-binder.js';
import { Scope } from './scope.js';
import { isList, isOpen, listOf, type StaticType } from './static-types.js';

/**
 * Binds pattern variables: declares new ones, reuses bound ones, and reports
 * `VariableAlreadyBound` / `VariableTypeConflict` / `UndefinedVariable` (in predicate patterns).
 */
export abstract class PatternBinder extends ExpressionBinder {
  /** Relationship variables of the MATCH pattern being bound (each may name one relationship only). */
  private matchedRelationships: Set<string> | null = null;

  /** `Pattern : PatternPart (',' PatternPart)*` */
  bindPattern(pattern: Pattern, scope: Scope, mode: PatternMode): void {
    const saved = this.matchedRelationships;
    this.matchedRelationships = mode === 'match' ? new Set() : null;
    try {
      for (const part of pattern.parts) this.bindPatternPart(part, scope, mode);
    } finally {
      this.matchedRelationships = saved;
    }
  }

  /** Binds one part; the path variable is declared after the elements it names. */
  bindPatternPart(part: PatternPart, scope: Scope, mode: PatternMode): void {
    const path = part.element.kind === Kind.ShortestPath ? part.element.pattern : part.element;
    this.bindPathPattern(path, scope, mode, path.elements.length === 1 && part.variable === null);
    if (part.variable) {
      if (scope.lookup(part.variable.name)) this.reportAlreadyBound(part.variable);
      // In a pattern, allShortestPaths binds one path per row (only the expression form is a list).
      else this.declare(scope, part.variable, 'Path');
    }
  }

  /** Binds the node and relationship patterns of a path. */
  bindPathPattern(path: PathPattern, scope: Scope, mode: PatternMode, singleNode = false): void {
    for (const element of path.elements) {
      if (element.kind === Kind.NodePattern) this.bindNode(element, scope, mode, singleNode);
      else if (element.kind === Kind.RelationshipPattern) this.bindRelationship(element, scope, mode);
      else {
        const inner = scope.child();
        this.bindPathPattern(element.pattern, inner, mode);
        if (element.where) this.bindExpression(element.where, inner);
        // Variables of a quantified path are group variables: lists outside the quantifier.
        for (const symbol of inner.symbols()) {
          if (scope.lookup(symbol.name) === undefined && symbol.declaration) {
            this.declare(scope, symbol.declaration, element.quantifier ? listOf(symbol.type) : symbol.type);
          }
        }
      }
    }
  }

  private bindNode(node: NodePattern, scope: Scope, mode: PatternMode, singleNode: boolean): void {
    if (node.variable) {
      const existing = scope.lookup(node.variable.name);
      if (existing) {
        const creating = mode === 'create' || mode === 'merge';
        if (creating && (singleNode || node.labels !== null || node.properties !== null)) this.reportAlreadyBound(node.variable);
        else if (!isOpen(existing.type) && existing.type !== 'Node') this.reportTypeConflict(node.variable, 'Node', existing.type);
        else this.context.bind(node.variable, existing);
      } else if (mode === 'predicate') {
        this.reportUndefined(node.variable, scope);
      } else {
        this.declare(scope, node.variable, 'Node');
      }
    }
    this.bindDynamicLabels(node.labels, scope);
    this.bindProperties(node.properties, scope);
    if (node.where) this.bindExpression(node.where, scope);
  }

  /** Binds the expressions of dynamic labels and types (`:$(expr)`) of a pattern element. */
  protected bindDynamicLabels(labels: LabelExpression | null, scope: Scope): void {
    if (labels === null) return;
    if (labels.kind === Kind.DynamicLabel) this.bindExpression(labels.expression, scope);
    else for (const child of childrenOf(labels)) this.bindDynamicLabels(child as LabelExpression, scope);
  }

  private bindRelationship(rel: RelationshipPattern, scope: Scope, mode: PatternMode): void {
    if (rel.variable && mode === 'match' && this.matchedRelationships) {
      if (this.matchedRelationships.has(rel.variable.name)) {
        this.context.report(
          rel.variable,
          `Cannot use the same relationship variable '${rel.variable.name}' for multiple relationships`,
          'VariableAlreadyBound',
        );
      }
      this.matchedRelationships.add(rel.variable.name);
    }
    if (rel.variable) {
      const type: StaticType = rel.length ? listOf('Relationship') : 'Relationship';
      const existing = scope.lookup(rel.variable.name);
      if (existing) {
        if (mode === 'create' || mode === 'merge') this.reportAlreadyBound(rel.variable);
        else if (
          !isOpen(existing.type) &&
          existing.type !== 'Relationship' &&
          !(rel.length && isList(existing.type) && (existing.type.list === 'Relationship' || isOpen(existing.type.list)))
        ) {
          this.reportTypeConflict(rel.variable, 'Relationship', existing.type);
        } else this.context.bind(rel.variable, existing);
      } else if (mode === 'predicate') {
        this.reportUndefined(rel.variable, scope);
      } else {
        this.declare(scope, rel.variable, type);
      }
    }
    this.bindDynamicLabels(rel.types, scope);
    this.bindProperties(rel.properties, scope);
    if (rel.where) this.bindExpression(rel.where, scope);
  }

  private bindProperties(properties: MapLiteral | Parameter | null, scope: Scope): void {
    if (properties?.kind === Kind.MapLiteral) this.bindExpression(properties, scope);
  }

  protected reportAlreadyBound(variable: Variable): void {
    this.context.report(variable, `Variable \`${variable.name}\` already declared`, 'VariableAlreadyBound');
  }

  private reportTypeConflict(variable: Variable, wanted: string, actual: StaticType): void {
    const actualName = typeof actual === 'object' ? 'List' : actual;
    this.context.report(
      variable,
      `Type mismatch: \`${variable.name}\` defined with conflicting type ${actualName} (expected ${wanted})`,
      'VariableTypeConflict',
    );
  }
}
