/**
 * What a statement reads and writes, as the privilege check sees it (Neo4j's privilege model):
 * graph elements by label or relationship type and property, procedures, LOAD, schema and
 * database/DBMS administration. Produced from the analysed statement by `statementAccess`
 * (access.ts) and checked against a user's privileges before the statement runs.
 */

/** Graph element kinds a privilege segment names. */
export type ElementKind = 'NODE' | 'RELATIONSHIP';

/**
 * The graph elements a requirement is about: nodes carrying all of `names` (labels), or
 * relationships of type `names[0]`. `names` null means "any element of that kind" (an unlabelled
 * pattern, a dynamic label, a variable whose origin is not a pattern).
 */
export interface ElementSegment {
  readonly element: ElementKind;
  readonly names: readonly string[] | null;
}

/** Graph privileges whose requirement names elements (and maybe a property). */
export type GraphAction = 'traverse' | 'read' | 'create_element' | 'delete_element' | 'set_property';

/** Reading or writing graph elements. `property` null means every property. */
export interface GraphRequirement {
  readonly action: GraphAction;
  readonly segment: ElementSegment;
  /** Only for `read` and `set_property`. */
  readonly property?: string | null;
}

/** Adding or removing a label (`SET n:L`, `REMOVE n:L`); `label` null for dynamic labels. */
export interface LabelRequirement {
  readonly action: 'set_label' | 'remove_label';
  readonly label: string | null;
}

/** Calling a procedure; its declared mode (from the registry) adds reads, writes or schema changes. */
export interface ProcedureRequirement {
  readonly action: 'execute';
  readonly procedure: string;
}

/** LOAD CSV (and anything else that loads external data); `url` when written literally. */
export interface LoadRequirement {
  readonly action: 'load';
  readonly url: string | null;
}

/** Database-scoped administration (indexes, constraints, start/stop, SHOW INDEX/CONSTRAINT). */
export interface DatabaseRequirement {
  readonly action: 'index' | 'constraint' | 'show_index' | 'show_constraint' | 'start_database' | 'stop_database';
  /** The statement text's name for the operation, for error messages (`create_index`). */
  readonly operation: string;
  /** The database the command acts on, when it names one (START/STOP DATABASE). */
  readonly database?: string | null;
}

/** DBMS administration (users, roles, privileges, databases, aliases, settings). */
export interface DbmsRequirement {
  readonly action: 'dbms';
  /** Neo4j's privilege action, e.g. `create_user`, `assign_privilege`, `show_user`. */
  readonly privilege: DbmsAction;
  /** The command as Neo4j names it in "Permission denied for ..." messages. */
  readonly command: string;
}

/** DBMS privilege actions. */
export type DbmsAction =
  | 'create_user'
  | 'drop_user'
  | 'rename_user'
  | 'alter_user'
  | 'show_user'
  | 'create_role'
  | 'drop_role'
  | 'rename_role'
  | 'show_role'
  | 'assign_role'
  | 'remove_role'
  | 'assign_privilege'
  | 'remove_privilege'
  | 'show_privilege'
  | 'create_database'
  | 'drop_database'
  | 'alter_database'
  | 'alias_management'
  | 'show_alias'
  | 'show_setting'
  | 'dbms_actions';

/** One thing a statement needs a privilege for. */
export type AccessRequirement =
  GraphRequirement | LabelRequirement | ProcedureRequirement | LoadRequirement | DatabaseRequirement | DbmsRequirement;

/** Everything a statement needs. */
export interface StatementAccess {
  /** True when the statement runs against a database's graph (it needs ACCESS on it). */
  readonly needsDatabaseAccess: boolean;
  readonly requirements: readonly AccessRequirement[];
}

/** The access mode a procedure declares (the registry's `mode`). */
export type DeclaredMode = 'READ' | 'WRITE' | 'SCHEMA' | 'DBMS';
