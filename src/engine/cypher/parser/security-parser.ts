import type { SymbolicName } from '../ast/admin.js';
import type { Expression, ListLiteral, StringLiteral } from '../ast/expressions.js';
import { Kind } from '../ast/kinds.js';
import type { Show, ShowTarget } from '../ast/schema.js';
import type {
  AlterCurrentUser,
  AlterUser,
  CreateRole,
  CreateUser,
  DropRole,
  DropUser,
  RenameRole,
  RenameUser,
  SecurityCommand,
  UserSettings,
} from '../ast/security.js';
import type { Token } from '../lexer/token.js';
import { TokenKind } from '../lexer/token-kind.js';
import { PrivilegeParser } from './privilege-parser.js';

type MutableSettings = { -readonly [K in keyof UserSettings]: UserSettings[K] };

/** User and role administration and the SHOW commands about users, roles and privileges. */
export abstract class SecurityCommandParser extends PrivilegeParser {
  /** True when the tokens ahead start a user/role/privilege command. */
  protected peekSecurityCommand(): boolean {
    if (this.peekKeyword('GRANT') || this.peekKeyword('DENY') || this.peekKeyword('REVOKE')) return true;
    if (this.peekKeyword('RENAME') && (this.peekKeyword('USER', 1) || this.peekKeyword('ROLE', 1))) return true;
    if (!this.peekKeyword('CREATE')) return false;
    const offset = this.peekKeywords('CREATE', 'OR', 'REPLACE') ? 3 : 1;
    return this.peekKeyword('USER', offset) || this.peekKeyword('ROLE', offset);
  }

  /** Parses a security command after its first keyword, or returns null when it is not one. */
  protected parseSecurityCommand(start: Token, first: string, orReplace: boolean): SecurityCommand | null {
    switch (first) {
      case 'GRANT':
      case 'DENY':
      case 'REVOKE':
        return this.parsePrivilegeCommand(start, first);
      case 'RENAME':
        return this.parseRename(start);
      case 'CREATE':
        if (this.optionalKeyword('USER')) return this.parseCreateUser(start, orReplace);
        if (this.optionalKeyword('ROLE')) return this.parseCreateRole(start, orReplace);
        return null;
      case 'DROP':
        if (this.optionalKeyword('USER')) {
          const name = this.parseSymbolicName();
          return this.finish<DropUser>(start, { kind: Kind.DropUser, name, ifExists: this.optionalKeywords('IF', 'EXISTS') });
        }
        if (this.optionalKeyword('ROLE')) {
          const name = this.parseSymbolicName();
          return this.finish<DropRole>(start, { kind: Kind.DropRole, name, ifExists: this.optionalKeywords('IF', 'EXISTS') });
        }
        return null;
      case 'ALTER':
        if (this.optionalKeywords('CURRENT', 'USER')) return this.parseAlterCurrentUser(start);
        if (this.optionalKeyword('USER')) return this.parseAlterUser(start);
        return null;
      default:
        return null;
    }
  }

  private parseRename(start: Token): RenameUser | RenameRole {
    const user = this.optionalKeyword('USER');
    if (!user) this.expectKeyword('ROLE');
    const name = this.parseSymbolicName();
    const ifExists = this.optionalKeywords('IF', 'EXISTS');
    this.expectKeyword('TO');
    const newName = this.parseSymbolicName();
    return user
      ? this.finish<RenameUser>(start, { kind: Kind.RenameUser, name, newName, ifExists })
      : this.finish<RenameRole>(start, { kind: Kind.RenameRole, name, newName, ifExists });
  }

  private parseCreateRole(start: Token, orReplace: boolean): CreateRole {
    const name = this.parseSymbolicName();
    const ifNotExists = this.optionalKeywords('IF', 'NOT', 'EXISTS');
    const copyOf = this.optionalKeywords('AS', 'COPY', 'OF') ? this.parseSymbolicName() : null;
    return this.finish<CreateRole>(start, { kind: Kind.CreateRole, name, orReplace, ifNotExists, copyOf });
  }

  /** A password: a string literal or a parameter. */
  private parsePassword(): Expression {
    if (this.peekKind(TokenKind.Parameter)) return this.parseParameter();
    const token = this.peek();
    if (token.kind !== TokenKind.String) this.unexpected('a string or a parameter');
    this.advance();
    return this.finish<StringLiteral>(token, { kind: Kind.StringLiteral, value: token.value });
  }

  /** The SET PASSWORD / SET STATUS / SET HOME DATABASE / REMOVE HOME DATABASE clauses. */
  private parseUserSettings(allowRemove: boolean): MutableSettings {
    const settings: MutableSettings = {
      password: null,
      encrypted: false,
      changeRequired: null,
      suspended: null,
      home: null,
      removeHome: false,
    };
    for (;;) {
      if (allowRemove && this.optionalKeywords('REMOVE', 'HOME', 'DATABASE')) {
        settings.removeHome = true;
      } else if (this.optionalKeyword('SET')) {
        if (this.optionalKeyword('STATUS')) {
          const status = this.optionalAnyKeyword('ACTIVE', 'SUSPENDED');
          if (status === null) this.unexpected("'ACTIVE' or 'SUSPENDED'");
          settings.suspended = status.toUpperCase() === 'SUSPENDED';
        } else if (this.optionalKeywords('HOME', 'DATABASE')) {
          settings.home = this.parseSymbolicName();
        } else if (this.optionalKeyword('PASSWORD') && this.peekKeyword('CHANGE')) {
          this.parsePasswordChange(settings);
        } else {
          if (this.previous().value.toUpperCase() !== 'PASSWORD') {
            settings.encrypted = this.optionalKeyword('ENCRYPTED');
            if (!settings.encrypted) this.optionalKeyword('PLAINTEXT');
            this.expectKeyword('PASSWORD');
          }
          settings.password = this.parsePassword();
          if (this.peekKeyword('CHANGE')) this.parsePasswordChange(settings);
        }
      } else {
        return settings;
      }
    }
  }

  private parsePasswordChange(settings: MutableSettings): void {
    this.expectKeyword('CHANGE');
    settings.changeRequired = !this.optionalKeyword('NOT');
    this.expectKeyword('REQUIRED');
  }

  private parseCreateUser(start: Token, orReplace: boolean): CreateUser {
    const name = this.parseSymbolicName();
    const ifNotExists = this.optionalKeywords('IF', 'NOT', 'EXISTS');
    const settings = this.parseUserSettings(false);
    if (settings.password === null) this.unexpected("'SET PASSWORD'");
    return this.finish<CreateUser>(start, { kind: Kind.CreateUser, name, orReplace, ifNotExists, ...settings });
  }

  private parseAlterUser(start: Token): AlterUser {
    const name = this.parseSymbolicName();
    const ifExists = this.optionalKeywords('IF', 'EXISTS');
    const settings = this.parseUserSettings(true);
    const changed =
      settings.password !== null ||
      settings.changeRequired !== null ||
      settings.suspended !== null ||
      settings.home !== null ||
      settings.removeHome;
    if (!changed) this.unexpected("'SET' or 'REMOVE'");
    return this.finish<AlterUser>(start, { kind: Kind.AlterUser, name, ifExists, ...settings });
  }

  private parseAlterCurrentUser(start: Token): AlterCurrentUser {
    this.expectKeywords('SET', 'PASSWORD', 'FROM');
    const oldPassword = this.parsePassword();
    this.expectKeyword('TO');
    const newPassword = this.parsePassword();
    return this.finish<AlterCurrentUser>(start, { kind: Kind.AlterCurrentUser, oldPassword, newPassword });
  }

  /** Names as a list expression (strings and parameters), for SHOW ROLE r1, r2 PRIVILEGES. */
  private namesExpression(names: readonly SymbolicName[], start: Token): ListLiteral {
    const items: Expression[] = names.map(
      (n) => n.parameter ?? { kind: Kind.StringLiteral, value: n.name ?? '', ...(n.loc ? { loc: n.loc } : {}) },
    );
    return this.finish<ListLiteral>(start, { kind: Kind.ListLiteral, items });
  }

  /**
   * `SHOW [ALL|POPULATED] ROLE[S] [WITH USER[S]]`, `SHOW USER[S] [WITH AUTH]`, `SHOW [ALL]
   * PRIVILEGE[S]`, `SHOW ROLE[S] names PRIVILEGE[S]`, `SHOW USER[S] [names] PRIVILEGE[S]` (privileges
   * optionally `AS [REVOKE] COMMAND[S]`), after SHOW; null for other SHOW commands.
   */
  protected parseSecurityShow(start: Token): Show | null {
    const privilegesAhead = (offset: number): boolean => this.peekKeyword('PRIVILEGE', offset) || this.peekKeyword('PRIVILEGES', offset);
    if ((this.peekKeyword('ALL') && privilegesAhead(1)) || privilegesAhead(0)) {
      this.optionalKeyword('ALL');
      this.advance();
      return this.parsePrivilegesTail(start, 'PRIVILEGES', null);
    }
    const populated = this.peekKeyword('POPULATED') || this.peekKeyword('ALL');
    const roleWord = (offset: number): boolean => this.peekKeyword('ROLE', offset) || this.peekKeyword('ROLES', offset);
    const userWord = (offset: number): boolean => this.peekKeyword('USER', offset) || this.peekKeyword('USERS', offset);
    if (populated && roleWord(1)) {
      const filter = this.advance().value.toUpperCase() === 'POPULATED' ? 'POPULATED' : null;
      this.advance();
      return this.parseRolesTail(start, filter);
    }
    if (roleWord(0)) {
      this.advance();
      if (
        privilegesAhead(0) ||
        (!this.peekKeyword('WITH') &&
          !this.peekKeyword('YIELD') &&
          !this.peekKeyword('WHERE') &&
          !this.peekKeyword('RETURN') &&
          (this.peekName() || this.peekKind(TokenKind.Parameter)))
      ) {
        const names = this.parseSymbolicNames();
        if (!privilegesAhead(0)) this.unexpected("'PRIVILEGES'");
        this.advance();
        return this.parsePrivilegesTail(start, 'ROLE PRIVILEGES', this.namesExpression(names, start));
      }
      return this.parseRolesTail(start, null);
    }
    if (userWord(0) && !(this.peekKeyword('USER') && this.peekKeyword('DEFINED', 1))) {
      this.advance();
      if (privilegesAhead(0)) {
        this.advance();
        return this.parsePrivilegesTail(start, 'USER PRIVILEGES', null);
      }
      if (this.peekKeywords('WITH', 'AUTH')) {
        this.advance();
        this.advance();
        return this.parseShowTail(start, 'USERS', 'WITH AUTH', null);
      }
      if (
        !this.peekKeyword('YIELD') &&
        !this.peekKeyword('WHERE') &&
        !this.peekKeyword('RETURN') &&
        (this.peekName() || this.peekKind(TokenKind.Parameter))
      ) {
        const names = this.parseSymbolicNames();
        if (!privilegesAhead(0)) this.unexpected("'PRIVILEGES'");
        this.advance();
        return this.parsePrivilegesTail(start, 'USER PRIVILEGES', this.namesExpression(names, start));
      }
      return this.parseShowTail(start, 'USERS', null, null);
    }
    return null;
  }

  private parseRolesTail(start: Token, filter: string | null): Show {
    if (this.optionalKeyword('WITH')) {
      if (!this.optionalAnyKeyword('USER', 'USERS')) this.unexpected("'USERS'");
      return this.parseShowTail(start, 'ROLES WITH USERS', filter, null);
    }
    return this.parseShowTail(start, 'ROLES', filter, null);
  }

  private parsePrivilegesTail(start: Token, target: ShowTarget, names: Expression | null): Show {
    let filter: string | null = null;
    if (this.optionalKeyword('AS')) {
      const revoke = this.optionalKeyword('REVOKE');
      if (!this.optionalAnyKeyword('COMMAND', 'COMMANDS')) this.unexpected("'COMMANDS'");
      filter = revoke ? 'AS REVOKE COMMANDS' : 'AS COMMANDS';
    }
    return this.parseShowTail(start, target, filter, names);
  }
}
