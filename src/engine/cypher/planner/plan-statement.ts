/**
 * Statement → logical plan: the planner's entry point. Queries go through per-clause planning
 * then the rewrite passes; SHOW commands a CommandCall row source under ordinary projections
 * (see plan-show.ts); other schema and admin commands a single CommandCall.
 */
import type { QueryType } from '../../session/types.js';
import { Kind } from '../ast/index.js';
import type { Statement } from '../ast/index.js';
import type { LogicalOperator } from './logical/logical-operator.js';
import { planQuery } from './plan-query.js';
import type { PlannerContext } from './planner-context.js';
import { planShow } from './plan-show.js';
import { rewritePlan } from './rewrite/passes.js';

/** What the session needs to run a statement. */
export interface StatementPlan {
  readonly plan: LogicalOperator;
  readonly columns: readonly string[];
  readonly queryType: QueryType;
  /** Needs a write transaction. */
  readonly writes: boolean;
  /** CREATE/DROP DATABASE: runs outside graph transactions. */
  readonly admin: boolean;
  readonly explain: 'EXPLAIN' | 'PROFILE' | null;
  /** The planning context, reused to plan subquery expressions at run time (fresh anonymous names). */
  readonly context: PlannerContext;
}

/** Plans a parsed statement. */
export function planStatement(statement: Statement, ctx: PlannerContext): StatementPlan {
  const body = statement.body;
  const explain = statement.explain;
  switch (body.kind) {
    case Kind.SingleQuery:
    case Kind.Union: {
      const planned = planQuery(body, [], ctx);
      const plan = rewritePlan(planned.plan, ctx.catalog);
      const reads = planned.columns.length > 0;
      const queryType: QueryType = planned.updating ? (reads ? 'rw' : 'w') : 'r';
      return { plan, columns: planned.columns, queryType, writes: planned.updating, admin: false, explain, context: ctx };
    }
    case Kind.Show: {
      const { plan, columns } = planShow(body, ctx);
      return { plan, columns, queryType: 'r', writes: false, admin: false, explain, context: ctx };
    }
    case Kind.CreateDatabase:
    case Kind.DropDatabase:
    case Kind.AlterDatabase:
    case Kind.StartDatabase:
    case Kind.StopDatabase:
    case Kind.CreateAlias:
    case Kind.DropAlias:
    case Kind.AlterAlias:
    case Kind.CreateUser:
    case Kind.AlterUser:
    case Kind.AlterCurrentUser:
    case Kind.DropUser:
    case Kind.RenameUser:
    case Kind.CreateRole:
    case Kind.DropRole:
    case Kind.RenameRole:
    case Kind.RoleMembership:
    case Kind.PrivilegeCommand:
      return {
        plan: { op: 'CommandCall', command: body, columns: [] },
        columns: [],
        queryType: 's',
        writes: false,
        admin: true,
        explain,
        context: ctx,
      };
    default:
      return {
        plan: { op: 'CommandCall', command: body, columns: [] },
        columns: [],
        queryType: 's',
        writes: true,
        admin: false,
        explain,
        context: ctx,
      };
  }
}
