/**
 * Users, roles, role database allowlists and revoked token ids, persisted as nodes of the
 * `system` database (`_User`, `_Role`, `_RoleDbAccess`, `_RevokedToken`) through ordinary Cypher
 * sessions, and cached in memory. Reads are served from the cache; every change writes through.
 * A name missing from the cache is looked up again in `system`, so a user added by another
 * process (`graphdb user add` on the same data directory) becomes visible.
 */
import type { CypherValue } from '../values/types.js';
import type { Permission, Session } from '../session/types.js';
import { legacyPrivileges } from './privileges/builtin.js';
import { PrivilegeStore } from './privileges/privilege-store.js';
import type { PrivilegeRecord } from './privileges/types.js';
import { BUILTIN_ROLES, isPermission, type RoleDefinition } from './roles.js';
import { valueText } from '../values/to-string.js';

/** Opens a session on the `system` database without a security context (internal use). */
export type SystemSessionFactory = () => Session;

/** A stored account: a person or a service account. */
export interface UserRecord {
  readonly name: string;
  /** scrypt hash (see password-hash.ts); never the password. */
  readonly passwordHash: string;
  readonly roles: readonly string[];
  readonly suspended: boolean;
  readonly serviceAccount: boolean;
  /** The user's home database (null: the default database). */
  readonly home: string | null;
  /** CHANGE REQUIRED: the user must change the password (shown by SHOW USERS). */
  readonly passwordChangeRequired: boolean;
}

type Row = readonly CypherValue[];

function strings(value: CypherValue): string[] {
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
}

function userOf(row: Row): UserRecord {
  return {
    name: valueText(row[0] ?? null),
    passwordHash: valueText(row[1] ?? ''),
    roles: strings(row[2] ?? null),
    suspended: row[3] === true,
    serviceAccount: row[4] === true,
    home: typeof row[5] === 'string' ? row[5] : null,
    passwordChangeRequired: row[6] === true,
  };
}

const USER_COLUMNS = 'u.name, u.passwordHash, u.roles, u.suspended, u.serviceAccount, u.home, u.passwordChangeRequired';
const USER_FIELDS =
  'u.passwordHash = $passwordHash, u.roles = $roles, u.suspended = $suspended, u.serviceAccount = $serviceAccount, u.home = $home, u.passwordChangeRequired = $passwordChangeRequired';

/** The persistent auth state of one engine. */
export class AuthStore {
  private readonly users = new Map<string, UserRecord>();
  private readonly roles = new Map<string, { permissions: readonly Permission[] }>();
  private readonly access = new Map<string, readonly string[]>();
  private readonly revoked = new Map<string, number>();
  /** GRANT/DENY privileges of every role. */
  readonly privileges: PrivilegeStore;

  private constructor(private readonly openSession: SystemSessionFactory) {
    this.privileges = new PrivilegeStore((text, parameters) => this.query(text, parameters));
  }

  /** Loads the state from `system`. */
  static async open(openSession: SystemSessionFactory): Promise<AuthStore> {
    const store = new AuthStore(openSession);
    await store.reload();
    return store;
  }

  /** Runs one statement on `system` and returns all its rows. */
  private async query(text: string, parameters: Record<string, CypherValue> = {}): Promise<Row[]> {
    const session = this.openSession();
    try {
      const result = await session.run(text, parameters);
      const { records } = await result.pull(-1);
      return [...records];
    } finally {
      await session.close();
    }
  }

  /**
   * Re-reads everything from `system`. `seed` false (a cluster member after a replicated change,
   * which writes nothing itself) leaves the built-in privileges unseeded when they are missing.
   */
  async reload(seed = true): Promise<void> {
    const users = await this.query(`MATCH (u:_User) RETURN ${USER_COLUMNS}`);
    const roles = await this.query('MATCH (r:_Role) RETURN r.name, r.permissions');
    const access = await this.query('MATCH (a:_RoleDbAccess) RETURN a.role, a.database');
    const revoked = await this.query('MATCH (t:_RevokedToken) RETURN t.jti, t.expiresAt');
    this.users.clear();
    for (const row of users) this.users.set(valueText(row[0] ?? null), userOf(row));
    this.roles.clear();
    for (const row of roles) this.roles.set(valueText(row[0] ?? null), { permissions: strings(row[1] ?? null).filter(isPermission) });
    this.access.clear();
    for (const row of access) {
      const role = valueText(row[0] ?? null);
      this.access.set(role, [...(this.access.get(role) ?? []), valueText(row[1] ?? null)]);
    }
    this.revoked.clear();
    for (const row of revoked) this.revoked.set(valueText(row[0] ?? null), Number(row[1] ?? 0));
    await this.privileges.reload(seed);
  }

  /** A user by name from the cache. */
  user(name: string): UserRecord | null {
    return this.users.get(name) ?? null;
  }

  /** A user by name, reading `system` when the cache does not have it. */
  async findUser(name: string): Promise<UserRecord | null> {
    const cached = this.users.get(name);
    if (cached) return cached;
    const rows = await this.query(`MATCH (u:_User {name: $name}) RETURN ${USER_COLUMNS}`, { name });
    if (rows.length === 0) return null;
    const user = userOf(rows[0]!);
    this.users.set(name, user);
    return user;
  }

  /** Every user, sorted by name. */
  listUsers(): UserRecord[] {
    return [...this.users.values()].sort((a, b) => a.name.localeCompare(b.name));
  }

  /** Number of stored users. */
  get userCount(): number {
    return this.users.size;
  }

  /** Stores a new user; false when the name is taken. */
  async createUser(user: UserRecord): Promise<boolean> {
    if (await this.findUser(user.name)) return false;
    await this.query(`CREATE (u:_User {name: $name}) SET ${USER_FIELDS}`, { ...user, roles: [...user.roles] });
    this.users.set(user.name, user);
    return true;
  }

  /** Replaces a user's stored fields; false when absent. */
  async updateUser(name: string, change: Partial<Omit<UserRecord, 'name'>>): Promise<boolean> {
    const current = await this.findUser(name);
    if (!current) return false;
    const next: UserRecord = { ...current, ...change, name };
    await this.query(`MATCH (u:_User {name: $name}) SET ${USER_FIELDS}`, { ...next, roles: [...next.roles] });
    this.users.set(name, next);
    return true;
  }

  /** Deletes a user; false when absent. */
  async dropUser(name: string): Promise<boolean> {
    if (!(await this.findUser(name))) return false;
    await this.query('MATCH (u:_User {name: $name}) DELETE u', { name });
    this.users.delete(name);
    return true;
  }

  /** Renames a user (RENAME USER); false when absent. */
  async renameUser(from: string, to: string): Promise<boolean> {
    const user = await this.findUser(from);
    if (!user) return false;
    await this.query('MATCH (u:_User {name: $from}) SET u.name = $to', { from, to });
    this.users.delete(from);
    this.users.set(to, { ...user, name: to });
    return true;
  }

  /** The privileges a role has: its stored GRANT/DENY rows plus those its legacy permission list stands for. */
  privilegesOf(name: string): PrivilegeRecord[] {
    const stored = this.roles.get(name);
    const legacy = stored && !BUILTIN_ROLES.has(name) ? legacyPrivileges(name, stored.permissions) : [];
    return [...this.privileges.of(name), ...legacy];
  }

  /** A role's database allowlist (empty: every database). */
  allowlistOf(name: string): readonly string[] {
    return this.access.get(name) ?? [];
  }

  /** Renames a user-defined role with its privileges, allowlist and members; false when absent. */
  async renameRole(from: string, to: string): Promise<boolean> {
    const stored = this.roles.get(from);
    if (!stored) return false;
    await this.query('MATCH (r:_Role {name: $from}) SET r.name = $to', { from, to });
    await this.query('MATCH (a:_RoleDbAccess {role: $from}) SET a.role = $to', { from, to });
    await this.privileges.renameRole(from, to);
    this.roles.delete(from);
    this.roles.set(to, stored);
    const databases = this.access.get(from);
    this.access.delete(from);
    if (databases) this.access.set(to, databases);
    for (const user of this.listUsers()) {
      if (user.roles.includes(from)) await this.updateUser(user.name, { roles: user.roles.map((r) => (r === from ? to : r)) });
    }
    return true;
  }

  /** A role with its permissions and allowlist, or null. */
  role(name: string): RoleDefinition | null {
    const builtin = BUILTIN_ROLES.get(name);
    const stored = this.roles.get(name);
    if (!builtin && !stored) return null;
    return { name, permissions: builtin ?? stored!.permissions, databases: this.access.get(name) ?? [], builtin: builtin !== undefined };
  }

  /** Built-in and user-defined roles, sorted by name. */
  listRoles(): RoleDefinition[] {
    const names = new Set([...BUILTIN_ROLES.keys(), ...this.roles.keys()]);
    return [...names].sort().map((name) => this.role(name)!);
  }

  /** Creates a user-defined role; false when it exists (built-in names always exist). */
  async createRole(name: string, permissions: readonly Permission[]): Promise<boolean> {
    if (this.role(name)) return false;
    await this.query('CREATE (:_Role {name: $name, permissions: $permissions})', { name, permissions: [...permissions] });
    this.roles.set(name, { permissions });
    return true;
  }

  /** Drops a user-defined role, its allowlist and its grants; false when absent. */
  async dropRole(name: string): Promise<boolean> {
    if (!this.roles.has(name)) return false;
    await this.query('MATCH (r:_Role {name: $name}) DELETE r', { name });
    await this.setRoleDatabases(name, []);
    await this.privileges.dropRole(name);
    this.roles.delete(name);
    for (const user of this.listUsers()) {
      if (user.roles.includes(name)) await this.updateUser(user.name, { roles: user.roles.filter((r) => r !== name) });
    }
    return true;
  }

  /** Replaces a role's database allowlist (`_RoleDbAccess` nodes); empty = all databases. */
  async setRoleDatabases(role: string, databases: readonly string[]): Promise<void> {
    const unique = [...new Set(databases)];
    await this.query('MATCH (a:_RoleDbAccess {role: $role}) DELETE a', { role });
    if (unique.length > 0) {
      await this.query('UNWIND $databases AS db CREATE (:_RoleDbAccess {role: $role, database: db})', { role, databases: unique });
    }
    if (unique.length === 0) this.access.delete(role);
    else this.access.set(role, unique);
  }

  /** Records a revoked token id until its expiry (ms since epoch; 0 = never expires). */
  async revokeToken(jti: string, expiresAtMs: number): Promise<void> {
    if (this.revoked.has(jti)) return;
    await this.query('CREATE (:_RevokedToken {jti: $jti, expiresAt: $expiresAt})', { jti, expiresAt: BigInt(expiresAtMs) });
    this.revoked.set(jti, expiresAtMs);
  }

  /** True when the token id was revoked. */
  isRevoked(jti: string): boolean {
    return this.revoked.has(jti);
  }
}
