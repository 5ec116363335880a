/**
 * The nearest-neighbour calls of the Points service: Search, Recommend and Query. Recommend (and
 * Query's `recommend`) uses Qdrant's `average_vector` strategy: the query is the mean of the
 * positive examples, moved away from the mean of the negative ones
 * (`2 * mean(positive) - mean(negative)`); examples given by id are left out of the results.
 * Query's `nearest` takes a dense vector or a point id (left out too); a Query without a query
 * lists points in id order with score 0.
 */
import type { MessageInitShape } from '@bufbuild/protobuf';
import {
  RecommendStrategy,
  type QueryPoints,
  type RecommendPoints,
  type ScoredPointSchema,
  type SearchPoints,
  type Vector,
  type VectorInput,
} from '@qdrant/js-client-grpc';
import {
  ArgumentError,
  comparePointIds,
  pointIdKey,
  type PointCollections,
  type PointPredicate,
  type PointId,
} from '../../engine/index.js';
import { pointIdFromProto } from './convert.js';
import { compileFilter } from './filter.js';
import { count, scoredPoint, type OutputOptions } from './points-output.js';

type Scored = MessageInitShape<typeof ScoredPointSchema>;

/** One example: a stored point's id, or a vector. */
type Example = { readonly id: PointId } | { readonly vector: readonly number[] };

/** The vector a search starts from, and the example points to leave out. */
interface QueryVector {
  readonly vector: readonly number[];
  readonly exclude: readonly PointId[];
}

/** Common knobs of Search, Recommend and Query. */
interface SearchKnobs {
  readonly using: string;
  readonly limit: number;
  readonly offset: number;
  readonly filter: PointPredicate | undefined;
  readonly scoreThreshold: number | undefined;
  readonly exact: boolean;
  readonly output: OutputOptions;
}

async function exampleVectors(
  collections: PointCollections,
  name: string,
  using: string,
  examples: readonly Example[],
): Promise<number[][]> {
  const ids = examples.flatMap((example) => ('id' in example ? [example.id] : []));
  const stored = new Map((ids.length === 0 ? [] : await collections.retrieve(name, ids)).map((point) => [pointIdKey(point.id), point]));
  return examples.map((example) => {
    if ('vector' in example) return [...example.vector];
    const vector = stored.get(pointIdKey(example.id))?.vectors.get(using);
    if (vector === undefined) {
      throw new ArgumentError(`Wrong input: point ${String(example.id)} not found or has no vector ${using === '' ? '(unnamed)' : using}`);
    }
    return [...vector];
  });
}

function mean(vectors: readonly number[][]): number[] {
  const out = new Array<number>(vectors[0]!.length).fill(0);
  for (const vector of vectors) {
    if (vector.length !== out.length) throw new ArgumentError('Wrong input: example vectors differ in dimension');
    vector.forEach((x, i) => (out[i]! += x / vectors.length));
  }
  return out;
}

/** The `average_vector` recommendation query. */
async function recommendation(
  collections: PointCollections,
  name: string,
  using: string,
  positive: readonly Example[],
  negative: readonly Example[],
  strategy: RecommendStrategy | undefined,
): Promise<QueryVector> {
  if (strategy !== undefined && strategy !== RecommendStrategy.AverageVector) {
    throw new ArgumentError('Wrong input: only the average_vector recommendation strategy is supported by this server');
  }
  if (positive.length === 0) throw new ArgumentError('Wrong input: at least one positive example is required');
  const positiveMean = mean(await exampleVectors(collections, name, using, positive));
  let vector = positiveMean;
  if (negative.length > 0) {
    const negativeMean = mean(await exampleVectors(collections, name, using, negative));
    vector = positiveMean.map((x, i) => 2 * x - negativeMean[i]!);
  }
  return { vector, exclude: [...positive, ...negative].flatMap((example) => ('id' in example ? [example.id] : [])) };
}

/** Runs a search from `query` with the knobs, leaving out the excluded points. */
async function nearest(collections: PointCollections, name: string, query: QueryVector, knobs: SearchKnobs): Promise<Scored[]> {
  const spec = await collections.spec(name);
  const excluded = new Set(query.exclude.map(pointIdKey));
  const filter = knobs.filter;
  const predicate: PointPredicate | undefined =
    excluded.size === 0 ? filter : (point) => !excluded.has(pointIdKey(point.id)) && (filter?.(point) ?? true);
  const hits = await collections.search(name, {
    vectorName: knobs.using,
    vector: query.vector,
    limit: knobs.limit,
    offset: knobs.offset,
    filter: predicate,
    scoreThreshold: knobs.scoreThreshold,
    exact: knobs.exact,
  });
  return hits.map((hit) => scoredPoint(hit, spec, knobs.output));
}

function knobsOf(request: SearchPoints | RecommendPoints | QueryPoints, using: string): SearchKnobs {
  return {
    using,
    limit: count(request.limit, 10, 'limit'),
    offset: count(request.offset, 0, 'offset'),
    filter: compileFilter(request.filter),
    scoreThreshold: request.scoreThreshold,
    exact: request.params?.exact ?? false,
    output: { withPayload: request.withPayload, withVectors: request.withVectors, payloadByDefault: false },
  };
}

function denseInput(vector: Vector): number[] {
  if (vector.vector.case === 'dense') return vector.vector.value.data;
  if (vector.vector.case === undefined && vector.indices === undefined) return vector.data;
  throw new ArgumentError('Wrong input: only dense example vectors are supported');
}

function exampleOf(input: VectorInput): Example {
  const variant = input.variant;
  if (variant.case === 'id') return { id: pointIdFromProto(variant.value) };
  if (variant.case === 'dense') return { vector: variant.value.data };
  throw new ArgumentError('Wrong input: only dense vectors and point ids are supported as query inputs');
}

/** Search. */
export async function searchCall(collections: PointCollections, name: string, request: SearchPoints): Promise<Scored[]> {
  return nearest(collections, name, { vector: request.vector, exclude: [] }, knobsOf(request, request.vectorName ?? ''));
}

/** Recommend. */
export async function recommendCall(collections: PointCollections, name: string, request: RecommendPoints): Promise<Scored[]> {
  if (request.lookupFrom !== undefined) throw new ArgumentError('Wrong input: lookup_from is not supported by this server');
  const using = request.using ?? '';
  const positive: Example[] = [
    ...request.positive.map((id) => ({ id: pointIdFromProto(id) })),
    ...request.positiveVectors.map((v) => ({ vector: denseInput(v) })),
  ];
  const negative: Example[] = [
    ...request.negative.map((id) => ({ id: pointIdFromProto(id) })),
    ...request.negativeVectors.map((v) => ({ vector: denseInput(v) })),
  ];
  const query = await recommendation(collections, name, using, positive, negative, request.strategy);
  return nearest(collections, name, query, knobsOf(request, using));
}

/** Query: nearest, recommend, or no query (id order). */
export async function queryCall(collections: PointCollections, name: string, request: QueryPoints): Promise<Scored[]> {
  if (request.prefetch.length > 0) throw new ArgumentError('Wrong input: prefetch is not supported by this server');
  if (request.lookupFrom !== undefined) throw new ArgumentError('Wrong input: lookup_from is not supported by this server');
  const using = request.using ?? '';
  const knobs = knobsOf(request, using);
  const variant = request.query?.variant;
  if (variant === undefined || variant.case === undefined) {
    const spec = await collections.spec(name);
    const points = (await collections.scan(name, knobs.filter)).sort((a, b) => comparePointIds(a.id, b.id));
    return points.slice(knobs.offset, knobs.offset + knobs.limit).map((point) => scoredPoint({ point, score: 0 }, spec, knobs.output));
  }
  if (variant.case === 'nearest') {
    const example = exampleOf(variant.value);
    if ('vector' in example) return nearest(collections, name, { vector: example.vector, exclude: [] }, knobs);
    const [vector] = await exampleVectors(collections, name, using, [example]);
    return nearest(collections, name, { vector: vector!, exclude: [example.id] }, knobs);
  }
  if (variant.case === 'recommend') {
    const { positive, negative, strategy } = variant.value;
    const query = await recommendation(collections, name, using, positive.map(exampleOf), negative.map(exampleOf), strategy);
    return nearest(collections, name, query, knobs);
  }
  throw new ArgumentError(`Wrong input: query '${variant.case}' is not supported by this server`);
}
