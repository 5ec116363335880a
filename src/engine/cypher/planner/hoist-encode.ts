/**
 * Evaluates `genai.vector.encode(resource, provider[, configuration])` ahead of the clause that
 * uses it: each call whose arguments only use variables bound before the clause becomes
 * `CALL genai.vector.encodeBatch([resource], provider[, configuration]) YIELD vector AS <anon>`
 * planned before the clause, and the call is replaced by the anonymous variable. The procedure
 * embeds asynchronously (the event loop stays free); the function itself cannot.
 * MATCH clauses and nested subquery or comprehension expressions are left alone (their calls
 * fail with an explanation, see functions/genai.ts).
 */
import { Kind } from '../ast/index.js';
import type { Clause, Expression, FunctionCall } from '../ast/index.js';
import { mentionedVariables, substitute, variable } from './ast-utils.js';
import type { LogicalOperator } from './logical/logical-operator.js';
import type { PlannerContext, PlanState } from './planner-context.js';

const NESTED: ReadonlySet<string> = new Set([
  Kind.ExistsSubquery,
  Kind.CountSubquery,
  Kind.CollectSubquery,
  Kind.ListComprehension,
  Kind.PatternComprehension,
  Kind.Reduce,
  Kind.ListPredicate,
  Kind.PatternExpression,
  Kind.QuantifiedPath,
]);

function isEncode(node: Expression): node is FunctionCall {
  return (
    node.kind === Kind.FunctionCall && node.namespace.join('.').toLowerCase() === 'genai.vector' && node.name.toLowerCase() === 'encode'
  );
}

/** Whether `node` holds an encode call outside nested scopes. */
function hasEncode(node: unknown): boolean {
  if (Array.isArray(node)) return node.some(hasEncode);
  if (typeof node !== 'object' || node === null) return false;
  const record = node as Record<string, unknown>;
  if (typeof record.kind === 'string' && NESTED.has(record.kind)) return false;
  if (record.kind === Kind.FunctionCall && isEncode(node as Expression)) return true;
  return Object.entries(record).some(([key, value]) => key !== 'loc' && hasEncode(value));
}

/** The clause with its hoistable encode calls replaced, and the state with the calls planned. */
export function hoistEncodes(clause: Clause, state: PlanState, ctx: PlannerContext): { clause: Clause; state: PlanState } {
  if (clause.kind === Kind.Match || clause.kind === Kind.CallSubquery || !hasEncode(clause)) return { clause, state };
  let plan: LogicalOperator = state.plan;
  const added: string[] = [];
  const inScope = new Set(state.scope);
  const rewrite = (node: Expression): Expression | undefined => {
    if (NESTED.has(node.kind)) return node;
    if (!isEncode(node) || node.args.length < 2 || node.args.length > 3) return undefined;
    if (![...mentionedVariables(node.args)].every((name) => inScope.has(name))) return node;
    const anon = ctx.anon('encoded');
    const resources: Expression = { kind: Kind.ListLiteral, items: [node.args[0]!] };
    plan = {
      op: 'ProcedureCall',
      input: plan,
      name: 'genai.vector.encodeBatch',
      args: [resources, ...node.args.slice(1)],
      yields: [{ field: 'vector', variable: anon }],
      yieldAll: false,
      optional: false,
      mode: 'READ',
    };
    added.push(anon);
    return variable(anon);
  };
  const rewritten = substitute(clause, rewrite);
  if (added.length === 0) return { clause, state };
  return { clause: rewritten, state: { ...state, plan, scope: [...state.scope, ...added], readGraph: true } };
}
