/**
 * Cypher functions of memory decay: `decayScore(n)` (the score in [0, 1] at the decay clock's
 * now) and `decayProfile(n)` (the half-life profile the node falls under). Both read the node's
 * labels and its `created_at`, `last_accessed`, `access_count`, `importance` and `no_decay`
 * properties; timestamps may be DATETIME, LOCAL DATETIME, epoch milliseconds or ISO strings.
 */
import { CypherTypeError } from '../errors/index.js';
import { scalar } from '../cypher/functions/define.js';
import type { ScalarFunction } from '../cypher/functions/registry.js';
import { CypherDateTime, LocalDateTime, Node, NodeRef, type CypherValue, type EntityAccessor } from '../values/types.js';
import type { DecayInputs, DecayModel } from './decay-model.js';

/** Epoch milliseconds of a stored timestamp, or null. */
export function timestampMillis(value: CypherValue | undefined): number | null {
  if (value instanceof CypherDateTime || value instanceof LocalDateTime)
    return Number(value.epochSecond) * 1000 + Math.floor(value.nano / 1e6);
  if (typeof value === 'bigint') return Number(value);
  if (typeof value === 'number' && Number.isFinite(value)) return value;
  if (typeof value === 'string') {
    const parsed = Date.parse(value);
    return Number.isNaN(parsed) ? null : parsed;
  }
  return null;
}

function numberOf(value: CypherValue | undefined): number | null {
  if (typeof value === 'bigint') return Number(value);
  if (typeof value === 'number' && Number.isFinite(value)) return value;
  return null;
}

/** The decay inputs of a node as a function argument sees it. */
export function decayInputsOf(value: CypherValue, accessor: EntityAccessor, name: string): DecayInputs {
  let labels: readonly string[];
  let property: (key: string) => CypherValue | undefined;
  if (value instanceof Node) {
    labels = value.labels;
    property = (key) => value.properties.get(key);
  } else if (value instanceof NodeRef) {
    labels = accessor.nodeLabels(value.id) ?? [];
    property = (key) => accessor.nodeProperty(value.id, key);
  } else {
    throw new CypherTypeError(`Type mismatch: ${name}() expected a node`);
  }
  return {
    labels,
    createdAt: timestampMillis(property('created_at')),
    lastAccessedAt: timestampMillis(property('last_accessed')),
    accessCount: numberOf(property('access_count')) ?? 0,
    importance: numberOf(property('importance')),
    noDecay: property('no_decay') === true,
  };
}

/** `decayScore(n)` and `decayProfile(n)` over `model`, reading time from `now`. */
export function decayFunctions(model: () => DecayModel, now: () => number): ScalarFunction[] {
  return [
    scalar(
      'decayScore',
      {
        category: 'Scalar',
        description: 'The memory decay score of a node in [0, 1], from recency (per-label half-life), access frequency and importance.',
        signature: 'decayScore(node :: NODE) :: FLOAT',
        deterministic: false,
        argumentTypes: [['Node']],
      },
      ([node = null], ctx) => model().score(decayInputsOf(node, ctx.accessor, 'decayScore'), now()).score,
    ),
    scalar(
      'decayProfile',
      {
        category: 'Scalar',
        description: 'The half-life profile (episodic, semantic, procedural, user-defined or default) a node decays by.',
        signature: 'decayProfile(node :: NODE) :: STRING',
        argumentTypes: [['Node']],
      },
      ([node = null], ctx) => model().profileOf(decayInputsOf(node, ctx.accessor, 'decayProfile').labels).name,
    ),
  ];
}
