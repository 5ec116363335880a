/**
 * The privileges schema, SHOW, database and DBMS administration commands need (Neo4j's
 * database and DBMS privileges). Queries are marked by access.ts.
 */
import type { AdminCommand } from '../ast/admin.js';
import { Kind } from '../ast/kinds.js';
import type { SchemaCommand, Show } from '../ast/schema.js';
import type { AccessRequirement, DbmsAction, StatementAccess } from './access-types.js';

const NONE: readonly AccessRequirement[] = [];

function dbms(privilege: DbmsAction, command: string): StatementAccess {
  return { needsDatabaseAccess: false, requirements: [{ action: 'dbms', privilege, command }] };
}

function both(...items: readonly (readonly [DbmsAction, string])[]): StatementAccess {
  return { needsDatabaseAccess: false, requirements: items.map(([privilege, command]) => ({ action: 'dbms', privilege, command })) };
}

/** SHOW commands: what each lists decides what it needs. */
function showAccess(show: Show): StatementAccess {
  switch (show.target) {
    case 'INDEXES':
      return { needsDatabaseAccess: true, requirements: [{ action: 'show_index', operation: 'show_index' }] };
    case 'CONSTRAINTS':
      return { needsDatabaseAccess: true, requirements: [{ action: 'show_constraint', operation: 'show_constraint' }] };
    case 'USERS':
      return dbms('show_user', 'SHOW USERS');
    case 'ROLES':
      return dbms('show_role', 'SHOW ROLES');
    case 'ROLES WITH USERS':
      return both(['show_role', 'SHOW ROLES'], ['show_user', 'SHOW USERS']);
    case 'PRIVILEGES':
    case 'ROLE PRIVILEGES':
      return dbms('show_privilege', 'SHOW PRIVILEGE');
    case 'USER PRIVILEGES':
      return show.name === null
        ? { needsDatabaseAccess: false, requirements: NONE }
        : both(['show_privilege', 'SHOW PRIVILEGE'], ['show_user', 'SHOW USER']);
    case 'SETTINGS':
      return dbms('show_setting', 'SHOW SETTINGS');
    case 'ALIASES':
      return dbms('show_alias', 'SHOW ALIASES');
    case 'LIMITS':
      return dbms('dbms_actions', 'SHOW LIMITS');
    default:
      // Databases, procedures, functions, the current user and the user's own transactions.
      return { needsDatabaseAccess: false, requirements: NONE };
  }
}

/** What a schema, SHOW or administration command needs. */
export function commandAccess(command: SchemaCommand | AdminCommand): StatementAccess {
  switch (command.kind) {
    case Kind.CreateIndex:
      return { needsDatabaseAccess: true, requirements: [{ action: 'index', operation: 'create_index' }] };
    case Kind.DropIndex:
      return { needsDatabaseAccess: true, requirements: [{ action: 'index', operation: 'drop_index' }] };
    case Kind.CreateConstraint:
      return { needsDatabaseAccess: true, requirements: [{ action: 'constraint', operation: 'create_constraint' }] };
    case Kind.DropConstraint:
      return { needsDatabaseAccess: true, requirements: [{ action: 'constraint', operation: 'drop_constraint' }] };
    case Kind.Show:
      return showAccess(command);
    case Kind.CreateDatabase:
      return dbms('create_database', 'CREATE DATABASE');
    case Kind.DropDatabase:
      return dbms('drop_database', 'DROP DATABASE');
    case Kind.AlterDatabase:
      return dbms('alter_database', 'ALTER DATABASE');
    case Kind.StartDatabase:
    case Kind.StopDatabase: {
      const action = command.kind === Kind.StartDatabase ? 'start_database' : 'stop_database';
      return { needsDatabaseAccess: false, requirements: [{ action, operation: action, database: command.name.name }] };
    }
    case Kind.CreateAlias:
    case Kind.DropAlias:
    case Kind.AlterAlias:
      return dbms(
        'alias_management',
        command.kind === Kind.CreateAlias ? 'CREATE ALIAS' : command.kind === Kind.DropAlias ? 'DROP ALIAS' : 'ALTER ALIAS',
      );
    case Kind.CreateUser:
      return command.orReplace ? both(['create_user', 'CREATE USER'], ['drop_user', 'DROP USER']) : dbms('create_user', 'CREATE USER');
    case Kind.AlterUser:
      return dbms('alter_user', 'ALTER USER');
    case Kind.AlterCurrentUser:
      return { needsDatabaseAccess: false, requirements: NONE };
    case Kind.DropUser:
      return dbms('drop_user', 'DROP USER');
    case Kind.RenameUser:
      return dbms('rename_user', 'RENAME USER');
    case Kind.CreateRole:
      return command.orReplace ? both(['create_role', 'CREATE ROLE'], ['drop_role', 'DROP ROLE']) : dbms('create_role', 'CREATE ROLE');
    case Kind.DropRole:
      return dbms('drop_role', 'DROP ROLE');
    case Kind.RenameRole:
      return dbms('rename_role', 'RENAME ROLE');
    case Kind.RoleMembership:
      return command.grant ? dbms('assign_role', 'GRANT ROLE') : dbms('remove_role', 'REVOKE ROLE');
    case Kind.PrivilegeCommand:
      return command.operation === 'REVOKE'
        ? dbms('remove_privilege', 'REVOKE PRIVILEGE')
        : dbms('assign_privilege', `${command.operation} PRIVILEGE`);
  }
}
