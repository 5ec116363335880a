/**
 * Neo4j 5 built-in procedures beyond introspection: vector property writes and vector index
 * creation, full-text administration (node and relationship), DBMS information, planner
 * maintenance, and Neo4j's argument coercion (integral FLOAT for INTEGER).
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { GraphDB } from '../../src/engine/index.js';

describe('Neo4j 5 built-in procedures', () => {
  let db: GraphDB;

  async function run(query: string, parameters: Record<string, unknown> = {}, mode?: 'READ' | 'WRITE'): Promise<unknown[][]> {
    const session = db.session();
    if (mode === 'READ') {
      const tx = await session.beginTransaction({ mode });
      try {
        const result = await tx.run(query, parameters as never);
        return (await result.pull(-1)).records.map((r) => [...r]);
      } finally {
        await tx.rollback();
      }
    }
    const result = await session.run(query, parameters as never);
    return (await result.pull(-1)).records.map((r) => [...r]);
  }

  before(async () => {
    db = await GraphDB.open({ search: { eager: false } });
  });
  after(() => db.close());

  it('db.create.setNodeVectorProperty stores a 32-bit LIST<FLOAT>; setVectorProperty yields the node', async () => {
    await run('CREATE (:Doc {id: 1}), (:Doc {id: 2})-[:LINKS {w: 1}]->(:Doc {id: 3})');
    await run('MATCH (d:Doc {id: 1}) CALL db.create.setNodeVectorProperty(d, "embedding", [0.1, 2, 3.5])');
    assert.deepEqual(await run('MATCH (d:Doc {id: 1}) RETURN d.embedding'), [[[Math.fround(0.1), 2, 3.5]]]);
    const yielded = await run(
      'MATCH (d:Doc {id: 2}) CALL db.create.setVectorProperty(d, "embedding", [1, 0, 0]) YIELD node RETURN node.id',
    );
    assert.deepEqual(yielded, [[2n]]);
    await run('MATCH ()-[r:LINKS]->() CALL db.create.setRelationshipVectorProperty(r, "embedding", [0, 1, 0])');
    assert.deepEqual(await run('MATCH ()-[r:LINKS]->() RETURN r.embedding'), [[[0, 1, 0]]]);
  });

  it('vector writes reject bad vectors and read transactions', async () => {
    await assert.rejects(run('MATCH (d:Doc {id: 1}) CALL db.create.setNodeVectorProperty(d, "e", ["x"])'), /not a finite number/);
    await assert.rejects(run('MATCH (d:Doc {id: 1}) CALL db.create.setNodeVectorProperty(d, "e", [])'), /non-empty/);
    await assert.rejects(run('MATCH (d:Doc {id: 1}) CALL db.create.setNodeVectorProperty(d, "e", [1.0])', {}, 'READ'), {
      code: 'Neo.ClientError.Transaction.ForbiddenDueToTransactionType',
    });
  });

  it('db.index.vector.createNodeIndex creates a VECTOR index queryable with a FLOAT neighbour count', async () => {
    await run("CALL db.index.vector.createNodeIndex('docs', 'Doc', 'embedding', $dims, 'cosine')", { dims: 3 });
    const shown = await run(
      "SHOW VECTOR INDEXES YIELD name, labelsOrTypes, properties, options WHERE name = 'docs' RETURN labelsOrTypes, properties, options",
    );
    const options = shown[0][2] as Map<string, Map<string, unknown>>;
    assert.deepEqual(shown[0].slice(0, 2), [['Doc'], ['embedding']]);
    assert.equal(options.get('indexConfig')!.get('vector.dimensions'), 3n);
    assert.equal(options.get('indexConfig')!.get('vector.similarity_function'), 'COSINE');
    // JavaScript drivers send every number as FLOAT: an integral one is accepted as INTEGER.
    const hits = await run("CALL db.index.vector.queryNodes('docs', $k, [1, 0, 0]) YIELD node, score RETURN node.id, score", { k: 1 });
    assert.deepEqual(hits, [[2n, 1]]);
    await assert.rejects(run("CALL db.index.vector.queryNodes('docs', $k, [1, 0, 0])", { k: 1.5 }), /expected INTEGER but was Float/);
    await assert.rejects(
      run("CALL db.index.vector.createNodeIndex('bad', 'Doc', 'x', 3, 'manhattan')"),
      /unsupported vector similarity function/,
    );
    await assert.rejects(run("CALL db.index.vector.createNodeIndex('bad', 'Doc', 'x', 0, 'cosine')"), /Invalid vector dimensions/);
  });

  it('full-text administration: create (node and relationship), list analyzers, drop', async () => {
    await run("CALL db.index.fulltext.createNodeIndex('titles', ['Doc'], ['title'], {analyzer: 'english-no-stop-words'})");
    await run("CALL db.index.fulltext.createRelationshipIndex('notes', ['LINKS'], ['note'])");
    const shown = await run(
      'SHOW FULLTEXT INDEXES YIELD name, entityType, labelsOrTypes, properties RETURN name, entityType, labelsOrTypes, properties ORDER BY name',
    );
    assert.deepEqual(shown, [
      ['notes', 'RELATIONSHIP', ['LINKS'], ['note']],
      ['titles', 'NODE', ['Doc'], ['title']],
    ]);
    const analyzers = await run('CALL db.index.fulltext.listAvailableAnalyzers() YIELD analyzer RETURN analyzer');
    assert.deepEqual(analyzers, [['english-no-stop-words']]);
    await assert.rejects(
      run("CALL db.index.fulltext.createNodeIndex('x', ['Doc'], ['title'], {analyzer: 'klingon'})"),
      /no such analyzer 'klingon'/,
    );
    await run('CALL db.index.fulltext.awaitEventuallyConsistentIndexRefresh()');
    await run("CALL db.index.fulltext.drop('titles')");
    await assert.rejects(run("CALL db.index.fulltext.drop('titles')"), { code: 'Neo.ClientError.Schema.IndexNotFound' });
    await assert.rejects(
      run("CALL db.index.fulltext.drop('docs')"),
      { code: 'Neo.ClientError.Schema.IndexNotFound' },
      'a vector index is not dropped by it',
    );
  });

  it('relationship FULLTEXT and VECTOR indexes: CREATE ... FOR ()-[r:T]-(), queryRelationships, kept current at commit', async () => {
    await run(
      "CREATE (a:P)-[:KNOWS {note: 'met at the river', v: [1.0, 0.0]}]->(b:P), (a)-[:KNOWS {note: 'city music', v: [0.0, 1.0]}]->(b)",
    );
    await run('CREATE FULLTEXT INDEX knows_notes FOR ()-[r:KNOWS]-() ON EACH [r.note]');
    await run(
      "CREATE VECTOR INDEX knows_v FOR ()-[r:KNOWS]-() ON (r.v) OPTIONS {indexConfig: {`vector.dimensions`: 2, `vector.similarity_function`: 'cosine'}}",
    );
    const text = await run(
      "CALL db.index.fulltext.queryRelationships('knows_notes', 'river') YIELD relationship, score RETURN relationship.note, type(relationship)",
    );
    assert.deepEqual(text, [['met at the river', 'KNOWS']]);
    const nearest = await run(
      "CALL db.index.vector.queryRelationships('knows_v', $k, [0.1, 0.9]) YIELD relationship, score RETURN relationship.note",
      { k: 1 },
    );
    assert.deepEqual(nearest, [['city music']]);
    await run("MATCH ()-[r:KNOWS {note: 'city music'}]->() SET r.note = 'river boat' ");
    await run("MATCH (a:P)-[r:KNOWS {note: 'met at the river'}]->() DELETE r");
    const after = await run(
      "CALL db.index.fulltext.queryRelationships('knows_notes', 'river') YIELD relationship RETURN relationship.note",
    );
    assert.deepEqual(after, [['river boat']]);
    await assert.rejects(run("CALL db.index.fulltext.queryNodes('knows_notes', 'river')"), {
      code: 'Neo.ClientError.Procedure.ProcedureCallFailed',
    });
    await assert.rejects(run("CALL db.index.vector.queryNodes('knows_v', 1, [1.0, 0.0])"), {
      code: 'Neo.ClientError.Procedure.ProcedureCallFailed',
    });
    const nodeHits = await run("CALL db.index.vector.queryNodes('docs', 3, [1, 0, 0]) YIELD node RETURN count(node)");
    assert.deepEqual(nodeHits, [[2n]], 'relationship ids never leak into node indexes');
  });

  it('dbms.showCurrentUser, dbms.info, dbms.listConfig', async () => {
    const [user] = await run('CALL dbms.showCurrentUser()');
    assert.deepEqual(user, [null, ['admin'], []]);
    const [info] = await run('CALL dbms.info() YIELD id, name, creationDate RETURN id, name, creationDate');
    assert.match(String(info[0]), /^[0-9a-f-]{36}$/);
    assert.equal(info[1], 'graphdb');
    assert.ok(!Number.isNaN(Date.parse(String(info[2]))));
    db.setSettingsSource(() => [
      {
        name: 'server.bolt_port',
        value: '7687',
        isDynamic: false,
        defaultValue: '7687',
        description: 'Bolt port',
        startupValue: '7687',
        isExplicitlySet: false,
        validValues: 'an integer',
        isDeprecated: false,
      },
      {
        name: 'server.http_port',
        value: '0',
        isDynamic: false,
        defaultValue: '7474',
        description: 'HTTP port',
        startupValue: '0',
        isExplicitlySet: true,
        validValues: 'an integer',
        isDeprecated: false,
      },
    ]);
    assert.deepEqual(await run("CALL dbms.listConfig('HTTP') YIELD name, value, explicitlySet RETURN name, value, explicitlySet"), [
      ['server.http_port', '0', true],
    ]);
    assert.equal((await run('CALL dbms.listConfig()')).length, 2);
  });

  it('db.clearQueryCaches, db.prepareForReplanning, db.resampleIndex, db.resampleOutdatedIndexes', async () => {
    await run('MATCH (n) RETURN count(n)');
    const [[message]] = (await run('CALL db.clearQueryCaches()')) as [[string]];
    assert.match(message, /^Query caches successfully cleared of \d+ queries\.$/);
    assert.deepEqual(
      await run('CALL db.clearQueryCaches()'),
      [['Query caches successfully cleared of 1 queries.']],
      'the previous CALL itself was cached',
    );
    await run('CALL db.prepareForReplanning()');
    await run("CALL db.resampleIndex('docs')");
    await assert.rejects(run("CALL db.resampleIndex('nope')"), { code: 'Neo.ClientError.Procedure.ProcedureCallFailed' });
    await run('CALL db.resampleOutdatedIndexes()');
  });

  it('db.createProperty, db.createLabel, db.createRelationshipType create tokens in write transactions only', async () => {
    await run("CALL db.createProperty('fresh_key')");
    assert.ok(
      ((await run('CALL db.propertyKeys() YIELD propertyKey RETURN collect(propertyKey)'))[0][0] as string[]).includes('fresh_key'),
    );
    const session = db.session();
    const tx = await session.beginTransaction();
    await (await tx.run("CALL db.createProperty('rolled_back_key')")).pull(-1);
    await tx.rollback();
    assert.ok(
      !((await run('CALL db.propertyKeys() YIELD propertyKey RETURN collect(propertyKey)'))[0][0] as string[]).includes('rolled_back_key'),
    );
    await run("CALL db.createLabel('Ghost') CALL db.createRelationshipType('HAUNTS')");
    await run("CALL db.createLabel('Ghost')");
    // As in Neo4j, db.labels() and db.relationshipTypes() list the tokens in use.
    assert.deepEqual(await run("CALL db.labels() YIELD label WHERE label = 'Ghost' RETURN label"), []);
    await run('CREATE (:Ghost)-[:HAUNTS]->(:Ghost)');
    assert.deepEqual(await run("CALL db.labels() YIELD label WHERE label = 'Ghost' RETURN label"), [['Ghost']]);
    assert.deepEqual(await run("CALL db.relationshipTypes() YIELD relationshipType WHERE relationshipType = 'HAUNTS' RETURN 1"), [[1n]]);
    await assert.rejects(run("CALL db.createLabel('Other')", {}, 'READ'), {
      code: 'Neo.ClientError.Transaction.ForbiddenDueToTransactionType',
    });
    const signature = await run("SHOW PROCEDURES YIELD name, signature, mode WHERE name = 'db.createLabel' RETURN signature, mode");
    assert.deepEqual(signature, [['db.createLabel(newLabel :: STRING) :: (VOID)', 'WRITE']]);
  });

  it('procedures Neo4j does not have here answer ProcedureNotFound', async () => {
    await assert.rejects(run('CALL dbms.cluster.overview()'), { code: 'Neo.ClientError.Procedure.ProcedureNotFound' });
  });
});
