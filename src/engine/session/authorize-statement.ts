/**
 * The privilege check every statement passes before it runs (auto-commit and explicit
 * transactions alike): what the semantic layer marked the statement as reading and writing,
 * plus what each called procedure's declared mode implies, against the session's security
 * context on the database the statement runs against.
 */
import { Kind, type Statement } from '../cypher/ast/index.js';
import type { ProcedureRegistry } from '../cypher/procedures/registry.js';
import { expandProcedures, statementAccess } from '../cypher/semantic/access.js';
import type { AccessRequirement } from '../cypher/semantic/access-types.js';
import type { Permission, SecurityContext } from './types.js';

/** The coarse permission a requirement falls under (for contexts that only decide those). */
function coarse(requirement: AccessRequirement): Permission {
  switch (requirement.action) {
    case 'traverse':
    case 'read':
    case 'execute':
    case 'load':
    case 'show_index':
    case 'show_constraint':
      return 'read';
    case 'create_element':
    case 'set_property':
    case 'set_label':
    case 'remove_label':
      return 'write';
    case 'delete_element':
      return 'delete';
    case 'index':
    case 'constraint':
      return 'schema';
    default:
      return 'admin';
  }
}

/** Throws Forbidden unless `security` may run `statement` on `database`. */
export function authorizeStatement(
  security: SecurityContext | undefined,
  database: string,
  statement: Statement,
  procedures: ProcedureRegistry,
): void {
  if (security === undefined) return;
  const access = statementAccess(statement);
  const requirements = expandProcedures(access, (name) => procedures.lookup(name)?.mode);
  if (security.authorizeAccess) {
    security.authorizeAccess(database, { needsDatabaseAccess: access.needsDatabaseAccess, requirements });
    return;
  }
  if (!security.authorize) return;
  const permissions = new Set<Permission>(requirements.map(coarse));
  if (access.needsDatabaseAccess && permissions.size === 0) permissions.add('read');
  for (const permission of (['read', 'write', 'delete', 'schema', 'admin'] as const).filter((p) => permissions.has(p)))
    security.authorize(database, permission);
}

/** True when `statement` changes a database's graph or schema (a replicated cluster runs it on the leader). */
export function statementWritesGraph(statement: Statement, procedures: ProcedureRegistry): boolean {
  const access = statementAccess(statement);
  const requirements = expandProcedures(access, (name) => procedures.lookup(name)?.mode);
  return requirements.some((requirement) => {
    const permission = coarse(requirement);
    return permission === 'write' || permission === 'delete' || permission === 'schema';
  });
}

/**
 * True when `statement` is an administration command that changes the DBMS (users, roles,
 * privileges, databases, aliases: everything but SHOW and schema commands), which a replicated
 * cluster runs on the leader and replicates through the `system` database's log.
 */
export function statementAdministers(statement: Statement): boolean {
  const kind = statement.body.kind;
  return (
    kind !== Kind.SingleQuery &&
    kind !== Kind.Union &&
    kind !== Kind.Show &&
    kind !== Kind.CreateIndex &&
    kind !== Kind.DropIndex &&
    kind !== Kind.CreateConstraint &&
    kind !== Kind.DropConstraint
  );
}
