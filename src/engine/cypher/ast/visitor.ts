import type { AstNode } from './nodes.js';
import { Kind } from './kinds.js';

/**
 * For each kind, the keys of its child nodes in source order (graphql-js `QueryDocumentKeys`).
 * A key may hold a node, an array of nodes, null, or (for `CallSubquery.scope`) the string `'*'`.
 */
export const childKeys: { readonly [K in Kind]: readonly string[] } = {
  [Kind.Statement]: ['options', 'body'],
  [Kind.CypherOption]: [],
  [Kind.SingleQuery]: ['clauses'],
  [Kind.Union]: ['left', 'right'],
  [Kind.Use]: ['graph'],
  [Kind.Match]: ['pattern', 'hints', 'where'],
  [Kind.UsingHint]: ['variables'],
  [Kind.Unwind]: ['expression', 'variable'],
  [Kind.With]: ['projection', 'where'],
  [Kind.Return]: ['projection'],
  [Kind.ProjectionBody]: ['items', 'orderBy', 'skip', 'limit'],
  [Kind.ProjectionItem]: ['expression', 'alias'],
  [Kind.OrderBy]: ['items'],
  [Kind.SortItem]: ['expression'],
  [Kind.CallSubquery]: ['scope', 'query', 'inTransactions'],
  [Kind.InTransactions]: ['concurrency', 'batchSize', 'reportStatusAs'],
  [Kind.CallProcedure]: ['args', 'yieldItems', 'where'],
  [Kind.YieldItem]: ['alias'],
  [Kind.LoadCsv]: ['source', 'variable'],
  [Kind.Finish]: [],
  [Kind.Create]: ['pattern'],
  [Kind.Merge]: ['pattern', 'actions'],
  [Kind.MergeAction]: ['items'],
  [Kind.Set]: ['items'],
  [Kind.SetProperty]: ['target', 'value'],
  [Kind.SetVariable]: ['variable', 'value'],
  [Kind.SetLabels]: ['variable', 'dynamicLabels'],
  [Kind.Remove]: ['items'],
  [Kind.RemoveProperty]: ['target'],
  [Kind.RemoveLabels]: ['variable', 'dynamicLabels'],
  [Kind.Delete]: ['expressions'],
  [Kind.Foreach]: ['variable', 'list', 'clauses'],
  [Kind.Pattern]: ['parts'],
  [Kind.PatternPart]: ['variable', 'selector', 'element'],
  [Kind.PathSelector]: [],
  [Kind.PathPattern]: ['elements'],
  [Kind.ShortestPath]: ['pattern'],
  [Kind.NodePattern]: ['variable', 'labels', 'properties', 'where'],
  [Kind.RelationshipPattern]: ['variable', 'types', 'length', 'properties', 'where'],
  [Kind.Range]: [],
  [Kind.QuantifiedPath]: ['variable', 'pattern', 'where', 'quantifier'],
  [Kind.LabelName]: [],
  [Kind.LabelWildcard]: [],
  [Kind.LabelNot]: ['operand'],
  [Kind.LabelAnd]: ['left', 'right'],
  [Kind.LabelOr]: ['left', 'right'],
  [Kind.DynamicLabel]: ['expression'],
  [Kind.IntegerLiteral]: [],
  [Kind.FloatLiteral]: [],
  [Kind.StringLiteral]: [],
  [Kind.BooleanLiteral]: [],
  [Kind.NullLiteral]: [],
  [Kind.ListLiteral]: ['items'],
  [Kind.MapLiteral]: ['entries'],
  [Kind.MapEntry]: ['value'],
  [Kind.Parameter]: [],
  [Kind.Variable]: [],
  [Kind.PropertyAccess]: ['object'],
  [Kind.Subscript]: ['object', 'index'],
  [Kind.Slice]: ['object', 'from', 'to'],
  [Kind.FunctionCall]: ['args'],
  [Kind.CountStar]: [],
  [Kind.BinaryOperation]: ['left', 'right'],
  [Kind.UnaryOperation]: ['operand'],
  [Kind.IsNull]: ['operand'],
  [Kind.TypePredicate]: ['operand', 'type'],
  [Kind.LabelPredicate]: ['operand', 'labels'],
  [Kind.Case]: ['subject', 'alternatives', 'otherwise'],
  [Kind.CaseAlternative]: ['when', 'then'],
  [Kind.ListComprehension]: ['variable', 'source', 'where', 'projection'],
  [Kind.PatternComprehension]: ['variable', 'pattern', 'where', 'projection'],
  [Kind.ListPredicate]: ['variable', 'source', 'where'],
  [Kind.Reduce]: ['accumulator', 'init', 'variable', 'source', 'expression'],
  [Kind.MapProjection]: ['variable', 'selectors'],
  [Kind.PropertySelector]: [],
  [Kind.AllPropertiesSelector]: [],
  [Kind.VariableSelector]: ['variable'],
  [Kind.LiteralEntrySelector]: ['value'],
  [Kind.PatternExpression]: ['pattern'],
  [Kind.SubqueryPattern]: ['pattern', 'where'],
  [Kind.ExistsSubquery]: ['body'],
  [Kind.CountSubquery]: ['body'],
  [Kind.CollectSubquery]: ['body'],
  [Kind.SimpleType]: [],
  [Kind.ListType]: ['elementType'],
  [Kind.UnionType]: ['types'],
  [Kind.CreateIndex]: ['variable', 'options'],
  [Kind.DropIndex]: [],
  [Kind.CreateConstraint]: ['variable', 'propertyType', 'options'],
  [Kind.DropConstraint]: [],
  [Kind.Show]: ['name', 'yieldItems', 'orderBy', 'skip', 'limit', 'where', 'returnClause'],
  [Kind.CreateDatabase]: ['name', 'options'],
  [Kind.DropDatabase]: ['name'],
  [Kind.AlterDatabase]: ['name', 'settings'],
  [Kind.DatabaseSetting]: ['value'],
  [Kind.StartDatabase]: ['name'],
  [Kind.StopDatabase]: ['name'],
  [Kind.CreateAlias]: ['name', 'target', 'properties'],
  [Kind.DropAlias]: ['name'],
  [Kind.AlterAlias]: ['name', 'target', 'properties'],
  [Kind.SymbolicName]: ['parameter'],
  [Kind.CreateUser]: ['name', 'password', 'home'],
  [Kind.AlterUser]: ['name', 'password', 'home'],
  [Kind.AlterCurrentUser]: ['oldPassword', 'newPassword'],
  [Kind.DropUser]: ['name'],
  [Kind.RenameUser]: ['name', 'newName'],
  [Kind.CreateRole]: ['name', 'copyOf'],
  [Kind.DropRole]: ['name'],
  [Kind.RenameRole]: ['name', 'newName'],
  [Kind.RoleMembership]: ['roles', 'users'],
  [Kind.PrivilegeCommand]: ['roles'],
};

/** Returned by an `enter` callback: skip this node's children. */
export const SKIP = Symbol('skip');
/** Returned by an `enter` or `leave` callback: stop the whole traversal. */
export const BREAK = Symbol('break');

/** What a visitor callback may return. */
export type VisitorResult = void | undefined | typeof SKIP | typeof BREAK;

/** Callbacks for a traversal; `ancestors` is the path from the root (excluding `node`). */
export interface Visitor {
  enter?(node: AstNode, ancestors: readonly AstNode[]): VisitorResult;
  leave?(node: AstNode, ancestors: readonly AstNode[]): VisitorResult;
}

/** Callbacks keyed by kind, each receiving the narrowed node type. */
export type KindVisitor = {
  readonly [K in Kind]?: {
    enter?(node: Extract<AstNode, { kind: K }>, ancestors: readonly AstNode[]): VisitorResult;
    leave?(node: Extract<AstNode, { kind: K }>, ancestors: readonly AstNode[]): VisitorResult;
  };
};

/** True for values that are AST nodes (objects with a string `kind` known to `childKeys`). */
export function isAstNode(value: unknown): value is AstNode {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as { kind?: unknown }).kind === 'string' &&
    (value as { kind: string }).kind in childKeys
  );
}

/** The child nodes of `node`, in source order. */
export function childrenOf(node: AstNode): AstNode[] {
  const result: AstNode[] = [];
  for (const key of childKeys[node.kind]) {
    const value = (node as unknown as Record<string, unknown>)[key];
    if (Array.isArray(value)) {
      for (const item of value) if (isAstNode(item)) result.push(item);
    } else if (isAstNode(value)) {
      result.push(value);
    }
  }
  return result;
}

/**
 * Depth-first traversal driven by `childKeys`. `enter` may return `SKIP` (do not descend) or
 * `BREAK` (stop); `leave` may return `BREAK`. Returns false when the traversal was broken off.
 */
export function visit(root: AstNode, visitor: Visitor): boolean {
  const ancestors: AstNode[] = [];
  const walk = (node: AstNode): boolean => {
    const entered = visitor.enter?.(node, ancestors);
    if (entered === BREAK) return false;
    if (entered !== SKIP) {
      ancestors.push(node);
      for (const child of childrenOf(node)) {
        if (!walk(child)) return false;
      }
      ancestors.pop();
    }
    return visitor.leave?.(node, ancestors) !== BREAK;
  };
  return walk(root);
}

/** Adapts a kind-keyed visitor to a generic one (graphql-js `getEnterLeaveForKind`). */
export function byKind(visitor: KindVisitor): Visitor {
  type Callbacks = { enter?(n: AstNode, a: readonly AstNode[]): VisitorResult; leave?(n: AstNode, a: readonly AstNode[]): VisitorResult };
  const lookup = (node: AstNode): Callbacks | undefined => visitor[node.kind];
  return {
    enter: (node, ancestors) => lookup(node)?.enter?.(node, ancestors),
    leave: (node, ancestors) => lookup(node)?.leave?.(node, ancestors),
  };
}

/** Visits several visitors in one traversal (graphql-js `visitInParallel`); SKIP is per visitor. */
export function visitInParallel(visitors: readonly Visitor[]): Visitor {
  const skipping: (AstNode | null)[] = visitors.map(() => null);
  return {
    enter(node, ancestors) {
      for (let i = 0; i < visitors.length; i++) {
        if (skipping[i] !== null) continue;
        const result = visitors[i]!.enter?.(node, ancestors);
        if (result === SKIP) skipping[i] = node;
        else if (result === BREAK) return BREAK;
      }
      return undefined;
    },
    leave(node, ancestors) {
      for (let i = 0; i < visitors.length; i++) {
        if (skipping[i] === null) {
          if (visitors[i]!.leave?.(node, ancestors) === BREAK) return BREAK;
        } else if (skipping[i] === node) {
          skipping[i] = null;
        }
      }
      return undefined;
    },
  };
}
