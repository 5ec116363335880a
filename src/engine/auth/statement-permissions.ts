/**
 * The permissions a planned statement needs (spec rule 6), decided from the logical plan: reading
 * operators need `read`; Create/Merge/Set/Remove need `write`; Delete needs `delete`; schema
 * commands (CREATE/DROP INDEX or CONSTRAINT) need `schema`; database administration needs `admin`.
 * SHOW DATABASES/PROCEDURES/FUNCTIONS need nothing; SHOW USERS/ROLES/SETTINGS need `admin`.
 */
import { Kind } from '../cypher/ast/index.js';
import type { CommandCall } from '../cypher/planner/logical/command-call.js';
import type { LogicalOperator } from '../cypher/planner/logical/logical-operator.js';
import type { StatementPlan } from '../cypher/planner/plan-statement.js';
import { childrenOf } from '../cypher/planner/plan-tree.js';
import type { Permission } from '../session/types.js';

const READING_OPERATORS: ReadonlySet<string> = new Set([
  'AllNodesScan',
  'NodeByLabelScan',
  'NodeByDynamicLabelScan',
  'NodePropertyScan',
  'NodeIndexSeek',
  'NodeByIdSeek',
  'NodeByElementIdSeek',
  'DirectedRelationshipByIdSeek',
  'UndirectedRelationshipByIdSeek',
  'DirectedRelationshipByElementIdSeek',
  'UndirectedRelationshipByElementIdSeek',
  'Expand',
  'ShortestPath',
  'ProcedureCall',
  'LoadCsv',
]);

function collect(op: LogicalOperator, into: Set<Permission>): void {
  if (READING_OPERATORS.has(op.op)) into.add('read');
  switch (op.op) {
    case 'Create':
    case 'SetProperties':
    case 'Remove':
      into.add('write');
      break;
    case 'Merge':
      into.add('read');
      into.add('write');
      break;
    case 'Delete':
      into.add('delete');
      break;
    case 'ProcedureCall':
      if (op.mode === 'WRITE') into.add('write');
      if (op.mode === 'SCHEMA') into.add('schema');
      break;
    default:
      break;
  }
  for (const child of childrenOf(op)) collect(child, into);
}

/**
 * SHOW commands about the server rather than one database's graph: any principal may run them.
 * (SHOW/TERMINATE TRANSACTIONS show and act on the user's own transactions, all of them for admins.)
 */
const SERVER_INFORMATION: ReadonlySet<string> = new Set([
  'DATABASES', 'DATABASE', 'DEFAULT DATABASE', 'HOME DATABASE', 'PROCEDURES', 'FUNCTIONS', 'CURRENT USER', 'TRANSACTIONS', 'TERMINATE TRANSACTIONS',
]);

/** SHOW commands that reveal accounts or configuration: admin only. */
const ADMIN_INFORMATION: ReadonlySet<string> = new Set(['USERS', 'ROLES', 'SETTINGS', 'ALIASES', 'LIMITS']);

/** The CommandCall a command's plan runs: the root, or the leaf under a SHOW command's projections. */
function findCommandCall(op: LogicalOperator): CommandCall | null {
  if (op.op === 'CommandCall') return op;
  const children = childrenOf(op);
  return children.length === 1 && children[0] !== undefined ? findCommandCall(children[0]) : null;
}

/**
 * The permissions `plan` requires, in a stable order. A statement that neither reads the graph
 * nor changes it (`RETURN 1`) requires `read`, so a principal without any permission on the
 * database cannot use it at all.
 */
export function requiredPermissions(plan: StatementPlan): Permission[] {
  if (plan.admin) return ['admin'];
  const commandCall = findCommandCall(plan.plan);
  if (commandCall !== null) {
    const { command } = commandCall;
    if (command.kind === Kind.Show) {
      if (SERVER_INFORMATION.has(command.target)) return [];
      if (ADMIN_INFORMATION.has(command.target)) return ['admin'];
      return ['read'];
    }
    return [plan.writes ? 'schema' : 'read'];
  }
  const found = new Set<Permission>();
  collect(plan.plan, found);
  if (found.size === 0) found.add('read');
  return (['read', 'write', 'delete', 'schema', 'admin'] as const).filter((p) => found.has(p));
}
