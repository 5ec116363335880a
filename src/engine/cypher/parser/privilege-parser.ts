import type { SymbolicName } from '../ast/admin.js';
import { Kind } from '../ast/kinds.js';
import type { PrivilegeCommand, PrivilegeSegment, RoleMembership } from '../ast/security.js';
import type { Token } from '../lexer/token.js';
import { TokenKind } from '../lexer/token-kind.js';
import { TransactionCommandParser } from './transaction-command-parser.js';

/** A privilege as parsed, before the scope (`ON ...`). */
interface Spec {
  readonly action: string;
  readonly resources: readonly string[];
  readonly scope: 'GRAPH' | 'DATABASE' | 'DBMS' | 'LOAD';
  /** Segment text for DBMS/DATABASE privileges (`database`, `PROCEDURE(x)`, `USER(*)`). */
  readonly segments?: readonly string[];
}

/** DBMS privileges: the words after GRANT/DENY/REVOKE and Neo4j's action name. */
const DBMS_PRIVILEGES: ReadonlyArray<readonly [readonly string[], string]> = [
  [['ALL', 'DBMS', 'PRIVILEGES'], 'dbms_actions'],
  [['ALL', 'DBMS'], 'dbms_actions'],
  [['ALL', 'PRIVILEGES'], 'dbms_actions'],
  [['USER', 'MANAGEMENT'], 'user_management'],
  [['CREATE', 'USER'], 'create_user'],
  [['DROP', 'USER'], 'drop_user'],
  [['RENAME', 'USER'], 'rename_user'],
  [['ALTER', 'USER'], 'alter_user'],
  [['SHOW', 'USERS'], 'show_user'],
  [['SHOW', 'USER'], 'show_user'],
  [['SET', 'PASSWORDS'], 'alter_user'],
  [['SET', 'PASSWORD'], 'alter_user'],
  [['SET', 'USER', 'STATUS'], 'alter_user'],
  [['SET', 'USER', 'HOME', 'DATABASE'], 'alter_user'],
  [['ROLE', 'MANAGEMENT'], 'role_management'],
  [['CREATE', 'ROLE'], 'create_role'],
  [['DROP', 'ROLE'], 'drop_role'],
  [['RENAME', 'ROLE'], 'rename_role'],
  [['SHOW', 'ROLES'], 'show_role'],
  [['SHOW', 'ROLE'], 'show_role'],
  [['ASSIGN', 'ROLE'], 'assign_role'],
  [['REMOVE', 'ROLE'], 'remove_role'],
  [['PRIVILEGE', 'MANAGEMENT'], 'privilege_management'],
  [['ASSIGN', 'PRIVILEGE'], 'assign_privilege'],
  [['REMOVE', 'PRIVILEGE'], 'remove_privilege'],
  [['SHOW', 'PRIVILEGE'], 'show_privilege'],
  [['DATABASE', 'MANAGEMENT'], 'database_management'],
  [['CREATE', 'COMPOSITE', 'DATABASE'], 'create_database'],
  [['CREATE', 'DATABASE'], 'create_database'],
  [['DROP', 'COMPOSITE', 'DATABASE'], 'drop_database'],
  [['DROP', 'DATABASE'], 'drop_database'],
  [['ALTER', 'DATABASE'], 'alter_database'],
  [['SET', 'DATABASE', 'ACCESS'], 'alter_database'],
  [['ALIAS', 'MANAGEMENT'], 'alias_management'],
  [['CREATE', 'ALIAS'], 'alias_management'],
  [['DROP', 'ALIAS'], 'alias_management'],
  [['ALTER', 'ALIAS'], 'alias_management'],
  [['SHOW', 'ALIAS'], 'show_alias'],
];

/** Database privileges (ON DATABASE ...). */
const DATABASE_PRIVILEGES: ReadonlyArray<readonly [readonly string[], string]> = [
  [['ALL', 'DATABASE', 'PRIVILEGES'], 'database_actions'],
  [['ALL', 'DATABASE'], 'database_actions'],
  [['ACCESS'], 'access'],
  [['START'], 'start_database'],
  [['STOP'], 'stop_database'],
  [['CREATE', 'INDEXES'], 'index'],
  [['CREATE', 'INDEX'], 'index'],
  [['DROP', 'INDEXES'], 'index'],
  [['DROP', 'INDEX'], 'index'],
  [['SHOW', 'INDEXES'], 'show_index'],
  [['SHOW', 'INDEX'], 'show_index'],
  [['INDEXES', 'MANAGEMENT'], 'index'],
  [['INDEX', 'MANAGEMENT'], 'index'],
  [['INDEXES'], 'index'],
  [['INDEX'], 'index'],
  [['CREATE', 'CONSTRAINTS'], 'constraint'],
  [['CREATE', 'CONSTRAINT'], 'constraint'],
  [['DROP', 'CONSTRAINTS'], 'constraint'],
  [['DROP', 'CONSTRAINT'], 'constraint'],
  [['SHOW', 'CONSTRAINTS'], 'show_constraint'],
  [['SHOW', 'CONSTRAINT'], 'show_constraint'],
  [['CONSTRAINTS', 'MANAGEMENT'], 'constraint'],
  [['CONSTRAINT', 'MANAGEMENT'], 'constraint'],
  [['CONSTRAINTS'], 'constraint'],
  [['CONSTRAINT'], 'constraint'],
  [['NAME', 'MANAGEMENT'], 'token'],
  [['NAME'], 'token'],
  [['CREATE', 'NEW'], 'token'],
  [['TRANSACTION', 'MANAGEMENT'], 'transaction_management'],
  [['TRANSACTION'], 'transaction_management'],
  [['SHOW', 'TRANSACTIONS'], 'transaction_management'],
  [['SHOW', 'TRANSACTION'], 'transaction_management'],
  [['TERMINATE', 'TRANSACTIONS'], 'transaction_management'],
  [['TERMINATE', 'TRANSACTION'], 'transaction_management'],
];

/** GRANT/DENY/REVOKE of privileges and roles. */
export abstract class PrivilegeParser extends TransactionCommandParser {
  /** `SymbolicName : Name ('.' Name)* | Parameter` (database, alias, user and role names). */
  protected parseSymbolicName(): SymbolicName {
    const start = this.peek();
    if (this.peekKind(TokenKind.Parameter)) {
      const parameter = this.parseParameter();
      return this.finish<SymbolicName>(start, { kind: Kind.SymbolicName, name: null, parameter });
    }
    let name = this.parseName('a name');
    while (this.optionalToken(TokenKind.Dot)) name += '.' + this.parseName('a name');
    return this.finish<SymbolicName>(start, { kind: Kind.SymbolicName, name, parameter: null });
  }

  /** `name (',' name)*`. */
  protected parseSymbolicNames(): SymbolicName[] {
    return this.delimitedMany(TokenKind.Comma, () => this.parseSymbolicName());
  }

  /**
   * `(GRANT | DENY) [IMMUTABLE] privilege TO roles`, `REVOKE [GRANT | DENY] [IMMUTABLE] privilege
   * FROM roles`, and `GRANT ROLE[S] r, ... TO users` / `REVOKE ROLE[S] r, ... FROM users`, after
   * the first keyword.
   */
  protected parsePrivilegeCommand(start: Token, operation: 'GRANT' | 'DENY' | 'REVOKE'): PrivilegeCommand | RoleMembership {
    let revokes: 'GRANT' | 'DENY' | null = null;
    if (operation === 'REVOKE') revokes = this.optionalAnyKeyword('GRANT', 'DENY') as 'GRANT' | 'DENY' | null;
    this.optionalKeyword('IMMUTABLE');
    if (
      operation !== 'DENY' &&
      revokes === null &&
      (this.peekKeyword('ROLE') || this.peekKeyword('ROLES')) &&
      !this.peekKeyword('MANAGEMENT', 1)
    ) {
      this.advance();
      const roles = this.parseSymbolicNames();
      this.expectKeyword(operation === 'GRANT' ? 'TO' : 'FROM');
      const users = this.parseSymbolicNames();
      return this.finish<RoleMembership>(start, { kind: Kind.RoleMembership, grant: operation === 'GRANT', roles, users });
    }
    const spec = this.parsePrivilegeSpec();
    const { graphs, segments, resources } = this.parsePrivilegeScope(spec);
    this.expectKeyword(operation === 'REVOKE' ? 'FROM' : 'TO');
    const roles = this.parseSymbolicNames();
    return this.finish<PrivilegeCommand>(start, {
      kind: Kind.PrivilegeCommand,
      operation,
      revokes,
      action: spec.action,
      resources: resources ?? spec.resources,
      graphs,
      segments,
      roles,
      text: this.sourceFrom(start),
    });
  }

  private matchWords(table: ReadonlyArray<readonly [readonly string[], string]>): string | null {
    for (const [words, action] of table) {
      if (words.every((word, i) => this.peekKeyword(word, i))) {
        for (let i = 0; i < words.length; i++) this.advance();
        return action;
      }
    }
    return null;
  }

  /** `{*}` or `{a, b}`: the property resources of READ, MATCH, MERGE and SET PROPERTY. */
  private parsePropertyResources(): string[] {
    this.expectToken(TokenKind.LBrace);
    if (this.optionalToken(TokenKind.Star)) {
      this.expectToken(TokenKind.RBrace);
      return ['all_properties'];
    }
    const names = this.delimitedMany(TokenKind.Comma, () => this.parseName('a property name'));
    this.expectToken(TokenKind.RBrace);
    return names.map((n) => `property(${n})`);
  }

  private parsePrivilegeSpec(): Spec {
    if (this.optionalKeyword('LOAD')) return { action: 'load', resources: [], scope: 'LOAD' };
    if (this.optionalKeyword('TRAVERSE')) return { action: 'traverse', resources: ['graph'], scope: 'GRAPH' };
    for (const word of ['READ', 'MATCH', 'MERGE']) {
      if (this.peekKeyword(word) && this.peekKind(TokenKind.LBrace, 1)) {
        this.advance();
        return { action: word.toLowerCase(), resources: this.parsePropertyResources(), scope: 'GRAPH' };
      }
    }
    if (this.optionalKeyword('WRITE')) return { action: 'write', resources: ['graph'], scope: 'GRAPH' };
    if (this.peekKeyword('CREATE') && this.peekKeyword('ON', 1))
      return (this.advance(), { action: 'create_element', resources: ['graph'], scope: 'GRAPH' });
    if (this.peekKeyword('DELETE') && this.peekKeyword('ON', 1))
      return (this.advance(), { action: 'delete_element', resources: ['graph'], scope: 'GRAPH' });
    if (this.optionalKeywords('SET', 'PROPERTY'))
      return { action: 'set_property', resources: this.parsePropertyResources(), scope: 'GRAPH' };
    for (const [words, action] of [
      [['SET', 'LABEL'], 'set_label'],
      [['REMOVE', 'LABEL'], 'remove_label'],
    ] as const) {
      if (this.optionalKeywords(...words)) {
        if (this.optionalToken(TokenKind.Star)) return { action, resources: ['all_labels'], scope: 'GRAPH' };
        return { action, resources: this.delimitedMany(TokenKind.Comma, () => `label(${this.parseName('a label')})`), scope: 'GRAPH' };
      }
    }
    if (
      this.peekKeyword('ALL') &&
      (this.peekKeyword('GRAPH', 1) ||
        (this.peekKeyword('PRIVILEGES', 1) && this.peekKeyword('GRAPH', 3)) ||
        (this.peekKeyword('ON', 1) && this.peekKeyword('GRAPH', 2)))
    ) {
      this.advance();
      this.optionalKeyword('GRAPH');
      this.optionalKeyword('PRIVILEGES');
      return { action: 'graph_actions', resources: ['graph'], scope: 'GRAPH' };
    }
    if (this.optionalKeyword('EXECUTE')) return this.parseExecutePrivilege();
    if (this.peekKeywords('SHOW', 'SETTING') || this.peekKeywords('SHOW', 'SETTINGS')) {
      this.advance();
      this.advance();
      const globs = this.parseGlobs();
      return { action: 'show_setting', resources: ['database'], scope: 'DBMS', segments: globs.map((g) => `SETTING(${g})`) };
    }
    const onDatabase = this.isDatabaseScopeAhead();
    const dbms = onDatabase ? null : this.matchWords(DBMS_PRIVILEGES);
    if (dbms !== null) return { action: dbms, resources: ['database'], scope: 'DBMS', segments: ['database'] };
    const database = this.matchWords(DATABASE_PRIVILEGES);
    if (database !== null) {
      if (database === 'token') while (this.peekName() && !this.peekKeyword('ON')) this.advance();
      let segments = ['database'];
      if (database === 'transaction_management') {
        this.optionalKeyword('MANAGEMENT');
        segments = ['USER(*)'];
        if (this.optionalToken(TokenKind.LParen)) {
          segments = this.optionalToken(TokenKind.Star)
            ? ['USER(*)']
            : this.delimitedMany(TokenKind.Comma, () => `USER(${this.parseName('a user name')})`);
          this.expectToken(TokenKind.RParen);
        }
      } else {
        this.optionalKeyword('PRIVILEGES');
      }
      return { action: database, resources: ['database'], scope: 'DATABASE', segments };
    }
    return this.unexpected('a privilege');
  }

  /** True when the privilege words are followed by `ON DATABASE`/`ON HOME DATABASE` (ALL/CREATE ... shared with DBMS). */
  private isDatabaseScopeAhead(): boolean {
    for (let i = 1; i < 6; i++) {
      if (this.peekKeyword('ON', i))
        return (
          this.peekKeyword('DATABASE', i + 1) ||
          this.peekKeyword('DATABASES', i + 1) ||
          this.peekKeyword('HOME', i + 1) ||
          this.peekKeyword('DEFAULT', i + 1)
        );
    }
    return false;
  }

  /** `EXECUTE [BOOSTED] PROCEDURE[S] globs` / `EXECUTE ADMIN[ISTRATOR] PROCEDURES` / `EXECUTE [USER [DEFINED]] FUNCTION[S] globs`. */
  private parseExecutePrivilege(): Spec {
    if (this.optionalAnyKeyword('ADMIN', 'ADMINISTRATOR')) {
      this.expectKeyword('PROCEDURES');
      return { action: 'execute_admin', resources: ['database'], scope: 'DBMS', segments: ['database'] };
    }
    const boosted = this.optionalKeyword('BOOSTED');
    if (this.optionalAnyKeyword('PROCEDURE', 'PROCEDURES')) {
      return {
        action: boosted ? 'execute_boosted' : 'execute',
        resources: ['database'],
        scope: 'DBMS',
        segments: this.parseGlobs().map((g) => `PROCEDURE(${g})`),
      };
    }
    if (this.optionalKeyword('USER')) this.optionalKeyword('DEFINED');
    if (!this.optionalAnyKeyword('FUNCTION', 'FUNCTIONS')) this.unexpected("'PROCEDURE' or 'FUNCTION'");
    return {
      action: boosted ? 'execute_boosted' : 'execute_function',
      resources: ['database'],
      scope: 'DBMS',
      segments: this.parseGlobs().map((g) => `FUNCTION(${g})`),
    };
  }

  /** Procedure, function or setting name globs (`apoc.*`, `db.index.fulltext.query*`), up to ON. */
  private parseGlobs(): string[] {
    const globs: string[] = [];
    let current = '';
    while (!this.peekKeyword('ON') && !this.peekKind(TokenKind.EOF)) {
      const token = this.advance();
      if (token.kind === TokenKind.Comma) {
        globs.push(current);
        current = '';
      } else {
        current += token.kind === TokenKind.Star ? '*' : token.kind === TokenKind.Dot ? '.' : token.value;
      }
    }
    if (current !== '') globs.push(current);
    if (globs.length === 0) this.unexpected('a procedure or function name');
    return globs;
  }

  /** `ON GRAPH[S] (* | names) [segment]`, `ON DATABASE[S] (* | names)`, `ON HOME|DEFAULT GRAPH|DATABASE`, `ON DBMS`, `ON ALL DATA | URL u | CIDR c`. */
  private parsePrivilegeScope(spec: Spec): { graphs: string[]; segments: (PrivilegeSegment | string)[]; resources?: string[] } {
    this.expectKeyword('ON');
    if (spec.scope === 'LOAD') {
      if (this.optionalKeywords('ALL', 'DATA')) return { graphs: ['*'], segments: ['database'], resources: ['all_data'] };
      const kind = this.optionalAnyKeyword('URL', 'CIDR');
      if (kind === null) this.unexpected("'ALL DATA', 'URL' or 'CIDR'");
      const value = this.expectToken(TokenKind.String).value;
      return { graphs: ['*'], segments: ['database'], resources: [`${kind.toLowerCase()}(${value})`] };
    }
    if (spec.scope === 'DBMS') {
      this.expectKeyword('DBMS');
      return { graphs: ['*'], segments: [...(spec.segments ?? ['database'])] };
    }
    const word = spec.scope === 'GRAPH' ? 'GRAPH' : 'DATABASE';
    let graphs: string[];
    if (this.optionalKeyword('HOME')) {
      this.expectKeyword(word);
      graphs = ['HOME'];
    } else if (this.optionalKeyword('DEFAULT')) {
      this.expectKeyword(word);
      graphs = ['DEFAULT'];
    } else {
      if (!this.optionalAnyKeyword(word, `${word}S`)) this.unexpected(`'${word}'`);
      graphs = this.optionalToken(TokenKind.Star) ? ['*'] : this.parseSymbolicNames().map((n) => n.name ?? `$${n.parameter?.name ?? ''}`);
    }
    if (spec.scope === 'DATABASE') return { graphs, segments: [...(spec.segments ?? ['database'])] };
    return { graphs, segments: this.parseElementSegments(spec.action) };
  }

  /** `[NODE[S] | RELATIONSHIP[S] | ELEMENT[S]] (* | names) [(*)]`; the default is every element the action applies to. */
  private parseElementSegments(action: string): PrivilegeSegment[] {
    const kind = this.optionalAnyKeyword('NODE', 'NODES', 'RELATIONSHIP', 'RELATIONSHIPS', 'ELEMENT', 'ELEMENTS');
    const labelsOnly = action === 'set_label' || action === 'remove_label';
    if (kind === null)
      return labelsOnly
        ? [{ element: 'NODE', names: null }]
        : [
            { element: 'NODE', names: null },
            { element: 'RELATIONSHIP', names: null },
          ];
    const names = this.optionalToken(TokenKind.Star)
      ? null
      : this.delimitedMany(TokenKind.Comma, () => this.parseName('a label or relationship type'));
    if (this.peekKind(TokenKind.LParen) && this.peekKind(TokenKind.Star, 1)) {
      this.advance();
      this.advance();
      this.expectToken(TokenKind.RParen);
    }
    const upper = kind.toUpperCase();
    const elements: ('NODE' | 'RELATIONSHIP')[] = upper.startsWith('NODE')
      ? ['NODE']
      : upper.startsWith('RELATIONSHIP')
        ? ['RELATIONSHIP']
        : ['NODE', 'RELATIONSHIP'];
    return elements.map((element) => ({ element, names }));
  }
}
