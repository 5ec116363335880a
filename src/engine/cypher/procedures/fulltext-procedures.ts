/**
 * Neo4j's full-text index administration procedures: `db.index.fulltext.createNodeIndex`,
 * `createRelationshipIndex`, `drop`, `listAvailableAnalyzers` and
 * `awaitEventuallyConsistentIndexRefresh`. The indexes they create are the same catalog entries
 * as `CREATE FULLTEXT INDEX` makes; the search services populate them.
 */
import { ArgumentError, StatusCodes, graphError } from '../../errors/index.js';
import type { IndexDefinition } from '../../storage/graph-store.js';
import type { CypherValue } from '../../values/types.js';
import { requireProcedureWriter } from './procedure-writer.js';
import type { ProcedureDefinition } from './registry.js';
import { valueText } from '../../values/to-string.js';

/** The analyzers the full-text indexes implement (one: every index analyzes text this way). */
export const FULLTEXT_ANALYZERS: readonly { readonly name: string; readonly description: string }[] = [
  {
    name: 'english-no-stop-words',
    description: 'Word tokens of letters and digits, lower-cased and Porter-stemmed (English); no stop words are removed.',
  },
];

/** Index options of a full-text index as SHOW INDEXES reports them; rejects unknown analyzers. */
export function fulltextIndexOptions(config: ReadonlyMap<string, CypherValue> | null): Map<string, CypherValue> {
  const analyzer = config?.get('analyzer') ?? FULLTEXT_ANALYZERS[0]!.name;
  if (typeof analyzer !== 'string' || !FULLTEXT_ANALYZERS.some((a) => a.name === analyzer)) {
    throw new ArgumentError(
      `Could not create fulltext index: no such analyzer '${valueText(analyzer)}'. Available: ${FULLTEXT_ANALYZERS.map((a) => a.name).join(', ')}`,
    );
  }
  for (const key of config?.keys() ?? []) {
    if (key !== 'analyzer' && key !== 'eventually_consistent') throw new ArgumentError(`Invalid fulltext index config key '${key}'`);
  }
  const eventuallyConsistent = config?.get('eventually_consistent') ?? false;
  return new Map<string, CypherValue>([
    ['indexProvider', 'fulltext-1.0'],
    [
      'indexConfig',
      new Map<string, CypherValue>([
        ['fulltext.analyzer', analyzer],
        ['fulltext.eventually_consistent', eventuallyConsistent === true || eventuallyConsistent === 'true'],
      ]),
    ],
  ]);
}

function stringList(value: CypherValue, what: string): string[] {
  if (!Array.isArray(value) || value.length === 0 || !value.every((v: CypherValue) => typeof v === 'string' && v !== '')) {
    throw new ArgumentError(`Expected a non-empty list of ${what}`);
  }
  return value as string[];
}

function createProcedure(entityType: 'NODE' | 'RELATIONSHIP'): ProcedureDefinition {
  const tokens = entityType === 'NODE' ? 'labels' : 'relationshipTypes';
  return {
    name: entityType === 'NODE' ? 'db.index.fulltext.createNodeIndex' : 'db.index.fulltext.createRelationshipIndex',
    inputs: [
      { name: 'indexName', type: 'STRING' },
      { name: tokens, type: 'LIST<STRING>' },
      { name: 'properties', type: 'LIST<STRING>' },
      { name: 'config', type: 'MAP', default: new Map() },
    ],
    outputs: [],
    mode: 'SCHEMA',
    description: `Create a ${entityType === 'NODE' ? 'node' : 'relationship'} full-text index for the given ${entityType === 'NODE' ? 'labels' : 'relationship types'} and properties. The optional 'config' map parameter can be used to supply settings to the index: 'analyzer' (see db.index.fulltext.listAvailableAnalyzers) and 'eventually_consistent'. Deprecated: use CREATE FULLTEXT INDEX.`,
    call(args, ctx) {
      const [name, labels, properties, config] = args;
      if (typeof name !== 'string' || name === '') throw new ArgumentError('A full-text index needs a name');
      const definition: Omit<IndexDefinition, 'state' | 'owningConstraint'> = {
        name,
        type: 'FULLTEXT',
        entityType,
        labelsOrTypes: stringList(labels!, tokens),
        properties: stringList(properties!, 'property keys'),
        options: fulltextIndexOptions(config instanceof Map ? config : null),
      };
      requireProcedureWriter(ctx).createIndex(definition, false);
      return [];
    },
  };
}

/** The full-text administration procedures. */
export const fulltextAdminProcedures: readonly ProcedureDefinition[] = [
  createProcedure('NODE'),
  createProcedure('RELATIONSHIP'),
  {
    name: 'db.index.fulltext.drop',
    inputs: [{ name: 'indexName', type: 'STRING' }],
    outputs: [],
    mode: 'SCHEMA',
    description: 'Drop the specified index. Deprecated: use DROP INDEX.',
    call(args, ctx) {
      const name = args[0];
      const index = ctx.reader.indexes().find((i) => i.name === name);
      if (index === undefined || index.type !== 'FULLTEXT') {
        throw graphError(
          StatusCodes.IndexNotFound,
          `Unable to drop index called \`${valueText(name)}\`: there is no full-text index with that name.`,
        );
      }
      requireProcedureWriter(ctx).dropIndex(index.name, false);
      return [];
    },
  },
  {
    name: 'db.index.fulltext.listAvailableAnalyzers',
    inputs: [],
    outputs: [
      { name: 'analyzer', type: 'STRING' },
      { name: 'description', type: 'STRING' },
      { name: 'stopwords', type: 'LIST<STRING>' },
    ],
    mode: 'READ',
    description: 'List the available analyzers that the full-text indexes can be configured with.',
    call: () => FULLTEXT_ANALYZERS.map((a) => [a.name, a.description, []]),
  },
  {
    name: 'db.index.fulltext.awaitEventuallyConsistentIndexRefresh',
    inputs: [],
    outputs: [],
    mode: 'READ',
    description:
      'Wait for the updates from recently committed transactions to be applied to any eventually-consistent full-text indexes (graphdb applies them at commit, so there is never anything to wait for).',
    call: () => [],
  },
];
