/**
 * The VECTOR functions of Cypher 25: `vector()`, `vector_dimension_count()`, `vector_distance()`
 * and `vector_norm()`. The parser passes the coordinate type and metric keywords as their
 * canonical names (string literals); see values/vector.ts for the semantics.
 */
import {
  makeVector,
  vectorCoordinateType,
  vectorDistance,
  vectorNorm,
  VECTOR_DISTANCE_METRICS,
  VECTOR_NORM_METRICS,
  type VectorDistanceMetric,
  type VectorNormMetric,
} from '../../values/vector.js';
import { CypherVector, type CypherValue } from '../../values/types.js';
import { badArgument, scalar, wrongType } from './define.js';
import type { ScalarFunction } from './registry.js';

function asVector(fn: string, v: CypherValue): CypherVector {
  if (v instanceof CypherVector) return v;
  throw wrongType(fn, v, 'Vector');
}

function keyword(fn: string, v: CypherValue, allowed: ReadonlySet<string>): string {
  const word = typeof v === 'string' ? v.toUpperCase() : '';
  if (!allowed.has(word)) throw badArgument(`Invalid input for function '${fn}()': expected one of ${[...allowed].join(', ')}`);
  return word;
}

/** The vector functions. */
export const vectorFunctions: readonly ScalarFunction[] = [
  scalar(
    'vector',
    {
      min: 3,
      nullIn: false,
      category: 'Vector',
      description: 'Constructs a VECTOR value.',
      signature:
        'vector(vectorValue :: STRING | LIST<INTEGER | FLOAT>, dimension :: INTEGER, coordinateType :: [INTEGER64, INTEGER32, INTEGER16, INTEGER8, FLOAT64, FLOAT32]) :: VECTOR',
    },
    ([value, dimension, type]) => {
      if (type === null || type === undefined) return null;
      const coordinateType = typeof type === 'string' ? vectorCoordinateType(type) : undefined;
      if (coordinateType === undefined) throw badArgument("Invalid input for function 'vector()': unknown coordinate type");
      return makeVector(value!, dimension!, coordinateType);
    },
  ),
  scalar(
    'vector_dimension_count',
    {
      category: 'Vector',
      description: 'Returns the dimension of a VECTOR.',
      signature: 'vector_dimension_count(vector :: VECTOR) :: INTEGER',
      argumentTypes: [['Vector']],
    },
    ([v]) => BigInt(asVector('vector_dimension_count', v!).dimension),
  ),
  scalar(
    'vector_distance',
    {
      min: 3,
      category: 'Vector',
      description: 'Returns a FLOAT representing the distance between two vectors under the given metric.',
      signature:
        'vector_distance(vector1 :: VECTOR, vector2 :: VECTOR, vectorDistanceMetric :: [EUCLIDEAN, EUCLIDEAN_SQUARED, MANHATTAN, COSINE, DOT, HAMMING]) :: FLOAT',
    },
    ([a, b, metric]) =>
      vectorDistance(
        asVector('vector_distance', a!),
        asVector('vector_distance', b!),
        keyword('vector_distance', metric!, VECTOR_DISTANCE_METRICS) as VectorDistanceMetric,
      ),
  ),
  scalar(
    'vector_norm',
    {
      min: 2,
      category: 'Vector',
      description: 'Returns a FLOAT representing the distance between the given vector and the origin under the given metric.',
      signature: 'vector_norm(vector :: VECTOR, vectorDistanceMetric :: [EUCLIDEAN, MANHATTAN]) :: FLOAT',
    },
    ([v, metric]) => vectorNorm(asVector('vector_norm', v!), keyword('vector_norm', metric!, VECTOR_NORM_METRICS) as VectorNormMetric),
  ),
];
