/**
 * The auth facade every listener uses: password and token authentication (with rate limiting,
 * lockout and audit events), token issuing and revocation, and user/role administration over
 * the AuthStore. Both HTTP and Bolt resolve a request to the same `SecurityContext` here.
 */
import { randomBytes } from 'node:crypto';
import { ClientError, StatusCodes, Unauthorized, graphError } from '../errors/index.js';
import type { Permission, SecurityContext, SystemSessionFactoryLike } from './service-types.js';
import { privilegeContext } from './access-control.js';
import type { PrivilegeSource } from './privileges/evaluate.js';
import type { AuditEvent, AuditSink } from './audit.js';
import { AuthStore, type UserRecord } from './auth-store.js';
import type { OidcClient } from './oidc-client.js';
import { LoginGuard, type LoginGuardOptions } from './login-guard.js';
import { VerifiedPasswords } from './verified-passwords.js';
import { DEFAULT_COST, hashPassword, verifyPasswordHash, type ScryptCost } from './password-hash.js';
import { isValidName, type RoleDefinition } from './roles.js';
import { TokenService, type IssuedToken, type TokenClaims, type TokenType } from './token-service.js';

/** Options of `AuthService.open`. */
export interface AuthServiceOptions {
  /** Opens an unrestricted session on the `system` database. */
  readonly systemSession: SystemSessionFactoryLike;
  /** HS256 secret; null disables token issuing and bearer authentication. */
  readonly jwtSecret: string | null;
  /** `user:secret` from GRAPHDB_AUTH; seeds an admin when the user does not exist yet. */
  readonly initialCredentials?: string;
  readonly audit?: AuditSink;
  readonly guard?: LoginGuardOptions;
  /** Called each time the login guard refuses an attempt (the rate-limit metric). */
  readonly onRateLimited?: () => void;
  /** Lifetime of access tokens from `/auth/token` in seconds (default 3600). */
  readonly accessTokenSeconds?: number;
  /**
   * Longest token lifetime accepted, in seconds from `iat` (default 90 days): a token minted
   * without `exp`, or with a later one, is refused (TokenExpired) past it, and issuing clamps to it.
   */
  readonly maxTokenSeconds?: number;
  /** Opt-in: cluster tokens minted without an expiry never expire (default false). */
  readonly clusterTokensNeverExpire?: boolean;
  readonly scryptCost?: ScryptCost;
  /** Estimated bytes of recently verified passwords kept (`dbms.memory.auth_cache.max_size`, default 2 MiB). */
  readonly verifiedCacheMaxBytes?: number;
  /** Milliseconds since the epoch, for token issue and expiry and login lockouts (default `Date.now`). */
  readonly now?: () => number;
  /** OpenID Connect login; absent when no issuer is configured. */
  readonly oidc?: { readonly client: OidcClient; readonly defaultRole: string };
  /** Resolves database aliases for privileges and role allowlists (absent: names are compared lower-cased). */
  readonly resolveDatabase?: (name: string) => string;
  /** The default database (what `ON DEFAULT DATABASE` and a user without a home database mean); default `neo4j`. */
  readonly defaultDatabase?: string;
}

/** An authenticated principal and how it authenticated. */
export interface Principal {
  readonly context: SecurityContext;
  /** Claims of the token used, when a token was used. */
  readonly token: TokenClaims | null;
}

/** A user as administration APIs show it (never the hash). */
export interface UserView {
  readonly username: string;
  readonly roles: readonly string[];
  readonly suspended: boolean;
  readonly serviceAccount: boolean;
  readonly home: string | null;
  readonly passwordChangeRequired: boolean;
}

/** Invalid administrative input. */
function invalid(message: string): ClientError {
  return new ClientError(StatusCodes.InvalidRequest, message);
}

function viewOf(user: UserRecord): UserView {
  return {
    username: user.name,
    roles: user.roles,
    suspended: user.suspended,
    serviceAccount: user.serviceAccount,
    home: user.home,
    passwordChangeRequired: user.passwordChangeRequired,
  };
}

/** Authentication and access control of one engine. */
export class AuthService {
  private readonly tokens: TokenService | null;
  private readonly guard: LoginGuard;
  private readonly audit: AuditSink;
  private readonly verified: VerifiedPasswords;
  private readonly maxTokenSeconds: number;
  private readonly clusterTokensNeverExpire: boolean;
  private readonly now: () => number;
  private readonly cost: ScryptCost;
  readonly accessTokenSeconds: number;
  /** OpenID Connect login, when configured. */
  readonly oidc: { readonly client: OidcClient; readonly defaultRole: string } | null;
  /** Where privilege decisions read roles' privileges. */
  readonly privilegeSource: PrivilegeSource;

  private constructor(
    readonly store: AuthStore,
    options: AuthServiceOptions,
  ) {
    this.tokens = options.jwtSecret ? new TokenService(options.jwtSecret, (jti) => store.isRevoked(jti), options.now) : null;
    this.guard = new LoginGuard({ ...options.guard, ...(options.now ? { now: options.now } : {}) }, options.onRateLimited);
    this.audit = options.audit ?? (() => {});
    this.cost = options.scryptCost ?? DEFAULT_COST;
    this.verified = new VerifiedPasswords(options.verifiedCacheMaxBytes);
    this.maxTokenSeconds = options.maxTokenSeconds ?? 90 * 24 * 3600;
    this.accessTokenSeconds = Math.min(options.accessTokenSeconds ?? 3600, this.maxTokenSeconds);
    this.clusterTokensNeverExpire = options.clusterTokensNeverExpire ?? false;
    this.now = options.now ?? Date.now;
    this.oidc = options.oidc ?? null;
    const resolve = options.resolveDatabase ?? ((name: string) => name.toLowerCase());
    this.privilegeSource = {
      privilegesOf: (role) => store.privilegesOf(role),
      allowlistOf: (role) => store.allowlistOf(role),
      resolve,
      defaultDatabase: options.defaultDatabase ?? 'neo4j',
      mustChangePassword: (username) => store.user(username)?.passwordChangeRequired === true,
    };
  }

  /** Loads the store and seeds the initial admin from `initialCredentials`. */
  static async open(options: AuthServiceOptions): Promise<AuthService> {
    const store = await AuthStore.open(options.systemSession);
    const service = new AuthService(store, options);
    const initial = options.initialCredentials ?? '';
    const separator = initial.indexOf(':');
    if (separator > 0 && !(await store.findUser(initial.slice(0, separator)))) {
      await service.createUser(initial.slice(0, separator), initial.slice(separator + 1), ['admin'], null);
    }
    return service;
  }

  /** True when tokens can be issued and verified. */
  get tokensEnabled(): boolean {
    return this.tokens !== null;
  }

  private emit(event: AuditEvent): void {
    this.audit(event);
  }

  /** Records a security event of an administration done elsewhere (renames, privileges: role-admin.ts). */
  auditEvent(event: AuditEvent): void {
    this.emit(event);
  }

  /** The context of a principal with these roles. */
  contextFor(username: string | null, roles: readonly string[]): SecurityContext {
    const home = username === null ? null : (this.store.user(username)?.home ?? null);
    return privilegeContext({ username, roles, home }, this.privilegeSource);
  }

  /** True when the context holds every DBMS privilege (the admin role's ALL DBMS PRIVILEGES). */
  isAdmin(context: SecurityContext): boolean {
    try {
      this.contextFor(context.username, context.roles).authorize?.('system', 'admin');
      return true;
    } catch {
      return false;
    }
  }

  /** Audits and counts a failed login that an edge detected itself (malformed credentials). */
  recordFailedLogin(username: string | null, ip: string | null, reason: string): void {
    this.emit({ type: 'failed_login', username, ip, reason });
    if (this.guard.recordFailure(username, ip)) this.emit({ type: 'login_locked', username, ip, reason: 'too many failed attempts' });
  }

  private fail(username: string | null, ip: string | null, reason: string): never {
    this.recordFailedLogin(username, ip, reason);
    throw new Unauthorized();
  }

  private async passwordMatches(user: UserRecord, password: string): Promise<boolean> {
    if (this.verified.has(user.name, password, user.passwordHash)) return true;
    if (!(await verifyPasswordHash(password, user.passwordHash))) return false;
    this.verified.add(user.name, password, user.passwordHash);
    return true;
  }

  /**
   * Username and password (HTTP Basic, Bolt basic). Throws Unauthorized or AuthenticationRateLimit.
   * An unknown username costs the same password hashing as a known one, so timing does not tell
   * which usernames exist.
   */
  async authenticatePassword(username: string, password: string, ip: string | null): Promise<Principal> {
    this.guard.check(username, ip);
    const user = await this.store.findUser(username);
    if (!user) {
      await verifyPasswordHash(password, await this.decoyHash());
      return this.fail(username, ip, 'wrong username or password');
    }
    if (!(await this.passwordMatches(user, password))) return this.fail(username, ip, 'wrong username or password');
    if (user.suspended) return this.fail(username, ip, 'account suspended');
    this.guard.recordSuccess(username, ip);
    return { context: this.contextFor(user.name, user.roles), token: null };
  }

  private decoy: Promise<string> | null = null;

  /** A hash of a random password at the configured cost, verified against for unknown usernames. */
  private decoyHash(): Promise<string> {
    this.decoy ??= hashPassword(AuthService.generateSecret(), this.cost);
    return this.decoy;
  }

  /** Refuses a token older than the maximum lifetime (cluster tokens without expiry only with the opt-in). */
  private checkLifetime(claims: TokenClaims): void {
    if (claims.typ === 'cluster' && claims.exp === undefined && this.clusterTokensNeverExpire) return;
    if (this.now() / 1000 > claims.iat + this.maxTokenSeconds) {
      throw graphError(
        StatusCodes.TokenExpired,
        `The token has expired: it is older than the maximum token lifetime (${this.maxTokenSeconds} s).`,
      );
    }
  }

  /** A token lifetime clamped to the maximum (null, no expiry, only for cluster tokens with the opt-in). */
  private lifetime(requested: number | null, cluster: boolean): number | null {
    if (requested === null && cluster && this.clusterTokensNeverExpire) return null;
    return Math.min(requested ?? this.maxTokenSeconds, this.maxTokenSeconds);
  }

  /** A JWT (bearer, cookie, Bolt). Throws Unauthorized/TokenExpired or AuthenticationRateLimit. */
  async authenticateToken(token: string, ip: string | null): Promise<Principal> {
    this.guard.check(null, ip);
    if (!this.tokens) return this.fail(null, ip, 'token authentication is not configured');
    let claims: TokenClaims;
    try {
      claims = await this.tokens.verify(token);
      this.checkLifetime(claims);
    } catch (error) {
      this.emit({ type: 'failed_login', username: null, ip, reason: error instanceof Error ? error.message : 'invalid token' });
      this.guard.recordFailure(null, ip);
      throw error;
    }
    if (claims.typ === 'cluster') {
      return { context: this.contextFor(`cluster:${claims.sub}`, claims.role ? [claims.role] : []), token: claims };
    }
    const user = await this.store.findUser(claims.sub);
    if (!user) return this.fail(claims.sub, ip, 'token of an unknown user');
    if (user.suspended) return this.fail(claims.sub, ip, 'account suspended');
    return { context: this.contextFor(user.name, user.roles), token: claims };
  }

  /**
   * Signs an access token for a user verified by an external identity provider; a user seen for
   * the first time is provisioned with `defaultRole` and a random password nobody knows.
   */
  async externalLogin(username: string, defaultRole: string, ip: string | null): Promise<IssuedToken> {
    const user = await this.store.findUser(username);
    if (!user) await this.createUser(username, AuthService.generateSecret(), [defaultRole], 'oauth');
    else if (user.suspended) return this.fail(username, ip, 'account suspended');
    return this.issueUserToken(username, 'access', this.accessTokenSeconds, ip);
  }

  private requireTokens(): TokenService {
    if (!this.tokens) throw invalid('Token issuing is disabled: set GRAPHDB_JWT_SECRET (at least 32 bytes).');
    return this.tokens;
  }

  /** Signs a token for a user (access or API token). */
  async issueUserToken(
    username: string,
    type: Exclude<TokenType, 'cluster'>,
    expiresInSeconds: number | null,
    ip: string | null = null,
  ): Promise<IssuedToken> {
    const user = await this.store.findUser(username);
    if (!user) throw invalid(`User '${username}' does not exist.`);
    const issued = await this.requireTokens().issue(username, type, this.lifetime(expiresInSeconds, false));
    this.emit({ type: 'token_issued', username, ip, token_type: type, jti: issued.claims.jti });
    return issued;
  }

  /** Signs a cluster token for a node id with a role; no expiry unless requested. */
  async issueClusterToken(nodeId: string, role: string, expiresInSeconds: number | null, actor: string | null): Promise<IssuedToken> {
    if (!this.store.role(role)) throw invalid(`Role '${role}' does not exist.`);
    const issued = await this.requireTokens().issue(nodeId, 'cluster', this.lifetime(expiresInSeconds, true), role);
    this.emit({ type: 'token_issued', username: `cluster:${nodeId}`, actor, token_type: 'cluster', jti: issued.claims.jti });
    return issued;
  }

  /** Revokes a token by its claims (until it would have expired). */
  async revokeToken(claims: TokenClaims, actor: string | null): Promise<void> {
    await this.store.revokeToken(claims.jti, claims.exp === undefined ? 0 : claims.exp * 1000);
    this.emit({ type: 'token_revoked', username: claims.sub, actor, jti: claims.jti });
  }

  private checkRoles(roles: readonly string[]): void {
    for (const role of roles) if (!this.store.role(role)) throw invalid(`Role '${role}' does not exist.`);
  }

  /** Creates a user (or service account). */
  async createUser(
    username: string,
    password: string,
    roles: readonly string[],
    actor: string | null,
    options: {
      readonly serviceAccount?: boolean;
      readonly suspended?: boolean;
      readonly ifNotExists?: boolean;
      readonly home?: string | null;
      readonly passwordChangeRequired?: boolean;
    } = {},
  ): Promise<UserView> {
    if (!isValidName(username)) throw invalid(`Invalid user name '${username}'.`);
    if (password.length === 0) throw invalid('A password must not be empty.');
    this.checkRoles(roles);
    const record: UserRecord = {
      name: username,
      passwordHash: await hashPassword(password, this.cost),
      roles: [...new Set(roles)],
      suspended: options.suspended ?? false,
      serviceAccount: options.serviceAccount ?? false,
      home: options.home ?? null,
      passwordChangeRequired: options.passwordChangeRequired ?? false,
    };
    if (!(await this.store.createUser(record))) {
      if (options.ifNotExists) return viewOf((await this.store.findUser(username))!);
      throw invalid(`User '${username}' already exists.`);
    }
    this.emit({ type: 'user_created', username, actor, roles: record.roles, service_account: record.serviceAccount });
    return viewOf(record);
  }

  /** Changes a user's password, suspension or roles. */
  async alterUser(
    username: string,
    change: {
      readonly password?: string;
      readonly suspended?: boolean;
      readonly roles?: readonly string[];
      readonly home?: string | null;
      readonly passwordChangeRequired?: boolean;
    },
    actor: string | null,
  ): Promise<UserView> {
    const user = await this.store.findUser(username);
    if (!user) throw invalid(`User '${username}' does not exist.`);
    if (change.roles) this.checkRoles(change.roles);
    if (change.password !== undefined && change.password.length === 0) throw invalid('A password must not be empty.');
    const patch: Partial<UserRecord> = {
      ...(change.password !== undefined ? { passwordHash: await hashPassword(change.password, this.cost) } : {}),
      ...(change.suspended !== undefined ? { suspended: change.suspended } : {}),
      ...(change.roles ? { roles: [...new Set(change.roles)] } : {}),
      ...(change.home !== undefined ? { home: change.home } : {}),
      ...(change.passwordChangeRequired !== undefined ? { passwordChangeRequired: change.passwordChangeRequired } : {}),
    };
    await this.store.updateUser(username, patch);
    this.emit({ type: 'user_updated', username, actor, fields: Object.keys(change) });
    return viewOf((await this.store.findUser(username))!);
  }

  /** Deletes a user; false when absent. */
  async dropUser(username: string, actor: string | null): Promise<boolean> {
    const dropped = await this.store.dropUser(username);
    if (dropped) this.emit({ type: 'user_dropped', username, actor });
    return dropped;
  }

  /** Adds a role to a user. */
  async grantRole(role: string, username: string, actor: string | null): Promise<void> {
    const user = await this.store.findUser(username);
    if (!user) throw invalid(`User '${username}' does not exist.`);
    this.checkRoles([role]);
    if (!user.roles.includes(role)) await this.store.updateUser(username, { roles: [...user.roles, role] });
    this.emit({ type: 'role_granted', username, actor, role });
  }

  /** Removes a role from a user. */
  async revokeRole(role: string, username: string, actor: string | null): Promise<void> {
    const user = await this.store.findUser(username);
    if (!user) throw invalid(`User '${username}' does not exist.`);
    await this.store.updateUser(username, { roles: user.roles.filter((r) => r !== role) });
    this.emit({ type: 'role_revoked', username, actor, role });
  }

  /** Creates a user-defined role with the given legacy permissions (and the privileges of `copyOf`). */
  async createRole(
    name: string,
    permissions: readonly Permission[],
    actor: string | null,
    ifNotExists = false,
    copyOf: string | null = null,
  ): Promise<RoleDefinition> {
    if (!isValidName(name)) throw invalid(`Invalid role name '${name}'.`);
    if (!(await this.store.createRole(name, [...new Set(permissions)]))) {
      if (!ifNotExists) throw invalid(`Role '${name}' already exists.`);
      return this.store.role(name)!;
    }
    if (copyOf !== null) await this.store.privileges.copyRole(copyOf, name);
    this.emit({ type: 'role_created', actor, role: name, permissions, ...(copyOf !== null ? { copy_of: copyOf } : {}) });
    return this.store.role(name)!;
  }

  /** Drops a user-defined role (built-in roles cannot be dropped). */
  async dropRole(name: string, actor: string | null): Promise<boolean> {
    const role = this.store.role(name);
    if (role?.builtin) throw invalid(`The built-in role '${name}' cannot be dropped.`);
    const dropped = await this.store.dropRole(name);
    if (dropped) this.emit({ type: 'role_dropped', actor, role: name });
    return dropped;
  }

  /** Replaces a role's database allowlist (empty = all databases). */
  async setRoleDatabases(role: string, databases: readonly string[], actor: string | null): Promise<RoleDefinition> {
    if (!this.store.role(role)) throw new ClientError(StatusCodes.InvalidRequest, `Role '${role}' does not exist.`);
    await this.store.setRoleDatabases(role, databases);
    this.emit({ type: 'role_databases_changed', actor, role, databases });
    return this.store.role(role)!;
  }

  /** Every user (never with hashes). */
  listUsers(): UserView[] {
    return this.store.listUsers().map(viewOf);
  }

  /** A user by name. */
  async user(username: string): Promise<UserView | null> {
    const user = await this.store.findUser(username);
    return user ? viewOf(user) : null;
  }

  /** Every role. */
  listRoles(): RoleDefinition[] {
    return this.store.listRoles();
  }

  /** A random secret for service accounts (URL-safe, 32 bytes). */
  /** What the cache of verified passwords holds: entries and estimated bytes against its bound. */
  get verifiedCacheStats(): { readonly entries: number; readonly bytes: number; readonly maxBytes: number } {
    return { entries: this.verified.entryCount, bytes: this.verified.size, maxBytes: this.verified.maxBytes };
  }

  static generateSecret(): string {
    return randomBytes(32).toString('base64url');
  }
}
