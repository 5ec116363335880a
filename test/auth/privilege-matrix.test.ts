/**
 * The generated privilege matrix: every role × statement kind × database × listener (HTTP's
 * transaction API through fetch, Bolt through neo4j-driver, GraphQL's `cypher` field). Roles are
 * created with Cypher GRANT/DENY commands through neo4j-driver's `executeQuery` (explicit
 * transactions); each statement declares the capabilities it needs and each role the
 * capabilities its privileges give per database, and the expected outcome is computed from those
 * two tables. A denied statement answers Neo.ClientError.Security.Forbidden and changes nothing.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import neo4j, { type Driver } from 'neo4j-driver';
import { commit, request, startTestServer, type TestServer } from '../http/helpers.js';

const FORBIDDEN = 'Neo.ClientError.Security.Forbidden';
const DATABASES = ['graphdb', 'other'] as const;
type Database = (typeof DATABASES)[number];
const LISTENERS = ['http', 'bolt', 'graphql'] as const;
type Listener = (typeof LISTENERS)[number];

/** What a role may do on a database, as far as the statements below need it. */
type Capability = 'access' | 'traverse' | 'read' | 'create' | 'set' | 'label' | 'delete' | 'index' | 'dbms';

/** Statement kinds and the capabilities each needs (on MatrixItem/MatrixProbe nodes and their `v`/`w` properties). */
const STATEMENTS: Readonly<Record<string, { readonly cypher: string; readonly needs: readonly Capability[] }>> = {
  'return literal': { cypher: 'RETURN 1 AS one', needs: ['access'] },
  count: { cypher: 'MATCH (n:MatrixItem) RETURN count(n) AS c', needs: ['access', 'traverse'] },
  'read property': { cypher: 'MATCH (n:MatrixItem) RETURN n.v AS v', needs: ['access', 'traverse', 'read'] },
  'read in EXISTS': { cypher: 'RETURN EXISTS { MATCH (n:MatrixItem) WHERE n.v > 0 } AS e', needs: ['access', 'traverse', 'read'] },
  create: { cypher: 'CREATE (:MatrixProbe {w: 1})', needs: ['access', 'create', 'set'] },
  'create from COLLECT': {
    cypher: 'CREATE (:MatrixProbe {w: COLLECT { MATCH (n:MatrixItem) RETURN n.v }})',
    needs: ['access', 'create', 'set', 'traverse', 'read'],
  },
  'set property': { cypher: 'MATCH (n:MatrixItem) SET n.w = 1', needs: ['access', 'traverse', 'set'] },
  'set label': { cypher: 'MATCH (n:MatrixItem) SET n:Tagged', needs: ['access', 'traverse', 'label'] },
  merge: { cypher: 'MERGE (:MatrixItem {v: 1})', needs: ['access', 'traverse', 'read', 'create', 'set'] },
  'pattern comprehension in CALL subquery': {
    cypher: 'CALL { MATCH (n:MatrixItem) RETURN [(n)-[r]->() | n.v] AS vs } RETURN size(vs) AS s',
    needs: ['access', 'traverse', 'read'],
  },
  delete: { cypher: 'MATCH (n:MatrixProbe) DELETE n', needs: ['access', 'traverse', 'delete'] },
  'create index': { cypher: 'CREATE INDEX matrix_idx IF NOT EXISTS FOR (n:MatrixProbe) ON (n.p)', needs: ['access', 'index'] },
  'show users': { cypher: 'SHOW USERS YIELD user RETURN count(user) AS n', needs: ['dbms'] },
  'procedure (READ mode)': { cypher: 'CALL db.labels() YIELD label RETURN count(label) AS n', needs: ['access', 'traverse', 'read'] },
};

const EVERYTHING: readonly Capability[] = ['access', 'traverse', 'read', 'create', 'set', 'label', 'delete', 'index', 'dbms'];
const EDITING: readonly Capability[] = ['access', 'traverse', 'read', 'create', 'set', 'label', 'delete'];

/**
 * Roles: the Cypher that makes them and what they give per database. Every user also has
 * PUBLIC, whose ACCESS ON HOME DATABASE is access to `graphdb` (the default database).
 */
const ROLES: Readonly<
  Record<string, { readonly commands: readonly string[]; readonly gives: Readonly<Record<Database, readonly Capability[]>> }>
> = {
  admin: { commands: [], gives: { graphdb: EVERYTHING, other: EVERYTHING } },
  architect: { commands: [], gives: { graphdb: [...EDITING, 'index'], other: [...EDITING, 'index'] } },
  editor: { commands: [], gives: { graphdb: EDITING, other: EDITING } },
  reader: { commands: [], gives: { graphdb: ['access', 'traverse', 'read'], other: ['access', 'traverse', 'read'] } },
  writeonly: {
    commands: ['CREATE ROLE writeonly', 'GRANT ACCESS ON DATABASE * TO writeonly', 'GRANT WRITE ON GRAPH * TO writeonly'],
    gives: { graphdb: ['access', 'create', 'set', 'label', 'delete'], other: ['access', 'create', 'set', 'label', 'delete'] },
  },
  traverser: {
    commands: ['CREATE ROLE traverser', 'GRANT ACCESS ON DATABASE * TO traverser', 'GRANT TRAVERSE ON GRAPH * NODES * TO traverser'],
    gives: { graphdb: ['access', 'traverse'], other: ['access', 'traverse'] },
  },
  otherreader: {
    commands: ['CREATE ROLE otherreader', 'GRANT ACCESS ON DATABASE other TO otherreader', 'GRANT MATCH {*} ON GRAPH other TO otherreader'],
    gives: { graphdb: ['access'], other: ['access', 'traverse', 'read'] },
  },
  nov: {
    commands: [
      'CREATE ROLE nov AS COPY OF reader',
      'DENY READ {v} ON GRAPH graphdb NODES MatrixItem TO nov',
      'REVOKE GRANT SHOW INDEX ON DATABASE * FROM nov',
    ],
    gives: { graphdb: ['access', 'traverse'], other: ['access', 'traverse', 'read'] },
  },
  nobody: { commands: ['CREATE ROLE nobody'], gives: { graphdb: ['access'], other: [] } },
};

const basic = (user: string) => ({ authorization: `Basic ${Buffer.from(`${user}:${user}-pw`).toString('base64')}` });

describe('generated privilege matrix (role × statement × database × listener)', () => {
  let t: TestServer;
  let boltUrl: string;
  let root: Driver;
  const drivers = new Map<string, Driver>();

  /** What the database looks like (as root): any change a denied statement made shows here. */
  const fingerprint = async (database: Database): Promise<string> => {
    const { records } = await root.executeQuery(
      'MATCH (n) RETURN count(n) AS n, sum(size(keys(n))) AS k, collect(DISTINCT labels(n)) AS l',
      {},
      { database },
    );
    const indexes = await root.executeQuery('SHOW INDEXES YIELD name RETURN collect(name) AS names', {}, { database });
    return JSON.stringify([records[0].toObject(), indexes.records[0].get('names')], (_, v: unknown) =>
      typeof v === 'bigint' ? String(v) : v,
    );
  };

  const outcome = async (listener: Listener, user: string, database: Database, cypher: string): Promise<string> => {
    if (listener === 'http') {
      const response = await commit(t.url, [cypher], database, basic(user));
      if (response.status !== 200) return `${response.status}`;
      return response.body.errors.length > 0 ? response.body.errors[0].code : 'ok';
    }
    if (listener === 'bolt') {
      try {
        await drivers.get(user)!.executeQuery(cypher, {}, { database });
        return 'ok';
      } catch (error) {
        return (error as { code?: string }).code ?? String(error);
      }
    }
    const response = await request(`${t.url}/graphql`, {
      method: 'POST',
      headers: basic(user),
      json: { query: 'query ($s: String!) { cypher(input: {statement: $s}) { rowCount } }', variables: { s: cypher } },
    });
    assert.equal(response.status, 200, response.text);
    return response.body.errors?.[0]?.extensions?.code ?? 'ok';
  };

  before(async () => {
    t = await startTestServer(
      {
        'auth.enabled': true,
        'server.bolt_enabled': true,
        'server.bolt_port': 0,
        'server.bolt_address': '127.0.0.1',
        'async_writes.enabled': false,
      },
      { GRAPHDB_AUTH: 'root:rootpw' },
    );
    boltUrl = `bolt://127.0.0.1:${t.server.bolt!.port}`;
    root = neo4j.driver(boltUrl, neo4j.auth.basic('root', 'rootpw'), { maxConnectionPoolSize: 2 });
    await root.executeQuery('CREATE DATABASE other IF NOT EXISTS', {}, { database: 'system' });
    for (const [role, { commands }] of Object.entries(ROLES)) {
      for (const command of commands) await root.executeQuery(command, {}, { database: 'system' });
      await root.executeQuery(
        'CREATE USER $user SET PASSWORD $password CHANGE NOT REQUIRED',
        { user: `u_${role}`, password: `u_${role}-pw` },
        { database: 'system' },
      );
      await root.executeQuery('GRANT ROLE $role TO $user', { role, user: `u_${role}` }, { database: 'system' });
      drivers.set(`u_${role}`, neo4j.driver(boltUrl, neo4j.auth.basic(`u_${role}`, `u_${role}-pw`), { maxConnectionPoolSize: 1 }));
    }
    for (const database of DATABASES) await root.executeQuery('CREATE (:MatrixItem {v: 1})', {}, { database });
  });

  after(async () => {
    for (const driver of drivers.values()) await driver.close();
    await root?.close();
    await t?.stop();
  });

  it('the roles were made by Cypher through executeQuery and SHOW them back', async () => {
    const { records } = await root.executeQuery('SHOW ROLE writeonly PRIVILEGES AS COMMANDS', {}, { database: 'system' });
    assert.deepEqual(records.map((r) => r.get('command')).sort(), [
      'GRANT ACCESS ON DATABASE * TO `writeonly`',
      'GRANT WRITE ON GRAPH * TO `writeonly`',
    ]);
    const users = await root.executeQuery("SHOW USERS YIELD user, roles WHERE user = 'u_nov' RETURN roles", {}, { database: 'system' });
    assert.deepEqual(users.records[0].get('roles'), ['PUBLIC', 'nov']);
  });

  for (const role of Object.keys(ROLES)) {
    for (const database of DATABASES) {
      for (const listener of LISTENERS) {
        if (listener === 'graphql' && database !== 'graphdb') continue;
        it(`${role} on ${database} over ${listener}`, async () => {
          const gives = ROLES[role].gives[database];
          for (const [kind, { cypher, needs }] of Object.entries(STATEMENTS)) {
            const allowed = needs.every((n) => gives.includes(n));
            const before = allowed ? null : await fingerprint(database);
            const got = await outcome(listener, `u_${role}`, database, cypher);
            assert.equal(got, allowed ? 'ok' : FORBIDDEN, `${role} ${kind} on ${database} over ${listener}`);
            if (before !== null) assert.equal(await fingerprint(database), before, `${role} ${kind}: a denied statement changed nothing`);
          }
        });
      }
    }
  }
});
