/**
 * The privilege decision: a requirement is allowed when a GRANT of one of the user's roles
 * covers it and no DENY of any of them blocks it (DENY wins, as in Neo4j). Privileges apply
 * to the databases their graph names (`*` never includes `system`), within the role's legacy
 * `_RoleDbAccess` allowlist when it has one. Denials throw Neo4j's Forbidden with its message
 * forms ("Database access is not allowed for user 'u' with roles [PUBLIC, r].", "Create node with
 * labels 'A' on database 'd' is not allowed for ...", "Permission denied for CREATE USER. ...").
 */
import { Forbidden, StatusCodes, graphError } from '../../errors/index.js';
import type { AccessRequirement, ElementSegment, StatementAccess } from '../../cypher/semantic/access-types.js';
import { DBMS_ACTIONS, GRAPH_ACTIONS, type PrivilegeAction, type PrivilegeRecord } from './types.js';

/** Who asks, as the decision needs it. */
export interface Subject {
  readonly username: string | null;
  /** Every role, PUBLIC included. */
  readonly roles: readonly string[];
  /** The user's home database (null: the default database). */
  readonly home: string | null;
}

/** Where the decision reads privileges and database names. */
export interface PrivilegeSource {
  privilegesOf(role: string): readonly PrivilegeRecord[];
  /** The role's legacy database allowlist (empty: no restriction). */
  allowlistOf(role: string): readonly string[];
  /** A database name or alias → the database (lower-case). */
  resolve(name: string): string;
  readonly defaultDatabase: string;
  /** True when the user must change the password first (CHANGE REQUIRED). */
  mustChangePassword?(username: string): boolean;
}

const SYSTEM = 'system';

const CREDENTIALS_EXPIRED =
  'Permission denied.\n\nThe credentials you provided were valid, but must be changed before you can use this instance. ' +
  'Run ALTER CURRENT USER SET PASSWORD FROM ... TO ... first.';

/** What a granted action covers besides itself. */
const IMPLIES: Partial<Record<PrivilegeAction, readonly PrivilegeAction[]>> = {
  match: ['traverse', 'read'],
  write: ['create_element', 'delete_element', 'set_property', 'set_label', 'remove_label'],
  merge: ['traverse', 'read', 'create_element', 'set_property'],
  graph_actions: [...GRAPH_ACTIONS],
  database_actions: [
    'access',
    'index',
    'constraint',
    'show_index',
    'show_constraint',
    'token',
    'start_database',
    'stop_database',
    'transaction_management',
  ],
  index: [],
  dbms_actions: [...DBMS_ACTIONS],
  user_management: ['create_user', 'drop_user', 'rename_user', 'alter_user', 'show_user'],
  role_management: ['create_role', 'drop_role', 'rename_role', 'show_role', 'assign_role', 'remove_role'],
  privilege_management: ['assign_privilege', 'remove_privilege', 'show_privilege'],
  database_management: ['create_database', 'drop_database', 'alter_database'],
  alias_management: ['show_alias'],
  execute_boosted: ['execute'],
  execute_admin: ['execute'],
};

function implies(granted: PrivilegeAction, wanted: string): boolean {
  return granted === wanted || (IMPLIES[granted]?.includes(wanted as PrivilegeAction) ?? false);
}

function parseSegment(segment: string): { element: string; name: string } | null {
  const match = /^(NODE|RELATIONSHIP|PROCEDURE|FUNCTION|USER)\((.*)\)$/.exec(segment);
  return match ? { element: match[1]!, name: match[2]! } : null;
}

function globMatches(glob: string, name: string): boolean {
  const pattern = glob
    .replace(/[.+^${}()|[\]\\]/g, '\\$&')
    .replace(/\*/g, '.*')
    .replace(/\?/g, '.');
  return new RegExp(`^${pattern}$`, 'i').test(name);
}

/** Decides requirements for one subject on one database. */
export class PrivilegeDecision {
  private readonly applicable: { readonly grants: PrivilegeRecord[]; readonly denies: PrivilegeRecord[] };

  constructor(
    private readonly subject: Subject,
    private readonly source: PrivilegeSource,
    readonly database: string,
  ) {
    const target = source.resolve(database);
    const grants: PrivilegeRecord[] = [];
    const denies: PrivilegeRecord[] = [];
    for (const role of subject.roles) {
      const allowlist = source.allowlistOf(role).map((d) => source.resolve(d));
      for (const p of source.privilegesOf(role)) {
        const dbms = DBMS_ACTIONS.has(p.action);
        if (!dbms && allowlist.length > 0 && !allowlist.includes(target)) continue;
        if (!dbms && !this.graphMatches(p, target)) continue;
        (p.access === 'GRANTED' ? grants : denies).push(p);
      }
    }
    this.applicable = { grants, denies };
  }

  private graphMatches(p: PrivilegeRecord, target: string): boolean {
    if (p.graph === '*') return target !== SYSTEM || !GRAPH_ACTIONS.has(p.action);
    if (p.graph === 'HOME') return this.source.resolve(this.subject.home ?? this.source.defaultDatabase) === target;
    if (p.graph === 'DEFAULT') return this.source.resolve(this.source.defaultDatabase) === target;
    return this.source.resolve(p.graph) === target;
  }

  /** True when the requirement is granted and not denied. */
  allows(requirement: AccessRequirement): boolean {
    const { grants, denies } = this.applicable;
    return grants.some((p) => covers(p, requirement, false)) && !denies.some((p) => covers(p, requirement, true));
  }

  /** True when the user may use the database at all. */
  hasAccess(): boolean {
    const { grants, denies } = this.applicable;
    const access = (p: PrivilegeRecord): boolean => implies(p.action, 'access');
    return grants.some(access) && !denies.some(access);
  }

  /** Throws Forbidden for the first requirement not allowed. */
  check(access: StatementAccess): void {
    const username = this.subject.username;
    if (username !== null && this.source.mustChangePassword?.(username) && (access.needsDatabaseAccess || access.requirements.length > 0)) {
      throw graphError(StatusCodes.CredentialsExpired, CREDENTIALS_EXPIRED);
    }
    const target = this.source.resolve(this.database);
    if (access.needsDatabaseAccess) {
      if (!this.hasAccess()) throw new Forbidden(`Database access is not allowed for ${this.who()}.`);
      if (target === SYSTEM && !this.allows({ action: 'dbms', privilege: 'dbms_actions', command: 'queries on the system database' })) {
        throw new Forbidden(`${deniedCommand('queries on the system database')}`);
      }
    }
    for (const requirement of access.requirements) {
      if (!this.allows(requirement)) throw new Forbidden(this.message(requirement));
    }
  }

  private who(): string {
    return `user '${this.subject.username ?? 'anonymous'}' with roles [${this.subject.roles.join(', ')}]`;
  }

  private message(r: AccessRequirement): string {
    const on = `on database '${this.database}' is not allowed for ${this.who()}.`;
    switch (r.action) {
      case 'traverse':
        return `Traverse ${describe(r.segment)} ${on}`;
      case 'read':
        return `Read ${r.property ? `property '${r.property}'` : 'all properties'} of ${describe(r.segment)} ${on}`;
      case 'create_element':
        return `Create ${describe(r.segment)} ${on}`;
      case 'delete_element':
        return `Delete ${describe(r.segment)} ${on}`;
      case 'set_property':
        return `Set property for ${r.property ? `property '${r.property}'` : 'all properties'} ${on}`;
      case 'set_label':
      case 'remove_label':
        return `${r.action === 'set_label' ? 'Set' : 'Remove'} label for ${r.label ? `label '${r.label}'` : 'all labels'} ${on}`;
      case 'execute':
        return `Executing procedure is not allowed for ${this.who()}.`;
      case 'load':
        return r.url === null ? `LOAD is denied for ${this.who()}.` : `LOAD on URL '${r.url}' is denied for ${this.who()}.`;
      case 'start_database':
      case 'stop_database':
        return deniedCommand(r.action === 'start_database' ? 'START DATABASE' : 'STOP DATABASE');
      case 'index':
      case 'constraint':
      case 'show_index':
      case 'show_constraint':
        return `Schema operation '${r.operation}' ${on}`;
      case 'dbms':
        return deniedCommand(r.command);
    }
  }
}

/** Neo4j's message for a refused administration command. */
export function deniedCommand(command: string): string {
  return (
    `Permission denied for ${command}. Try executing SHOW USER PRIVILEGES to determine the missing or denied privileges. ` +
    'In case of missing privileges, they need to be granted (See GRANT). In case of denied privileges, they need to be revoked (See REVOKE) and granted.'
  );
}

function describe(segment: ElementSegment): string {
  if (segment.element === 'NODE')
    return segment.names === null || segment.names.length === 0 ? 'node' : `node with labels '${segment.names.join(':')}'`;
  return segment.names === null || segment.names.length === 0 ? 'relationship' : `relationship with type '${segment.names.join('|')}'`;
}

/** Whether a privilege covers (grant) or blocks (deny, `deny` true) a requirement. */
function covers(p: PrivilegeRecord, r: AccessRequirement, deny: boolean): boolean {
  switch (r.action) {
    case 'traverse':
    case 'read':
    case 'create_element':
    case 'delete_element':
    case 'set_property': {
      if (!implies(p.action, r.action)) return false;
      if (deny && p.action === 'match' && r.action === 'traverse' && p.resource !== 'all_properties') return false;
      const segment = parseSegment(p.segment);
      if (segment === null || segment.element !== r.segment.element) return false;
      const names = r.segment.names;
      const segmentOk = segment.name === '*' || (names !== null && names.includes(segment.name)) || (deny && names === null);
      if (!segmentOk) return false;
      if (r.action !== 'read' && r.action !== 'set_property') return true;
      if (p.resource === 'all_properties' || p.resource === 'graph') return true;
      const property = /^property\((.*)\)$/.exec(p.resource)?.[1];
      return property !== undefined && (r.property === property || (deny && r.property === null));
    }
    case 'set_label':
    case 'remove_label': {
      if (!implies(p.action, r.action)) return false;
      if (p.resource === 'all_labels' || p.resource === 'graph') return true;
      const label = /^label\((.*)\)$/.exec(p.resource)?.[1];
      return label !== undefined && (r.label === label || (deny && r.label === null));
    }
    case 'execute': {
      if (p.action === 'dbms_actions') return true;
      if (!implies(p.action, 'execute')) return false;
      const segment = parseSegment(p.segment);
      return segment !== null && segment.element === 'PROCEDURE' && globMatches(segment.name, r.procedure);
    }
    case 'load': {
      if (p.action !== 'load') return false;
      if (p.resource === 'all_data') return true;
      const url = /^url\((.*)\)$/.exec(p.resource)?.[1];
      // A URL known only at run time: any LOAD grant lets the statement start; the file opener asks again with the URL.
      if (r.url === null) return !deny && url !== undefined;
      return url !== undefined && url === r.url;
    }
    case 'dbms':
      return implies(p.action, r.privilege);
    default:
      return implies(p.action, r.action);
  }
}
