/**
 * Built-in procedures: catalog (`db.labels`, `db.relationshipTypes`, `db.propertyKeys`,
 * `db.indexes`, `db.constraints`, `db.schema.visualization`) and system (`dbms.components`,
 * `dbms.procedures`, `dbms.functions`). Column sets follow Neo4j 5's SHOW commands so
 * `SHOW INDEXES`, `SHOW CONSTRAINTS`, `SHOW PROCEDURES` and `SHOW FUNCTIONS` can be planned as
 * these procedures plus YIELD/WHERE.
 */
import type { ConstraintDefinition, GraphReader, IndexDefinition } from '../../storage/graph-store.js';
import { Node, Relationship, type CypherValue } from '../../values/types.js';
import { procedureSignature, type ProcedureDefinition, type ProcedureRegistry } from './registry.js';
import { introspectionProcedures } from './schema-introspection.js';
import { neo4jProcedures } from './neo4j-procedures.js';

/** Version string `dbms.components` reports. */
export const KERNEL_VERSION = '5.26.0';

const field = (name: string, type: string) => ({ name, type });

function indexRow(index: IndexDefinition, position: number): CypherValue[] {
  return [
    BigInt(position + 1),
    index.name,
    index.state,
    100,
    index.type,
    index.entityType,
    index.type === 'LOOKUP' ? null : [...index.labelsOrTypes],
    index.type === 'LOOKUP' ? null : [...index.properties],
    indexProvider(index),
    index.owningConstraint,
    null,
    null,
    index.options,
  ];
}

function indexProvider(index: IndexDefinition): string {
  switch (index.type) {
    case 'RANGE':
      return 'range-1.0';
    case 'TEXT':
      return 'text-2.0';
    case 'POINT':
      return 'point-1.0';
    case 'LOOKUP':
      return 'token-lookup-1.0';
    case 'FULLTEXT':
      return 'fulltext-1.0';
    case 'VECTOR':
      return 'vector-2.0';
  }
}

function constraintDescription(c: ConstraintDefinition): string {
  const node = c.entityType === 'NODE';
  const pattern = node ? `(e:${c.labelsOrTypes.join(':')})` : `()-[e:${c.labelsOrTypes.join('|')}]-()`;
  const props = c.properties.map((p) => `e.${p}`);
  const list = props.length === 1 ? props[0]! : `(${props.join(', ')})`;
  switch (c.type) {
    case 'UNIQUENESS':
    case 'RELATIONSHIP_UNIQUENESS':
      return `CONSTRAINT FOR ${pattern} REQUIRE ${list} IS UNIQUE`;
    case 'NODE_KEY':
    case 'RELATIONSHIP_KEY':
      return `CONSTRAINT FOR ${pattern} REQUIRE ${list} IS ${node ? 'NODE' : 'RELATIONSHIP'} KEY`;
    case 'NODE_PROPERTY_EXISTENCE':
    case 'RELATIONSHIP_PROPERTY_EXISTENCE':
      return `CONSTRAINT FOR ${pattern} REQUIRE ${list} IS NOT NULL`;
    case 'NODE_PROPERTY_TYPE':
    case 'RELATIONSHIP_PROPERTY_TYPE':
      return `CONSTRAINT FOR ${pattern} REQUIRE ${list} IS :: ${c.propertyType ?? 'ANY'}`;
  }
}

const INDEX_OUTPUTS = [
  field('id', 'INTEGER'),
  field('name', 'STRING'),
  field('state', 'STRING'),
  field('populationPercent', 'FLOAT'),
  field('type', 'STRING'),
  field('entityType', 'STRING'),
  field('labelsOrTypes', 'LIST<STRING>'),
  field('properties', 'LIST<STRING>'),
  field('indexProvider', 'STRING'),
  field('owningConstraint', 'STRING'),
  field('lastRead', 'ZONED DATETIME'),
  field('readCount', 'INTEGER'),
  field('options', 'MAP'),
];

const CONSTRAINT_OUTPUTS = [
  field('id', 'INTEGER'),
  field('name', 'STRING'),
  field('type', 'STRING'),
  field('entityType', 'STRING'),
  field('labelsOrTypes', 'LIST<STRING>'),
  field('properties', 'LIST<STRING>'),
  field('ownedIndex', 'STRING'),
  field('propertyType', 'STRING'),
  field('description', 'STRING'),
];

/** The built-in procedures. */
export const builtinProcedures: readonly ProcedureDefinition[] = [
  {
    name: 'db.labels',
    inputs: [],
    outputs: [field('label', 'STRING')],
    mode: 'READ',
    description: 'List all labels in the database.',
    call: (_args, ctx) => [...ctx.reader.labels()].sort().map((l) => [l]),
  },
  {
    name: 'db.relationshipTypes',
    inputs: [],
    outputs: [field('relationshipType', 'STRING')],
    mode: 'READ',
    description: 'List all relationship types in the database.',
    call: (_args, ctx) => [...ctx.reader.relationshipTypes()].sort().map((t) => [t]),
  },
  {
    name: 'db.propertyKeys',
    inputs: [],
    outputs: [field('propertyKey', 'STRING')],
    mode: 'READ',
    description: 'List all property keys in the database.',
    call: (_args, ctx) => [...ctx.reader.propertyKeys()].sort().map((k) => [k]),
  },
  {
    name: 'db.indexes',
    inputs: [],
    outputs: INDEX_OUTPUTS,
    mode: 'READ',
    description: 'List all indexes in the database (the rows of SHOW INDEXES).',
    call: (_args, ctx) => [...ctx.reader.indexes()].sort((a, b) => (a.name < b.name ? -1 : 1)).map(indexRow),
  },
  {
    name: 'db.constraints',
    inputs: [],
    outputs: CONSTRAINT_OUTPUTS,
    mode: 'READ',
    description: 'List all constraints in the database (the rows of SHOW CONSTRAINTS).',
    call: (_args, ctx) =>
      [...ctx.reader.constraints()]
        .sort((a, b) => (a.name < b.name ? -1 : 1))
        .map((c, i) => [
          BigInt(i + 1),
          c.name,
          c.type,
          c.entityType,
          [...c.labelsOrTypes],
          [...c.properties],
          c.type.includes('EXISTENCE') || c.type.includes('TYPE') ? null : c.name,
          c.propertyType,
          constraintDescription(c),
        ]),
  },
  {
    name: 'db.schema.visualization',
    inputs: [],
    outputs: [field('nodes', 'LIST<NODE>'), field('relationships', 'LIST<RELATIONSHIP>')],
    mode: 'READ',
    description:
      'Visualizes the schema of the data: one virtual node per label, one virtual relationship per observed (label)-[type]->(label).',
    call: (_args, ctx) => [schemaVisualization(ctx.reader)],
  },
  {
    name: 'dbms.components',
    inputs: [],
    outputs: [field('name', 'STRING'), field('versions', 'LIST<STRING>'), field('edition', 'STRING')],
    mode: 'DBMS',
    description: 'List DBMS components and their versions.',
    call: () => [['Neo4j Kernel', [KERNEL_VERSION], 'community']],
  },
  {
    name: 'dbms.procedures',
    inputs: [],
    outputs: [
      field('name', 'STRING'),
      field('description', 'STRING'),
      field('mode', 'STRING'),
      field('worksOnSystem', 'BOOLEAN'),
      field('signature', 'STRING'),
    ],
    mode: 'DBMS',
    description: 'List all procedures (the rows of SHOW PROCEDURES).',
    call: (_args, ctx) => ctx.procedures.list().map((p) => [p.name, p.description, p.mode, p.mode === 'DBMS', procedureSignature(p)]),
  },
  {
    name: 'dbms.functions',
    inputs: [],
    outputs: [
      field('name', 'STRING'),
      field('category', 'STRING'),
      field('description', 'STRING'),
      field('aggregating', 'BOOLEAN'),
      field('signature', 'STRING'),
      field('isBuiltIn', 'BOOLEAN'),
    ],
    mode: 'DBMS',
    description: 'List all functions (the rows of SHOW FUNCTIONS).',
    call: (_args, ctx) => ctx.functions.list().map((f) => [f.name, f.category, f.description, f.kind === 'aggregate', f.signature, true]),
  },
];

function schemaVisualization(reader: GraphReader): CypherValue[] {
  const labels = [...reader.labels()].sort();
  const nodeIds = new Map<string, bigint>();
  const nodes = labels.map((label, i) => {
    const id = BigInt(-(i + 1));
    nodeIds.set(label, id);
    const indexes = reader
      .indexes()
      .filter((x) => x.entityType === 'NODE' && x.labelsOrTypes.includes(label))
      .map((x) => x.properties.join(','));
    const constraints = reader
      .constraints()
      .filter((c) => c.entityType === 'NODE' && c.labelsOrTypes.includes(label))
      .map((c) => constraintDescription(c));
    const props = new Map<string, CypherValue>([
      ['name', label],
      ['indexes', indexes],
      ['constraints', constraints],
    ]);
    return new Node(id, `-${i + 1}`, [label], props);
  });
  const seen = new Set<string>();
  const relationships: Relationship[] = [];
  for (const rel of reader.allRelationships()) {
    for (const from of reader.nodeLabels(rel.startId) ?? []) {
      for (const to of reader.nodeLabels(rel.endId) ?? []) {
        const key = JSON.stringify([from, rel.type, to]);
        if (seen.has(key)) continue;
        seen.add(key);
        const id = BigInt(-(relationships.length + 1));
        const start = nodeIds.get(from)!;
        const end = nodeIds.get(to)!;
        relationships.push(new Relationship(id, `${id}`, rel.type, start, end, `${start}`, `${end}`, new Map([['name', rel.type]])));
      }
    }
  }
  return [nodes, relationships];
}

/** Registers the built-ins on `registry`. */
export function registerBuiltinProcedures(registry: ProcedureRegistry): void {
  for (const p of [...builtinProcedures, ...introspectionProcedures, ...neo4jProcedures()]) registry.register(p);
}
