import { describe, it } from 'node:test';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ImportFiles } from '../../src/engine/files/import-files.js';
import assert from 'node:assert/strict';
import { CypherSyntaxError, CypherTypeError } from '../../src/engine/errors/index.js';
import { builtinFunctions } from '../../src/engine/cypher/functions/index.js';
import {
  createProcedureRegistry,
  parseProcedureSignature,
  prepareArguments,
  procedureSignature,
  tableProcedure,
  type ProcedureContext,
} from '../../src/engine/cypher/procedures/index.js';
import type { GraphReader, IndexDefinition, ConstraintDefinition } from '../../src/engine/storage/graph-store.js';
import { Node, Relationship, type CypherValue } from '../../src/engine/values/index.js';
import { fakeAccessor } from './helpers.js';

const indexes: IndexDefinition[] = [
  {
    name: 'person_name',
    type: 'RANGE',
    entityType: 'NODE',
    labelsOrTypes: ['Person'],
    properties: ['name'],
    owningConstraint: null,
    options: new Map(),
    state: 'ONLINE',
  },
];
const constraints: ConstraintDefinition[] = [
  { name: 'person_id', type: 'UNIQUENESS', entityType: 'NODE', labelsOrTypes: ['Person'], properties: ['id'], propertyType: null },
];

/** Only the catalog methods the built-ins use; anything else fails loudly. */
const reader = new Proxy(
  {
    labels: () => ['Person', 'City'],
    relationshipTypes: () => ['LIVES_IN'],
    propertyKeys: () => ['name', 'id'],
    indexes: () => indexes,
    constraints: () => constraints,
    allRelationships: () => [{ id: 1n, type: 'LIVES_IN', startId: 1n, endId: 2n }],
    nodeLabels: (id: bigint) => (id === 1n ? ['Person'] : ['City']),
    allNodeIds: () => [1n, 2n, 3n],
    getNode: (id: bigint) =>
      id === 2n
        ? { id, labels: ['City'], properties: new Map([['name', 'Malmö']]) }
        : {
            id,
            labels: ['Person'],
            properties: new Map<string, CypherValue>(
              id === 1n
                ? [
                    ['name', 'Ann'],
                    ['age', 3n],
                  ]
                : [
                    ['name', 'Bo'],
                    ['tags', ['x']],
                  ],
            ),
          },
    getRelationship: (id: bigint) => ({ id, type: 'LIVES_IN', startId: 1n, endId: 2n, properties: new Map([['since', 2020n]]) }),
    nodeElementId: (id: bigint) => `4:db-uuid:${id}`,
  },
  {
    get(target, key) {
      if (key in target) return target[key as keyof typeof target];
      throw new Error(`unexpected reader call ${String(key)}`);
    },
  },
) as unknown as GraphReader;

const registry = createProcedureRegistry();
const ctx: ProcedureContext = {
  reader,
  accessor: fakeAccessor({ nodes: new Map(), rels: new Map() }),
  functions: builtinFunctions,
  procedures: registry,
  databaseName: 'neo4j',
  files: new ImportFiles({ importDir: mkdtempSync(join(tmpdir(), 'graphdb-import-')), allowFileUrls: true, urlAllowlist: [] }),
  checkAlive: () => undefined,
};
const run = (name: string, args: CypherValue[] = []) => {
  const def = registry.lookup(name)!;
  return [...def.call(prepareArguments(def, args), ctx)].filter((row): row is readonly CypherValue[] => typeof row !== 'symbol');
};

describe('built-in procedures', () => {
  it('list the catalog', () => {
    assert.deepEqual(run('db.labels'), [['City'], ['Person']]);
    assert.deepEqual(run('db.relationshipTypes'), [['LIVES_IN']]);
    assert.deepEqual(run('db.propertyKeys'), [['id'], ['name']]);
    const [index] = run('db.indexes');
    assert.deepEqual(index.slice(1, 8), ['person_name', 'ONLINE', 100, 'RANGE', 'NODE', ['Person'], ['name']]);
    const [constraint] = run('db.constraints');
    assert.equal(constraint[8], 'CONSTRAINT FOR (e:Person) REQUIRE e.id IS UNIQUE');
  });

  it('visualizes the schema with virtual nodes and relationships', () => {
    const [[nodes, rels]] = run('db.schema.visualization') as [[Node[], Relationship[]]];
    assert.deepEqual(
      nodes.map((n) => n.labels[0]),
      ['City', 'Person'],
    );
    assert.equal(rels.length, 1);
    assert.equal(rels[0].type, 'LIVES_IN');
    assert.equal(rels[0].startId, nodes[1].id);
  });

  it('describe the system', () => {
    assert.equal(run('dbms.components')[0][0], 'Neo4j Kernel');
    const procedures = run('dbms.procedures').map((r) => r[0]);
    assert.ok(procedures.includes('db.labels') && procedures.includes('dbms.functions'));
    const functions = run('dbms.functions');
    assert.ok(functions.some((r) => r[0] === 'collect' && r[3] === true));
    assert.ok(functions.some((r) => r[0] === 'date.truncate' && r[3] === false));
  });
});

describe('introspection procedures', () => {
  it('answer ping, info and awaitIndexes', () => {
    assert.deepEqual(run('db.ping'), [[true]]);
    assert.deepEqual(run('db.info'), [['db-uuid', 'neo4j', null]]);
    assert.deepEqual(run('db.awaitIndexes'), []);
    assert.deepEqual(run('db.awaitIndex', ['person_name']), []);
    assert.throws(() => run('db.awaitIndex', ['nope']));
  });

  it('describe property types per label set and relationship type', () => {
    assert.deepEqual(run('db.schema.nodeTypeProperties'), [
      [':`City`', ['City'], 'name', ['String'], true],
      [':`Person`', ['Person'], 'age', ['Long'], false],
      [':`Person`', ['Person'], 'name', ['String'], true],
      [':`Person`', ['Person'], 'tags', ['StringArray'], false],
    ]);
    assert.deepEqual(run('db.schema.relTypeProperties'), [[':`LIVES_IN`', 'since', ['Long'], true]]);
  });
});

describe('registering procedures at run time', () => {
  it('parses TCK signatures and answers from a table', () => {
    const sig = parseProcedureSignature('test.my.proc(name :: STRING?, id :: INTEGER?) :: (city :: STRING?, country_code :: INTEGER?):');
    assert.equal(sig.name, 'test.my.proc');
    assert.deepEqual(
      sig.inputs.map((f) => f.type),
      ['STRING?', 'INTEGER?'],
    );
    const def = tableProcedure(
      sig,
      ['name', 'id', 'city', 'country_code'],
      [
        ['Andres', 1n, 'Malmö', 46n],
        ['Tobias', 1n, 'Malmö', 46n],
        ['Andres', 2n, 'London', 44n],
      ],
    );
    registry.register(def);
    assert.deepEqual(run('test.my.proc', ['Andres', 1n]), [['Malmö', 46n]]);
    const nullable = tableProcedure(
      parseProcedureSignature('test.n(in :: INTEGER?) :: (out :: STRING?)'),
      ['in', 'out'],
      [
        [null, 'nix'],
        [1n, 'one'],
      ],
    );
    assert.deepEqual([...nullable.call([null], ctx)], [['nix']]);
    assert.equal(procedureSignature(def), 'test.my.proc(name :: STRING?, id :: INTEGER?) :: (city :: STRING?, country_code :: INTEGER?)');
    assert.ok(registry.unregister('test.my.proc'));
    assert.equal(registry.lookup('test.my.proc'), undefined);
  });

  it('checks arity and argument types, converting INTEGER to FLOAT', () => {
    const def = tableProcedure(parseProcedureSignature('test.f(x :: FLOAT?) :: (y :: FLOAT?)'), ['x', 'y'], [[1.0, 2.0]]);
    assert.deepEqual(prepareArguments(def, [1n]), [1]);
    assert.throws(
      () => prepareArguments(def, []),
      (e: unknown) => e instanceof CypherSyntaxError && e.detail === 'InvalidNumberOfArguments',
    );
    assert.throws(
      () => prepareArguments(def, ['x']),
      (e: unknown) => e instanceof CypherTypeError && e.detail === 'InvalidArgumentType',
    );
    const voidProc = parseProcedureSignature('test.doNothing() :: ()');
    assert.deepEqual(voidProc.outputs, []);
  });
});
