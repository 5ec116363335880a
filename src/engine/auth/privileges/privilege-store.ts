/**
 * Privileges persisted as `_Privilege` nodes of the `system` database and cached in memory.
 * The built-in roles' defaults are seeded once (a `_PrivilegeSeed` node records it), so an
 * administrator can revoke or extend them and the change survives a restart.
 */
import type { CypherValue } from '../../values/types.js';
import { builtinPrivileges } from './builtin.js';
import { privilegeKey, type PrivilegeAccess, type PrivilegeAction, type PrivilegeRecord } from './types.js';
import { valueText } from '../../values/to-string.js';

/** Runs one statement on `system` and returns its rows. */
export type SystemQuery = (text: string, parameters?: Record<string, CypherValue>) => Promise<(readonly CypherValue[])[]>;

const SEED_VERSION = 1n;

/** The stored privileges of every role. */
export class PrivilegeStore {
  private readonly byRole = new Map<string, PrivilegeRecord[]>();

  constructor(private readonly query: SystemQuery) {}

  /** Loads every privilege, seeding the built-in roles' defaults the first time (unless `seed` is false). */
  async reload(seed = true): Promise<void> {
    const seeded = seed ? await this.query('MATCH (s:_PrivilegeSeed) RETURN s.version') : [true];
    if (seeded.length === 0) {
      await this.query(
        'UNWIND $rows AS p CREATE (:_Privilege {role: p.role, access: p.access, action: p.action, resource: p.resource, graph: p.graph, segment: p.segment})',
        { rows: builtinPrivileges().map(asMap) },
      );
      await this.query('CREATE (:_PrivilegeSeed {version: $version})', { version: SEED_VERSION });
    }
    const rows = await this.query('MATCH (p:_Privilege) RETURN p.role, p.access, p.action, p.resource, p.graph, p.segment');
    this.byRole.clear();
    for (const r of rows) {
      const record: PrivilegeRecord = {
        role: valueText(r[0]),
        access: r[1] === 'DENIED' ? 'DENIED' : 'GRANTED',
        action: valueText(r[2]) as PrivilegeAction,
        resource: valueText(r[3]),
        graph: valueText(r[4]),
        segment: valueText(r[5]),
        immutable: false,
      };
      this.list(record.role).push(record);
    }
  }

  private list(role: string): PrivilegeRecord[] {
    let list = this.byRole.get(role);
    if (!list) this.byRole.set(role, (list = []));
    return list;
  }

  /** The stored privileges of a role. */
  of(role: string): readonly PrivilegeRecord[] {
    return this.byRole.get(role) ?? [];
  }

  /** Adds privileges (GRANT/DENY); returns how many were new. */
  async add(records: readonly PrivilegeRecord[]): Promise<number> {
    const fresh = records.filter(
      (r, i) =>
        !this.of(r.role).some((p) => privilegeKey(p) === privilegeKey(r)) &&
        records.findIndex((o) => privilegeKey(o) === privilegeKey(r)) === i,
    );
    if (fresh.length === 0) return 0;
    await this.query(
      'UNWIND $rows AS p CREATE (:_Privilege {role: p.role, access: p.access, action: p.action, resource: p.resource, graph: p.graph, segment: p.segment})',
      { rows: fresh.map(asMap) },
    );
    for (const r of fresh) this.list(r.role).push({ ...r, immutable: false });
    return fresh.length;
  }

  /** Removes privileges (REVOKE [GRANT|DENY]); `access` null removes both; returns how many went. */
  async remove(records: readonly Omit<PrivilegeRecord, 'access'>[], access: PrivilegeAccess | null): Promise<number> {
    let removed = 0;
    for (const r of records) {
      for (const kind of access === null ? (['GRANTED', 'DENIED'] as const) : [access]) {
        const target = { ...r, access: kind };
        const list = this.list(r.role);
        const index = list.findIndex((p) => privilegeKey(p) === privilegeKey(target));
        if (index < 0) continue;
        await this.query(
          'MATCH (p:_Privilege {role: $role, access: $access, action: $action, resource: $resource, graph: $graph, segment: $segment}) DELETE p',
          row(target),
        );
        list.splice(index, 1);
        removed++;
      }
    }
    return removed;
  }

  /** Drops every privilege of a role (DROP ROLE). */
  async dropRole(role: string): Promise<void> {
    await this.query('MATCH (p:_Privilege {role: $role}) DELETE p', { role });
    this.byRole.delete(role);
  }

  /** Moves a role's privileges to a new name (RENAME ROLE). */
  async renameRole(from: string, to: string): Promise<void> {
    await this.query('MATCH (p:_Privilege {role: $from}) SET p.role = $to', { from, to });
    const list = this.byRole.get(from) ?? [];
    this.byRole.delete(from);
    this.byRole.set(
      to,
      list.map((p) => ({ ...p, role: to })),
    );
  }

  /** Copies a role's privileges to another (CREATE ROLE ... AS COPY OF). */
  async copyRole(from: string, to: string): Promise<void> {
    await this.add(this.of(from).map((p) => ({ ...p, role: to })));
  }
}

function asMap(p: Omit<PrivilegeRecord, 'immutable'>): CypherValue {
  return new Map(Object.entries(row(p)));
}

function row(p: Omit<PrivilegeRecord, 'immutable'>): Record<string, CypherValue> {
  return { role: p.role, access: p.access, action: p.action, resource: p.resource, graph: p.graph, segment: p.segment };
}
