/**
 * Neo4j 5's vector procedures that write: `db.create.setNodeVectorProperty`,
 * `db.create.setRelationshipVectorProperty`, the deprecated `db.create.setVectorProperty`
 * (yields the node), and `db.index.vector.createNodeIndex`. Vectors are stored as LIST<FLOAT>
 * rounded to 32-bit floats, as Neo4j stores them; the search services index them on commit.
 */
import { ArgumentError } from '../../errors/index.js';
import type { IndexDefinition } from '../../storage/graph-store.js';
import { isNode, isRelationship } from '../../values/kinds.js';
import { CypherVector, type CypherValue } from '../../values/types.js';
import { requireProcedureWriter } from './procedure-writer.js';
import type { ProcedureDefinition } from './registry.js';
import { valueText } from '../../values/to-string.js';

/** Largest dimension count Neo4j 5 vector indexes accept. */
export const MAX_VECTOR_DIMENSIONS = 4096;

const SIMILARITY_FUNCTIONS = ['COSINE', 'EUCLIDEAN'];

/** A vector argument as Neo4j checks it: a non-empty list of finite numbers, as 32-bit floats. */
export function vectorArgument(value: CypherValue, procedure: string): number[] {
  if (value instanceof CypherVector) return value.toNumbers().map((n) => Math.fround(n));
  if (!Array.isArray(value) || value.length === 0) {
    throw new ArgumentError(
      `Invalid vector for ${procedure}: expected a non-empty LIST<FLOAT>, got ${value === null ? 'null' : typeof value}`,
    );
  }
  return value.map((item: CypherValue, index: number) => {
    const n = typeof item === 'number' ? item : typeof item === 'bigint' ? Number(item) : Number.NaN;
    const single = Math.fround(n);
    if (!Number.isFinite(single)) throw new ArgumentError(`Invalid vector for ${procedure}: element ${index} is not a finite number`);
    return single;
  });
}

function entityId(value: CypherValue, kind: 'node' | 'relationship'): bigint {
  if (kind === 'node' && isNode(value)) return value.id;
  if (kind === 'relationship' && isRelationship(value)) return value.id;
  throw new ArgumentError(`Expected a ${kind}, got null`);
}

function keyArgument(value: CypherValue): string {
  if (typeof value !== 'string' || value === '') throw new ArgumentError('The property key must be a non-empty STRING');
  return value;
}

/** `indexConfig` of a vector index as SHOW INDEXES reports it. */
export function vectorIndexOptions(dimensions: bigint, similarity: string): Map<string, CypherValue> {
  return new Map<string, CypherValue>([
    ['indexProvider', 'vector-2.0'],
    [
      'indexConfig',
      new Map<string, CypherValue>([
        ['vector.dimensions', dimensions],
        ['vector.similarity_function', similarity],
      ]),
    ],
  ]);
}

function similarityArgument(value: CypherValue): string {
  const text = typeof value === 'string' ? value.toUpperCase() : '';
  if (!SIMILARITY_FUNCTIONS.includes(text)) {
    throw new ArgumentError(
      `'${valueText(value)}' is an unsupported vector similarity function. Supported: ${SIMILARITY_FUNCTIONS.join(', ')}`,
    );
  }
  return text;
}

function dimensionsArgument(value: CypherValue): bigint {
  if (typeof value !== 'bigint' || value < 1n || value > BigInt(MAX_VECTOR_DIMENSIONS)) {
    throw new ArgumentError(
      `Invalid vector dimensions: ${valueText(value)}. The dimensions must be between 1 and ${MAX_VECTOR_DIMENSIONS}`,
    );
  }
  return value;
}

const VECTOR_INPUTS = [
  { name: 'key', type: 'STRING' },
  { name: 'vector', type: 'ANY' },
];

/** The vector procedures that write. */
export function vectorWriteProcedures(): ProcedureDefinition[] {
  return [
    {
      name: 'db.create.setNodeVectorProperty',
      inputs: [{ name: 'node', type: 'NODE' }, ...VECTOR_INPUTS],
      outputs: [],
      mode: 'WRITE',
      description: "Set a vector property on a given node in a more space efficient representation than Cypher's SET.",
      call(args, ctx) {
        const writer = requireProcedureWriter(ctx);
        writer.setNodeProperty(
          entityId(args[0]!, 'node'),
          keyArgument(args[1]!),
          vectorArgument(args[2]!, 'db.create.setNodeVectorProperty'),
        );
        return [];
      },
    },
    {
      name: 'db.create.setRelationshipVectorProperty',
      inputs: [{ name: 'relationship', type: 'RELATIONSHIP' }, ...VECTOR_INPUTS],
      outputs: [],
      mode: 'WRITE',
      description: "Set a vector property on a given relationship in a more space efficient representation than Cypher's SET.",
      call(args, ctx) {
        const writer = requireProcedureWriter(ctx);
        writer.setRelationshipProperty(
          entityId(args[0]!, 'relationship'),
          keyArgument(args[1]!),
          vectorArgument(args[2]!, 'db.create.setRelationshipVectorProperty'),
        );
        return [];
      },
    },
    {
      name: 'db.create.setVectorProperty',
      inputs: [{ name: 'node', type: 'NODE' }, ...VECTOR_INPUTS],
      outputs: [{ name: 'node', type: 'NODE' }],
      mode: 'WRITE',
      description:
        "Set a vector property on a given node in a more space efficient representation than Cypher's SET. Deprecated: use db.create.setNodeVectorProperty.",
      call(args, ctx) {
        const writer = requireProcedureWriter(ctx);
        writer.setNodeProperty(entityId(args[0]!, 'node'), keyArgument(args[1]!), vectorArgument(args[2]!, 'db.create.setVectorProperty'));
        return [[args[0]!]];
      },
    },
    {
      name: 'db.index.vector.createNodeIndex',
      inputs: [
        { name: 'indexName', type: 'STRING' },
        { name: 'label', type: 'STRING' },
        { name: 'propertyKey', type: 'STRING' },
        { name: 'vectorDimension', type: 'INTEGER' },
        { name: 'vectorSimilarityFunction', type: 'STRING' },
      ],
      outputs: [],
      mode: 'SCHEMA',
      description:
        'Create a named node vector index for the specified label and property with the given vector dimensionality using either the EUCLIDEAN or COSINE similarity function. Both similarity functions are case-insensitive. Use the `db.index.vector.queryNodes` procedure to query the named index. Deprecated: use CREATE VECTOR INDEX.',
      call(args, ctx) {
        const [name, label, property] = args as [CypherValue, CypherValue, CypherValue];
        if (typeof name !== 'string' || typeof label !== 'string' || typeof property !== 'string') {
          throw new ArgumentError('db.index.vector.createNodeIndex needs an index name, a label and a property key');
        }
        const definition: Omit<IndexDefinition, 'state' | 'owningConstraint'> = {
          name,
          type: 'VECTOR',
          entityType: 'NODE',
          labelsOrTypes: [label],
          properties: [property],
          options: vectorIndexOptions(dimensionsArgument(args[3]!), similarityArgument(args[4]!)),
        };
        requireProcedureWriter(ctx).createIndex(definition, false);
        return [];
      },
    },
  ];
}
