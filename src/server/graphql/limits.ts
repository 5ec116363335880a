/**
 * Query depth and complexity limits, as one validation rule run before execution on every
 * transport. Complexity counts each selected field once, multiplied by the `limit` argument of
 * list fields above it (10 when a list field has none), so wide fan-outs are refused up front.
 */
import { GraphQLError, Kind, type ASTVisitor, type FieldNode, type FragmentDefinitionNode, type SelectionSetNode, type ValidationContext } from 'graphql';

/** Limits of one operation. */
export interface QueryLimits {
  readonly maxDepth: number;
  readonly maxComplexity: number;
}

/** Default limits. */
export const DEFAULT_LIMITS: QueryLimits = { maxDepth: 12, maxComplexity: 50_000 };

/** Fan-out assumed for a list field without a `limit` argument. */
const DEFAULT_FAN_OUT = 10;
const LIST_FIELDS = new Set(['relationships', 'outgoing', 'incoming', 'neighbors', 'similar', 'allNodes', 'results', 'shortestPath', 'labels']);

interface Measure {
  readonly depth: number;
  readonly complexity: number;
}

function fanOut(field: FieldNode, variables: Record<string, unknown>): number {
  if (!LIST_FIELDS.has(field.name.value) || field.selectionSet === undefined) return 1;
  const limit = field.arguments?.find((argument) => argument.name.value === 'limit')?.value;
  if (limit?.kind === Kind.INT) return Math.max(1, Number(limit.value));
  if (limit?.kind === Kind.VARIABLE) {
    const value = variables[limit.name.value];
    if (typeof value === 'number' && value > 0) return value;
  }
  return field.name.value === 'allNodes' ? 100 : DEFAULT_FAN_OUT;
}

function measure(
  selectionSet: SelectionSetNode,
  fragments: Readonly<Record<string, FragmentDefinitionNode>>,
  variables: Record<string, unknown>,
  visiting: Set<string>,
): Measure {
  let depth = 0;
  let complexity = 0;
  for (const selection of selectionSet.selections) {
    let inner: Measure;
    if (selection.kind === Kind.FIELD) {
      const child = selection.selectionSet ? measure(selection.selectionSet, fragments, variables, visiting) : { depth: 0, complexity: 0 };
      inner = { depth: child.depth + 1, complexity: 1 + fanOut(selection, variables) * child.complexity };
    } else if (selection.kind === Kind.INLINE_FRAGMENT) {
      inner = measure(selection.selectionSet, fragments, variables, visiting);
    } else {
      const fragment = fragments[selection.name.value];
      if (fragment === undefined || visiting.has(fragment.name.value)) continue;
      visiting.add(fragment.name.value);
      inner = measure(fragment.selectionSet, fragments, variables, visiting);
      visiting.delete(fragment.name.value);
    }
    depth = Math.max(depth, inner.depth);
    complexity += inner.complexity;
  }
  return { depth, complexity };
}

/** A validation rule enforcing `limits` (variables are read when the transport supplies them). */
export function queryLimitsRule(limits: QueryLimits, variables: () => Record<string, unknown> = () => ({})) {
  return (context: ValidationContext): ASTVisitor => ({
    OperationDefinition(operation) {
      const fragments: Record<string, FragmentDefinitionNode> = {};
      for (const definition of context.getDocument().definitions) {
        if (definition.kind === Kind.FRAGMENT_DEFINITION) fragments[definition.name.value] = definition;
      }
      const { depth, complexity } = measure(operation.selectionSet, fragments, variables(), new Set());
      if (depth > limits.maxDepth) {
        context.reportError(
          new GraphQLError(`Query depth ${depth} exceeds the maximum depth of ${limits.maxDepth}.`, {
            nodes: [operation],
            extensions: { code: 'GRAPHQL_QUERY_TOO_DEEP' },
          }),
        );
      }
      if (complexity > limits.maxComplexity) {
        context.reportError(
          new GraphQLError(`Query complexity ${complexity} exceeds the maximum complexity of ${limits.maxComplexity}.`, {
            nodes: [operation],
            extensions: { code: 'GRAPHQL_QUERY_TOO_COMPLEX' },
          }),
        );
      }
    },
  });
}
