/**
 * Query depth and complexity limits, as one validation rule run before execution on every
 * transport. Complexity counts each selected field once, multiplied by the fan-out of every list
 * field above it: its `limit` argument when given as a literal, else 10 (100 for root lists such
 * as `allNodes`, whose default page is 100), so wide fan-outs are refused up front.
 * Introspection fields are not counted: their depth is fixed by the schema, and tools such as
 * GraphiQL send introspection queries deeper than any data query needs.
 */
import {
  GraphQLError,
  Kind,
  getNamedType,
  getNullableType,
  isListType,
  isObjectType,
  type ASTVisitor,
  type FieldNode,
  type FragmentDefinitionNode,
  type GraphQLNamedType,
  type GraphQLSchema,
  type SelectionSetNode,
  type ValidationContext,
} from 'graphql';

/** Limits of one operation. */
export interface QueryLimits {
  readonly maxDepth: number;
  readonly maxComplexity: number;
}

/** Default limits. */
export const DEFAULT_LIMITS: QueryLimits = { maxDepth: 12, maxComplexity: 50_000 };

/** Fan-out assumed for a nested list field without a literal `limit`. */
const DEFAULT_FAN_OUT = 10;
/** Fan-out assumed for a root list field without a literal `limit`. */
const DEFAULT_ROOT_FAN_OUT = 100;

interface Measure {
  readonly depth: number;
  readonly complexity: number;
}

interface Walk {
  readonly schema: GraphQLSchema;
  readonly fragments: Readonly<Record<string, FragmentDefinitionNode>>;
  readonly visiting: Set<string>;
}

function fanOut(field: FieldNode, isList: boolean, atRoot: boolean): number {
  if (!isList) return 1;
  const limit = field.arguments?.find((argument) => argument.name.value === 'limit')?.value;
  if (limit?.kind === Kind.INT) return Math.max(1, Number(limit.value));
  return atRoot ? DEFAULT_ROOT_FAN_OUT : DEFAULT_FAN_OUT;
}

function measure(selectionSet: SelectionSetNode, parent: GraphQLNamedType | undefined, walk: Walk, atRoot: boolean): Measure {
  let depth = 0;
  let complexity = 0;
  for (const selection of selectionSet.selections) {
    let inner: Measure;
    if (selection.kind === Kind.FIELD) {
      // Introspection (`__schema`, `__type`) is bounded by the schema itself; tools send deep ones.
      if (selection.name.value.startsWith('__')) continue;
      const definition = isObjectType(parent) ? parent.getFields()[selection.name.value] : undefined;
      const isList = definition !== undefined && isListType(getNullableType(definition.type));
      const childType = definition === undefined ? undefined : getNamedType(definition.type);
      const child = selection.selectionSet ? measure(selection.selectionSet, childType, walk, false) : { depth: 0, complexity: 0 };
      inner = { depth: child.depth + 1, complexity: 1 + fanOut(selection, isList, atRoot) * child.complexity };
    } else if (selection.kind === Kind.INLINE_FRAGMENT) {
      const type = selection.typeCondition ? walk.schema.getType(selection.typeCondition.name.value) : parent;
      inner = measure(selection.selectionSet, type ?? undefined, walk, atRoot);
    } else {
      const fragment = walk.fragments[selection.name.value];
      if (fragment === undefined || walk.visiting.has(fragment.name.value)) continue;
      walk.visiting.add(fragment.name.value);
      inner = measure(fragment.selectionSet, walk.schema.getType(fragment.typeCondition.name.value) ?? undefined, walk, atRoot);
      walk.visiting.delete(fragment.name.value);
    }
    depth = Math.max(depth, inner.depth);
    complexity += inner.complexity;
  }
  return { depth, complexity };
}

/** A validation rule enforcing `limits`. */
export function queryLimitsRule(limits: QueryLimits) {
  return (context: ValidationContext): ASTVisitor => ({
    OperationDefinition(operation) {
      const schema = context.getSchema();
      const fragments: Record<string, FragmentDefinitionNode> = {};
      for (const definition of context.getDocument().definitions) {
        if (definition.kind === Kind.FRAGMENT_DEFINITION) fragments[definition.name.value] = definition;
      }
      const root = schema.getRootType(operation.operation) ?? undefined;
      const { depth, complexity } = measure(operation.selectionSet, root, { schema, fragments, visiting: new Set() }, true);
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
