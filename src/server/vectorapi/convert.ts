/**
 * Conversions between Qdrant's protobuf messages and the engine's collection model
 * (`src/engine/search/collections-codec.ts`): point ids, payload values (`qdrant.Value`: integers
 * stay integers, doubles stay doubles), input and output vectors, payload/vector selectors and
 * collection vector configurations. Input that cannot be represented raises ArgumentError.
 */
import type { MessageInitShape } from '@bufbuild/protobuf';
import {
  Distance as ProtoDistance,
  FieldType,
  NullValue,
  PayloadSchemaType,
  type PointId as ProtoPointId,
  type PointIdSchema,
  type Value,
  type ValueSchema,
  type Vector,
  type Vectors,
  type VectorsConfig,
  type VectorsConfigSchema,
  type VectorsOutputSchema,
  type VectorParams,
  type WithPayloadSelector,
  type WithVectorsSelector,
} from '@qdrant/js-client-grpc';
import {
  ArgumentError,
  canonicalPointId,
  type CollectionSpec,
  type Distance,
  type Payload,
  type PayloadIndexType,
  type PayloadObject,
  type PayloadValue,
  type PointId,
  type StoredPoint,
  type VectorSpec,
} from '../../engine/index.js';

/** A point id from the wire (validated, UUIDs canonical). */
export function pointIdFromProto(id: ProtoPointId | undefined): PointId {
  const options = id?.pointIdOptions;
  if (options === undefined || options.case === undefined) throw new ArgumentError('Wrong input: point id is missing');
  return canonicalPointId(options.value);
}

/** A point id for the wire. */
export function pointIdToProto(id: PointId): MessageInitShape<typeof PointIdSchema> {
  return { pointIdOptions: typeof id === 'bigint' ? { case: 'num', value: id } : { case: 'uuid', value: id } };
}

/** A payload value from the wire. */
export function valueFromProto(value: Value): PayloadValue {
  const kind = value.kind;
  switch (kind.case) {
    case 'nullValue':
    case undefined:
      return null;
    case 'doubleValue':
    case 'integerValue':
    case 'stringValue':
    case 'boolValue':
      return kind.value;
    case 'structValue':
      return payloadFromProto(kind.value.fields);
    case 'listValue':
      return kind.value.values.map(valueFromProto);
  }
}

/** A payload from the wire. */
export function payloadFromProto(fields: { readonly [key: string]: Value }): Payload {
  const payload: Payload = {};
  for (const [key, value] of Object.entries(fields)) payload[key] = valueFromProto(value);
  return payload;
}

/** A payload value for the wire. */
export function valueToProto(value: PayloadValue): MessageInitShape<typeof ValueSchema> {
  if (value === null) return { kind: { case: 'nullValue', value: NullValue.NULL_VALUE } };
  switch (typeof value) {
    case 'number':
      return { kind: { case: 'doubleValue', value } };
    case 'bigint':
      return { kind: { case: 'integerValue', value } };
    case 'string':
      return { kind: { case: 'stringValue', value } };
    case 'boolean':
      return { kind: { case: 'boolValue', value } };
  }
  if (Array.isArray(value)) return { kind: { case: 'listValue', value: { values: (value as PayloadValue[]).map(valueToProto) } } };
  return { kind: { case: 'structValue', value: { fields: payloadToProto(value as PayloadObject) } } };
}

/** A payload for the wire, restricted by a `with_payload` selector (default: `defaultEnabled`). */
export function payloadToProto(
  payload: Payload | PayloadObject,
  selector?: WithPayloadSelector,
  defaultEnabled = true,
): Record<string, MessageInitShape<typeof ValueSchema>> {
  const options = selector?.selectorOptions;
  const enabled = options === undefined || options.case === undefined ? defaultEnabled : options.case !== 'enable' || options.value;
  if (!enabled) return {};
  const out: Record<string, MessageInitShape<typeof ValueSchema>> = {};
  for (const [key, value] of Object.entries(payload)) {
    if (options?.case === 'include' && !options.value.fields.some((field) => field === key || field.startsWith(`${key}.`))) continue;
    if (options?.case === 'exclude' && options.value.fields.includes(key)) continue;
    out[key] = valueToProto(value);
  }
  return out;
}

function denseData(vector: Vector, name: string): number[] {
  const inner = vector.vector;
  if (inner.case === 'dense') return inner.value.data;
  if (inner.case === undefined && vector.indices === undefined && vector.vectorsCount === undefined) return vector.data;
  throw new ArgumentError(`Wrong input: only dense vectors are supported (vector ${name === '' ? '(unnamed)' : name})`);
}

/** Vectors of an upserted point by name (empty name for the unnamed vector). */
export function vectorsFromProto(vectors: Vectors | undefined): Map<string, number[]> {
  const options = vectors?.vectorsOptions;
  if (options === undefined || options.case === undefined) throw new ArgumentError('Wrong input: point has no vectors');
  if (options.case === 'vector') return new Map([['', denseData(options.value, '')]]);
  return new Map(Object.entries(options.value.vectors).map(([name, vector]) => [name, denseData(vector, name)]));
}

/** Output vectors of a point, restricted by a `with_vectors` selector (default off); undefined when none. */
export function vectorsToProto(
  point: StoredPoint,
  spec: CollectionSpec,
  selector?: WithVectorsSelector,
): MessageInitShape<typeof VectorsOutputSchema> | undefined {
  const options = selector?.selectorOptions;
  if (options === undefined || options.case === undefined || (options.case === 'enable' && !options.value)) return undefined;
  const names = options.case === 'include' ? new Set(options.value.names) : null;
  const output = (data: readonly number[]) => ({ data: [...data], vector: { case: 'dense' as const, value: { data: [...data] } } });
  if (!spec.named) {
    const vector = point.vectors.get('');
    return vector === undefined ? undefined : { vectorsOptions: { case: 'vector', value: output(vector) } };
  }
  const named: Record<string, ReturnType<typeof output>> = {};
  for (const [name, vector] of point.vectors) if (names === null || names.has(name)) named[name] = output(vector);
  return { vectorsOptions: { case: 'vectors', value: { vectors: named } } };
}

const DISTANCES: ReadonlyMap<ProtoDistance, Distance> = new Map([
  [ProtoDistance.Cosine, 'Cosine'],
  [ProtoDistance.Euclid, 'Euclid'],
  [ProtoDistance.Dot, 'Dot'],
  [ProtoDistance.Manhattan, 'Manhattan'],
]);

function vectorSpec(name: string, params: VectorParams): VectorSpec {
  const distance = DISTANCES.get(params.distance);
  if (distance === undefined) throw new ArgumentError(`Wrong input: unknown distance ${params.distance}`);
  if (params.multivectorConfig !== undefined) throw new ArgumentError('Wrong input: multivectors are not supported');
  return { name, size: Number(params.size), distance };
}

/** The vectors of a new collection. */
export function specFromProto(name: string, config: VectorsConfig | undefined): CollectionSpec {
  const options = config?.config;
  if (options === undefined || options.case === undefined) throw new ArgumentError('Wrong input: vectors_config is required');
  if (options.case === 'params') return { name, vectors: [vectorSpec('', options.value)], named: false };
  const vectors = Object.entries(options.value.map).map(([vectorName, params]) => vectorSpec(vectorName, params));
  return { name, vectors, named: true };
}

/** A collection's vector configuration for the wire. */
export function specToProto(spec: CollectionSpec): MessageInitShape<typeof VectorsConfigSchema> {
  const params = (vector: VectorSpec) => ({
    size: BigInt(vector.size),
    distance: [...DISTANCES].find(([, d]) => d === vector.distance)![0],
  });
  if (!spec.named) return { config: { case: 'params', value: params(spec.vectors[0]!) } };
  return { config: { case: 'paramsMap', value: { map: Object.fromEntries(spec.vectors.map((v) => [v.name, params(v)])) } } };
}

const FIELD_TYPES: readonly (readonly [FieldType, PayloadIndexType, PayloadSchemaType])[] = [
  [FieldType.FieldTypeKeyword, 'keyword', PayloadSchemaType.Keyword],
  [FieldType.FieldTypeInteger, 'integer', PayloadSchemaType.Integer],
  [FieldType.FieldTypeFloat, 'float', PayloadSchemaType.Float],
  [FieldType.FieldTypeGeo, 'geo', PayloadSchemaType.Geo],
  [FieldType.FieldTypeText, 'text', PayloadSchemaType.Text],
  [FieldType.FieldTypeBool, 'bool', PayloadSchemaType.Bool],
  [FieldType.FieldTypeDatetime, 'datetime', PayloadSchemaType.Datetime],
  [FieldType.FieldTypeUuid, 'uuid', PayloadSchemaType.Uuid],
];

/** The payload index type of a `CreateFieldIndexCollection` (keyword when unset, as in Qdrant). */
export function payloadIndexType(fieldType: FieldType | undefined): PayloadIndexType {
  const row = FIELD_TYPES.find(([wire]) => wire === (fieldType ?? FieldType.FieldTypeKeyword));
  if (row === undefined) throw new ArgumentError(`Wrong input: unknown field type ${fieldType}`);
  return row[1];
}

/** The `payload_schema` entry type of a declared payload index. */
export function payloadSchemaType(type: PayloadIndexType): PayloadSchemaType {
  return FIELD_TYPES.find(([, name]) => name === type)?.[2] ?? PayloadSchemaType.UnknownType;
}
