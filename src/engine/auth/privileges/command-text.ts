/**
 * Privileges as Cypher commands (SHOW ... PRIVILEGES AS [REVOKE] COMMANDS), in the form
 * Neo4j prints them: "GRANT MATCH {*} ON GRAPH * NODE * TO `reader`".
 */
import { printName } from '../../cypher/ast/index.js';
import type { PrivilegeRecord } from './types.js';

const DATABASE_WORDS: Readonly<Record<string, string>> = {
  access: 'ACCESS',
  index: 'INDEX MANAGEMENT',
  constraint: 'CONSTRAINT MANAGEMENT',
  show_index: 'SHOW INDEX',
  show_constraint: 'SHOW CONSTRAINT',
  token: 'NAME MANAGEMENT',
  start_database: 'START',
  stop_database: 'STOP',
  transaction_management: 'TRANSACTION MANAGEMENT',
  database_actions: 'ALL DATABASE PRIVILEGES',
};

const DBMS_WORDS: Readonly<Record<string, string>> = {
  dbms_actions: 'ALL DBMS PRIVILEGES',
  user_management: 'USER MANAGEMENT',
  create_user: 'CREATE USER',
  drop_user: 'DROP USER',
  rename_user: 'RENAME USER',
  alter_user: 'ALTER USER',
  show_user: 'SHOW USER',
  role_management: 'ROLE MANAGEMENT',
  create_role: 'CREATE ROLE',
  drop_role: 'DROP ROLE',
  rename_role: 'RENAME ROLE',
  show_role: 'SHOW ROLE',
  assign_role: 'ASSIGN ROLE',
  remove_role: 'REMOVE ROLE',
  privilege_management: 'PRIVILEGE MANAGEMENT',
  assign_privilege: 'ASSIGN PRIVILEGE',
  remove_privilege: 'REMOVE PRIVILEGE',
  show_privilege: 'SHOW PRIVILEGE',
  database_management: 'DATABASE MANAGEMENT',
  create_database: 'CREATE DATABASE',
  drop_database: 'DROP DATABASE',
  alter_database: 'ALTER DATABASE',
  alias_management: 'ALIAS MANAGEMENT',
  show_alias: 'SHOW ALIAS',
  execute_admin: 'EXECUTE ADMIN PROCEDURES',
};

function inner(segment: string): string {
  return segment.slice(segment.indexOf('(') + 1, -1);
}

function scope(graph: string, word: 'GRAPH' | 'DATABASE'): string {
  if (graph === 'HOME' || graph === 'DEFAULT') return `${graph} ${word}`;
  return `${word} ${graph === '*' ? '*' : printName(graph)}`;
}

function properties(resource: string): string {
  return resource === 'all_properties' || resource === 'graph' ? '{*}' : `{${printName(inner(resource))}}`;
}

function element(segment: string): string {
  const kind = segment.startsWith('NODE') ? 'NODE' : 'RELATIONSHIP';
  const name = inner(segment);
  return `${kind} ${name === '*' ? '*' : printName(name)}`;
}

/** The privilege part of a command, between GRANT/DENY and TO (`MATCH {*} ON GRAPH * NODE *`). */
export function privilegeText(p: PrivilegeRecord): string {
  const graph = scope(p.graph, 'GRAPH');
  switch (p.action) {
    case 'traverse':
      return `TRAVERSE ON ${graph} ${element(p.segment)}`;
    case 'read':
    case 'match':
    case 'merge':
      return `${p.action.toUpperCase()} ${properties(p.resource)} ON ${graph} ${element(p.segment)}`;
    case 'set_property':
      return `SET PROPERTY ${properties(p.resource)} ON ${graph} ${element(p.segment)}`;
    case 'create_element':
      return `CREATE ON ${graph} ${element(p.segment)}`;
    case 'delete_element':
      return `DELETE ON ${graph} ${element(p.segment)}`;
    case 'write':
      return `WRITE ON ${graph}`;
    case 'graph_actions':
      return `ALL GRAPH PRIVILEGES ON ${graph}`;
    case 'set_label':
    case 'remove_label': {
      const label = p.resource === 'all_labels' ? '*' : printName(inner(p.resource));
      return `${p.action === 'set_label' ? 'SET' : 'REMOVE'} LABEL ${label} ON ${graph}`;
    }
    case 'load':
      return p.resource === 'all_data'
        ? 'LOAD ON ALL DATA'
        : `LOAD ON ${p.resource.startsWith('url') ? 'URL' : 'CIDR'} '${inner(p.resource).replace(/'/g, "\\'")}'`;
    case 'execute':
      return `EXECUTE PROCEDURE ${inner(p.segment)} ON DBMS`;
    case 'execute_boosted':
      return `EXECUTE BOOSTED ${p.segment.startsWith('FUNCTION') ? 'FUNCTION' : 'PROCEDURE'} ${inner(p.segment)} ON DBMS`;
    case 'execute_function':
      return `EXECUTE FUNCTION ${inner(p.segment)} ON DBMS`;
    case 'show_setting':
      return `SHOW SETTING ${inner(p.segment)} ON DBMS`;
    case 'transaction_management':
      return `TRANSACTION MANAGEMENT (${inner(p.segment)}) ON ${scope(p.graph, 'DATABASE')}`;
    default: {
      const database = DATABASE_WORDS[p.action];
      if (database !== undefined) return `${database} ON ${scope(p.graph, 'DATABASE')}`;
      return `${DBMS_WORDS[p.action] ?? p.action.toUpperCase()} ON DBMS`;
    }
  }
}

/** `GRANT|DENY privilege TO role`, or with `revoke` `REVOKE GRANT|DENY privilege FROM role`. */
export function privilegeCommand(p: PrivilegeRecord, revoke: boolean): string {
  const kind = p.access === 'GRANTED' ? 'GRANT' : 'DENY';
  const role = `\`${p.role.replace(/`/g, '``')}\``;
  return revoke ? `REVOKE ${kind} ${privilegeText(p)} FROM ${role}` : `${kind} ${privilegeText(p)} TO ${role}`;
}
