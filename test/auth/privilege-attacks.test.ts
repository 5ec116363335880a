/**
 * The attacks of issue #24, written as they were reproduced: a write-only role must not read
 * through a COLLECT subquery or a relationship pattern's RETURN, and privileges are scoped to
 * the database they name.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { GraphDB, type SecurityContext } from '../../src/engine/index.js';
import { AuthService } from '../../src/engine/auth/index.js';
import { addPrivileges } from '../../src/engine/auth/role-admin.js';
import type { PrivilegeRecord } from '../../src/engine/auth/privileges/types.js';

const FAST = { N: 1024, r: 8, p: 1 };
const FORBIDDEN = 'Neo.ClientError.Security.Forbidden';

const privilege = (
  role: string,
  action: PrivilegeRecord['action'],
  graph: string,
  segment: string,
  resource: string,
  access: PrivilegeRecord['access'] = 'GRANTED',
): PrivilegeRecord => ({
  role,
  access,
  action,
  graph,
  segment,
  resource,
  immutable: false,
});

describe('privileges from the analysed query', () => {
  let db: GraphDB;
  let auth: AuthService;
  let writer: SecurityContext;
  let scoped: SecurityContext;
  let fine: SecurityContext;

  const run = async (security: SecurityContext | undefined, query: string, database?: string) => {
    const session = db.session({ security, ...(database ? { database } : {}) });
    try {
      const result = await session.run(query);
      return (await result.pull(-1)).records;
    } finally {
      await session.close();
    }
  };
  const code = async (security: SecurityContext, query: string, database?: string): Promise<string> => {
    try {
      await run(security, query, database);
      return 'ok';
    } catch (error) {
      return (error as { code?: string }).code ?? String(error);
    }
  };

  before(async () => {
    db = await GraphDB.open();
    await db.createDatabase('other');
    auth = await AuthService.open({
      systemSession: () => db.session({ database: 'system' }),
      jwtSecret: null,
      initialCredentials: 'root:pw',
      scryptCost: FAST,
      defaultDatabase: db.defaultDatabase,
    });
    await auth.createRole('writeonly', [], null);
    await addPrivileges(
      auth,
      [
        privilege('writeonly', 'access', '*', 'database', 'database'),
        privilege('writeonly', 'write', '*', 'NODE(*)', 'graph'),
        privilege('writeonly', 'write', '*', 'RELATIONSHIP(*)', 'graph'),
      ],
      null,
    );
    await auth.createRole('otherreader', [], null);
    await addPrivileges(
      auth,
      [
        privilege('otherreader', 'access', 'other', 'database', 'database'),
        privilege('otherreader', 'match', 'other', 'NODE(*)', 'all_properties'),
        privilege('otherreader', 'match', 'other', 'RELATIONSHIP(*)', 'all_properties'),
      ],
      null,
    );
    await auth.createRole('tonly', [], null);
    await addPrivileges(
      auth,
      [
        privilege('tonly', 'access', '*', 'database', 'database'),
        privilege('tonly', 'traverse', '*', 'NODE(*)', 'graph'),
        privilege('tonly', 'match', '*', 'RELATIONSHIP(T)', 'property(k)'),
        privilege('tonly', 'set_property', '*', 'RELATIONSHIP(T)', 'property(seen)'),
      ],
      null,
    );
    await auth.createUser('w', 'w', ['writeonly'], null);
    await auth.createUser('o', 'o', ['otherreader'], null);
    await auth.createUser('t', 't', ['tonly'], null);
    writer = auth.contextFor('w', ['writeonly']);
    scoped = auth.contextFor('o', ['otherreader']);
    fine = auth.contextFor('t', ['tonly']);
    await run(undefined, "CREATE (:Secret {pw: 'hunter2'}), (:A)-[:T {k: 1, secret: 's3'}]->(:B)");
    await run(undefined, "CREATE (:Secret {pw: 'other-pw'})", 'other');
  });
  after(() => db.close());

  it('a write-only role cannot read through a COLLECT subquery in CREATE', async () => {
    assert.equal(await code(writer, 'CREATE (x:Probe {v: COLLECT { MATCH (s:Secret) RETURN s.pw }}) RETURN x.v'), FORBIDDEN);
    assert.deepEqual(await run(undefined, 'MATCH (p:Probe) RETURN count(p)'), [[0n]]);
    await assert.rejects(
      run(writer, 'CREATE (x:Probe {v: COLLECT { MATCH (s:Secret) RETURN s.pw }})'),
      /node with labels 'Secret' on database '[a-z]+' is not allowed for user 'w' with roles \[PUBLIC, writeonly\]/,
    );
  });

  it('a write-only role cannot read through EXISTS, COUNT, pattern comprehensions or CALL subqueries', async () => {
    for (const query of [
      'CREATE (:Probe {v: EXISTS { MATCH (:Secret) }})',
      'CREATE (:Probe {v: COUNT { MATCH (:Secret) }})',
      'CREATE (:Probe {v: [(s:Secret)-->() | s.pw]})',
      'CALL { MATCH (s:Secret) RETURN s.pw AS pw } CREATE (:Probe {v: pw})',
      'MATCH (n) RETURN count(n)',
    ]) {
      assert.equal(await code(writer, query), FORBIDDEN, query);
    }
    assert.deepEqual(await run(undefined, 'MATCH (p:Probe) RETURN count(p)'), [[0n]]);
  });

  it('the write-only role still writes', async () => {
    assert.equal(await code(writer, 'CREATE (:Probe {v: 1})'), 'ok');
    assert.equal(await code(writer, 'UNWIND [1, 2] AS i CREATE (:Probe {v: i})'), 'ok');
    await run(undefined, 'MATCH (p:Probe) DELETE p');
  });

  it('SET on a relationship pattern does not let RETURN read unreadable properties', async () => {
    assert.equal(await code(fine, 'MATCH ()-[r:T {k: 1}]->() SET r.seen = true RETURN r.secret'), FORBIDDEN);
    assert.deepEqual(await run(undefined, 'MATCH ()-[r:T]->() RETURN r.seen'), [[null]]);
    assert.equal(await code(writer, 'MATCH ()-[r:T {k: 1}]->() SET r.seen = true RETURN r.secret'), FORBIDDEN);
    assert.equal(await code(fine, 'MATCH ()-[r:T {k: 1}]->() SET r.seen = true RETURN r.k'), 'ok');
    assert.deepEqual(await run(undefined, 'MATCH ()-[r:T]->() RETURN r.seen'), [[true]]);
    assert.equal(await code(fine, 'MATCH ()-[r:T]->() RETURN r'), FORBIDDEN);
    assert.equal(await code(fine, 'MATCH ()-[r:T]->() WITH r AS x RETURN x.secret'), FORBIDDEN);
    assert.equal(await code(fine, 'MATCH ()-[r:T]->() WITH collect(r) AS rs UNWIND rs AS x RETURN x.secret'), FORBIDDEN);
    assert.equal(await code(fine, "MATCH ()-[r:T]->() RETURN r['secret']"), FORBIDDEN);
    assert.equal(await code(fine, 'MATCH p = (:A)-[:T]->() RETURN p'), FORBIDDEN);
    assert.equal(await code(fine, 'MATCH ()-[r:T]->() RETURN properties(r)'), FORBIDDEN);
    assert.equal(await code(fine, 'MATCH ()-[r:T]->() RETURN r {.*}'), FORBIDDEN);
    assert.equal(await code(fine, 'MATCH ()-[r:T]->() RETURN r {.k}, id(r), type(r)'), 'ok');
  });

  it('privileges are scoped to the database they name', async () => {
    assert.deepEqual(await run(scoped, 'MATCH (s:Secret) RETURN s.pw', 'other'), [['other-pw']]);
    assert.equal(await code(scoped, 'MATCH (s:Secret) RETURN s.pw'), FORBIDDEN);
    await assert.rejects(run(scoped, 'MATCH (s:Secret) RETURN s.pw', db.defaultDatabase), /Traverse node with labels 'Secret'/);
  });

  it('procedures need what their declared mode implies', async () => {
    assert.equal(await code(writer, 'CALL db.labels()'), FORBIDDEN);
    assert.equal(await code(auth.contextFor('r', ['reader']), 'CALL db.labels()'), 'ok');
  });

  it('DENY wins over GRANT', async () => {
    await auth.createRole('nosecret', [], null);
    await addPrivileges(auth, [privilege('nosecret', 'traverse', '*', 'NODE(Secret)', 'graph', 'DENIED')], null);
    const both = auth.contextFor('r', ['reader', 'nosecret']);
    assert.equal(await code(both, 'MATCH (s:Secret) RETURN s.pw'), FORBIDDEN);
    assert.equal(await code(both, 'MATCH (a:A) RETURN count(a)'), 'ok');
  });
});
