/**
 * The `system` database is replicated (3 nats-server + 3 `graphdb serve` members on loopback):
 * administration sent to a follower runs on the leader as the caller and every member sees it.
 * A user created through a follower (neo4j-driver) logs in on every member over Bolt and HTTP; a
 * password change and a DROP USER sent to another member take effect on every member; CREATE
 * DATABASE through a follower makes the database usable on every member, with its writes
 * replicated; a database created while a member was down reaches it once it restarts; the GDPR
 * erasure sent to a follower (HTTP) erases on every member.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import neo4j, { type Driver } from 'neo4j-driver';
import { GraphdbCluster, PASSWORD, USER, basicAuth } from './graphdb-cluster.ts';
import { until } from './nats-cluster.ts';

let cluster: GraphdbCluster;
const drivers: Driver[] = [];
let leader = -1;
let follower = -1;
let other = -1;

function driver(member: number, user = USER, password = PASSWORD): Driver {
  const d = neo4j.driver(`bolt://${cluster.members[member].bolt}`, neo4j.auth.basic(user, password), { useBigInt: true });
  drivers.push(d);
  return d;
}

/** Runs one statement as the test's admin on member `i`. */
async function admin(member: number, query: string, database = 'system'): Promise<void> {
  await driver(member).executeQuery(query, {}, { database });
}

/** True when `user` logs in on member `i` over Bolt (a query runs). */
async function boltLogin(member: number, user: string, password: string): Promise<boolean> {
  const d = neo4j.driver(`bolt://${cluster.members[member].bolt}`, neo4j.auth.basic(user, password), { useBigInt: true });
  try {
    const result = await d.executeQuery('RETURN 1 AS one', {}, { database: 'graphdb' });
    return result.records[0].get('one') === 1n;
  } catch (error) {
    if ((error as { code?: string }).code === 'Neo.ClientError.Security.Unauthorized') return false;
    throw error;
  } finally {
    await d.close();
  }
}

/** The HTTP status of a query sent to member `i` as `user` (200: logged in, 401: refused). */
async function httpLogin(member: number, user: string, password: string): Promise<number> {
  const response = await fetch(`${cluster.members[member].http}/db/graphdb/tx/commit`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}` },
    body: JSON.stringify({ statements: [{ statement: 'RETURN 1' }] }),
  });
  await response.text();
  return response.status;
}

/** The user names SHOW USERS lists on member `i`. */
async function usersOn(member: number): Promise<string[]> {
  const result = await driver(member).executeQuery('SHOW USERS YIELD user RETURN user ORDER BY user', {}, { database: 'system' });
  return result.records.map((r) => r.get('user') as string);
}

/** Waits until every member lists (or, with `present` false, no longer lists) `user`. */
async function userEverywhere(user: string, present: boolean): Promise<void> {
  await until(
    async () => {
      for (const m of cluster.members) if ((await usersOn(m.index)).includes(user) !== present) return false;
      return true;
    },
    20_000,
    `user ${user} ${present ? 'on' : 'gone from'} every member`,
  );
}

before(async () => {
  cluster = await GraphdbCluster.start(3);
  leader = await cluster.leader();
  follower = (leader + 1) % 3;
  other = (leader + 2) % 3;
});

after(async () => {
  for (const d of drivers) await d.close().catch(() => undefined);
  await cluster?.close();
});

describe('the system database in a 3-member cluster', () => {
  it('a user created through a follower logs in on every member; password changes and DROP USER reach every member', async () => {
    await admin(follower, "CREATE USER alice SET PASSWORD 'alice-first-password' CHANGE NOT REQUIRED");
    await admin(follower, 'GRANT ROLE editor TO alice');
    // The follower that forwarded the commands has applied them when they return.
    assert.ok((await usersOn(follower)).includes('alice'));
    await userEverywhere('alice', true);
    for (const m of cluster.members) {
      assert.equal(await boltLogin(m.index, 'alice', 'alice-first-password'), true, `Bolt login on member ${m.index}`);
      assert.equal(await httpLogin(m.index, 'alice', 'alice-first-password'), 200, `HTTP login on member ${m.index}`);
    }
    const roles = await driver(other).executeQuery(
      "SHOW USERS YIELD user, roles WHERE user = 'alice' RETURN roles",
      {},
      { database: 'system' },
    );
    assert.ok((roles.records[0].get('roles') as string[]).includes('editor'));
    // alice writes (editor) through a follower: the leader checks her replicated role.
    await driver(other, 'alice', 'alice-first-password').executeQuery("CREATE (:ByAlice {owner: 'alice'})", {}, { database: 'graphdb' });

    await admin(other, "ALTER USER alice SET PASSWORD 'alice-second-password' CHANGE NOT REQUIRED");
    await until(
      async () => {
        for (const m of cluster.members) if ((await httpLogin(m.index, 'alice', 'alice-second-password')) !== 200) return false;
        return true;
      },
      20_000,
      'the new password accepted on every member',
    );
    for (const m of cluster.members) {
      assert.equal(await httpLogin(m.index, 'alice', 'alice-first-password'), 401, `old password refused on member ${m.index}`);
    }

    await admin(other, 'DROP USER alice');
    await userEverywhere('alice', false);
    for (const m of cluster.members) {
      assert.equal(await boltLogin(m.index, 'alice', 'alice-second-password'), false, `Bolt login refused on member ${m.index}`);
      assert.equal(await httpLogin(m.index, 'alice', 'alice-second-password'), 401, `HTTP login refused on member ${m.index}`);
    }
  });

  it('CREATE DATABASE through a follower makes the database usable on every member; its writes replicate; DROP removes it everywhere', async () => {
    await admin(follower, 'CREATE DATABASE replicatedx');
    // The follower that forwarded it serves it at once: a write through it goes to the leader.
    await driver(follower).executeQuery('CREATE (:InX {n: 1}), (:InX {n: 2})', {}, { database: 'replicatedx' });
    // Another member serves it once it applied the catalog change (as a Neo4j member that has not caught up yet).
    await until(
      async () => {
        const names = await driver(other).executeQuery(
          'SHOW DATABASES YIELD name RETURN collect(name) AS names',
          {},
          { database: 'system' },
        );
        return (names.records[0].get('names') as string[]).includes('replicatedx');
      },
      20_000,
      'replicatedx on the other follower',
    );
    await driver(other).executeQuery('CREATE (:InX {n: 3})', {}, { database: 'replicatedx' });
    await cluster.converged('replicatedx').catch(async (error: unknown) => {
      throw new Error(`${(error as Error).message}\n${await cluster.describe()}`);
    });
    for (const m of cluster.members) {
      const result = await driver(m.index).executeQuery(
        'MATCH (n:InX) RETURN count(n) AS c',
        {},
        { database: 'replicatedx', routing: neo4j.routing.READ },
      );
      assert.equal(result.records[0].get('c'), 3n, `member ${m.index}`);
      const names = await driver(m.index).executeQuery(
        'SHOW DATABASES YIELD name RETURN collect(name) AS names',
        {},
        { database: 'system' },
      );
      assert.ok((names.records[0].get('names') as string[]).includes('replicatedx'), `SHOW DATABASES on member ${m.index}`);
    }
    await admin(other, 'DROP DATABASE replicatedx');
    await until(
      async () => {
        for (const m of cluster.members) {
          const names = await driver(m.index).executeQuery(
            'SHOW DATABASES YIELD name RETURN collect(name) AS names',
            {},
            { database: 'system' },
          );
          if ((names.records[0].get('names') as string[]).includes('replicatedx')) return false;
        }
        return true;
      },
      20_000,
      'replicatedx gone from every member',
    );
    await assert.rejects(
      driver(follower).executeQuery('MATCH (n) RETURN count(n)', {}, { database: 'replicatedx' }),
      (error: { code?: string }) => error.code === 'Neo.ClientError.Database.DatabaseNotFound',
    );
  });

  it('a database created while a member was down is replicated to it once it restarts', async () => {
    /** The :Down nodes member `i` holds in `whiledown` (null while it does not serve that database yet). */
    const downCount = async (i: number): Promise<bigint | null> => {
      try {
        const result = await driver(i).executeQuery(
          'MATCH (n:Down) RETURN count(n) AS c',
          {},
          { database: 'whiledown', routing: neo4j.routing.READ },
        );
        return result.records[0].get('c') as bigint;
      } catch {
        return null;
      }
    };
    await cluster.kill(other);
    try {
      await admin(follower, 'CREATE DATABASE whiledown');
      await driver(follower).executeQuery('CREATE (:Down {n: 1})', {}, { database: 'whiledown' });
    } finally {
      await cluster.startMember(other);
    }
    await until(async () => (await downCount(other)) === 1n, 60_000, 'whiledown on the restarted member').catch(async (error: unknown) => {
      throw new Error(`${(error as Error).message}\n${await cluster.describe()}`);
    });
    await driver(follower).executeQuery('CREATE (:Down {n: 2})', {}, { database: 'whiledown' });
    await until(async () => (await downCount(other)) === 2n, 30_000, 'a later write to whiledown on the restarted member');
    await admin(follower, 'DROP DATABASE whiledown');
  });

  it('the GDPR erasure sent to a follower erases on every member', async () => {
    await driver(leader).executeQuery(
      "CREATE (:Personal {owner: $user, n: 1}), (:Personal {owner: $user, n: 2}), (:Personal {owner: 'someone-else'})",
      { user: USER },
      { database: 'graphdb' },
    );
    await cluster.converged();
    const response = await fetch(`${cluster.members[follower].http}/gdpr/delete`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: basicAuth() },
      body: JSON.stringify({ confirm: true }),
    });
    const body = (await response.json()) as { subject?: string; databases?: { name: string; nodes_deleted: number }[] };
    assert.equal(response.status, 200, JSON.stringify(body));
    assert.equal(body.subject, USER);
    assert.deepEqual(body.databases, [{ name: 'graphdb', nodes_deleted: 2, relationships_deleted: 0 }]);
    await cluster.converged();
    for (const m of cluster.members) {
      const result = await driver(m.index).executeQuery(
        'MATCH (n:Personal) RETURN collect(n.owner) AS owners',
        {},
        { database: 'graphdb', routing: neo4j.routing.READ },
      );
      assert.deepEqual(result.records[0].get('owners'), ['someone-else'], `member ${m.index}`);
    }
  });
});
