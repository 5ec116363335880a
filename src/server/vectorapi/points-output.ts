/**
 * Points as the vector API returns them (`RetrievedPoint`, `ScoredPoint`), and the point
 * selectors of write requests (ids or a filter).
 */
import type { MessageInitShape } from '@bufbuild/protobuf';
import type {
  PointsSelector,
  RetrievedPointSchema,
  ScoredPointSchema,
  WithPayloadSelector,
  WithVectorsSelector,
} from '@qdrant/js-client-grpc';
import {
  ArgumentError,
  type CollectionSpec,
  type PointId,
  type StoredPoint,
  type PointPredicate,
  type ScoredPoint,
} from '../../engine/index.js';
import { payloadToProto, pointIdFromProto, pointIdToProto, vectorsToProto } from './convert.js';
import { compileFilter } from './filter.js';

/** What to include in returned points. */
export interface OutputOptions {
  readonly withPayload?: WithPayloadSelector;
  readonly withVectors?: WithVectorsSelector;
  /** Whether the payload is returned when `withPayload` is not given. */
  readonly payloadByDefault: boolean;
}

function pointFields(point: StoredPoint, spec: CollectionSpec, options: OutputOptions) {
  const vectors = vectorsToProto(point, spec, options.withVectors);
  return {
    id: pointIdToProto(point.id),
    payload: payloadToProto(point.payload, options.withPayload, options.payloadByDefault),
    ...(vectors === undefined ? {} : { vectors }),
  };
}

/** A stored point as a `RetrievedPoint`. */
export function retrievedPoint(
  point: StoredPoint,
  spec: CollectionSpec,
  options: OutputOptions,
): MessageInitShape<typeof RetrievedPointSchema> {
  return pointFields(point, spec, options);
}

/** A search hit as a `ScoredPoint`. */
export function scoredPoint(hit: ScoredPoint, spec: CollectionSpec, options: OutputOptions): MessageInitShape<typeof ScoredPointSchema> {
  return { ...pointFields(hit.point, spec, options), score: hit.score, version: 0n };
}

/** The points a write request selects: a list of ids or a filter predicate. */
export function pointsSelection(selector: PointsSelector | undefined): readonly PointId[] | PointPredicate {
  const options = selector?.pointsSelectorOneOf;
  if (options === undefined || options.case === undefined) throw new ArgumentError('Wrong input: points selector is required');
  if (options.case === 'points') return options.value.ids.map(pointIdFromProto);
  return compileFilter(options.value)!;
}

/** A non-negative integer request field. */
export function count(value: bigint | number | undefined, fallback: number, field: string): number {
  if (value === undefined) return fallback;
  const n = Number(value);
  if (!Number.isSafeInteger(n) || n < 0) throw new ArgumentError(`Wrong input: ${field} must be a non-negative integer`);
  return n;
}
