/**
 * The write operations of the Points service, shared by their own RPCs and by UpdateBatch:
 * upsert (with `update_mode` and `update_filter`), delete, set/overwrite/delete/clear payload,
 * update and delete vectors. Each operation is one transaction; UpdateBatch applies its
 * operations in order and stops at the first failure (earlier ones stay applied, as in Qdrant).
 */
import {
  UpdateMode,
  type Filter,
  type PointStruct,
  type PointVectors,
  type PointsSelector,
  type PointsUpdateOperation,
  type Value,
} from '@qdrant/js-client-grpc';
import {
  ArgumentError,
  pointIdKey,
  type PointCollections,
  type UpsertOptions,
  type Payload,
  type StoredPoint,
} from '../../engine/index.js';
import { payloadFromProto, pointIdFromProto, vectorsFromProto } from './convert.js';
import { compileFilter } from './filter.js';
import { pointsSelection } from './points-output.js';

type PayloadFields = { readonly [key: string]: Value };

const UPDATE_MODES: ReadonlyMap<UpdateMode, UpsertOptions['mode']> = new Map([
  [UpdateMode.Upsert, 'upsert'],
  [UpdateMode.InsertOnly, 'insert_only'],
  [UpdateMode.UpdateOnly, 'update_only'],
]);

/** Upsert. */
export async function upsertPoints(
  collections: PointCollections,
  name: string,
  points: readonly PointStruct[],
  updateFilter?: Filter,
  updateMode?: UpdateMode,
): Promise<void> {
  const stored: StoredPoint[] = points.map((point) => ({
    id: pointIdFromProto(point.id),
    payload: payloadFromProto(point.payload),
    vectors: vectorsFromProto(point.vectors),
  }));
  const mode = UPDATE_MODES.get(updateMode ?? UpdateMode.Upsert);
  if (mode === undefined) throw new ArgumentError(`Wrong input: unknown update mode ${updateMode}`);
  const filter = compileFilter(updateFilter);
  await collections.upsert(name, stored, { mode, ...(filter === undefined ? {} : { updateFilter: filter }) });
}

/** Delete points. */
export async function deletePoints(collections: PointCollections, name: string, selector: PointsSelector | undefined): Promise<void> {
  await collections.delete(name, pointsSelection(selector));
}

/** Set (merge) or overwrite payload. */
export async function writePayload(
  collections: PointCollections,
  name: string,
  fields: PayloadFields,
  selector: PointsSelector | undefined,
  key: string | undefined,
  overwrite: boolean,
): Promise<void> {
  if (key !== undefined && key !== '')
    throw new ArgumentError('Wrong input: setting a payload under a nested key is not supported by this server');
  const payload = payloadFromProto(fields);
  await collections.update(name, pointsSelection(selector), (point) => ({
    ...point,
    payload: overwrite ? payload : { ...point.payload, ...payload },
  }));
}

/** Delete payload keys. */
export async function deletePayload(
  collections: PointCollections,
  name: string,
  keys: readonly string[],
  selector: PointsSelector | undefined,
): Promise<void> {
  await collections.update(name, pointsSelection(selector), (point) => {
    const payload: Payload = { ...point.payload };
    for (const key of keys) delete payload[key];
    return { ...point, payload };
  });
}

/** Clear payload. */
export async function clearPayload(collections: PointCollections, name: string, selector: PointsSelector | undefined): Promise<void> {
  await collections.update(name, pointsSelection(selector), (point) => ({ ...point, payload: {} }));
}

/** Update vectors (named vectors not given are kept), optionally only on points matching `updateFilter`. */
export async function updateVectors(
  collections: PointCollections,
  name: string,
  points: readonly PointVectors[],
  updateFilter?: Filter,
): Promise<void> {
  const updates = new Map(points.map((p) => [pointIdKey(pointIdFromProto(p.id)), vectorsFromProto(p.vectors)]));
  const filter = compileFilter(updateFilter);
  const ids = points.map((p) => pointIdFromProto(p.id));
  await collections.update(name, ids, (point) =>
    filter !== undefined && !filter(point)
      ? point
      : { ...point, vectors: new Map([...point.vectors, ...(updates.get(pointIdKey(point.id)) ?? [])]) },
  );
}

/** Delete named vectors. */
export async function deleteVectors(
  collections: PointCollections,
  name: string,
  selector: PointsSelector | undefined,
  names: readonly string[],
): Promise<void> {
  const removed = new Set(names);
  await collections.update(name, pointsSelection(selector), (point) => ({
    ...point,
    vectors: new Map([...point.vectors].filter(([vector]) => !removed.has(vector))),
  }));
}

/** One UpdateBatch operation. */
export async function applyOperation(collections: PointCollections, name: string, operation: PointsUpdateOperation): Promise<void> {
  const op = operation.operation;
  switch (op.case) {
    case 'upsert':
      return upsertPoints(collections, name, op.value.points, op.value.updateFilter, op.value.updateMode);
    case 'deletePoints':
      return deletePoints(collections, name, op.value.points);
    case 'deleteDeprecated':
      return deletePoints(collections, name, op.value);
    case 'setPayload':
      return writePayload(collections, name, op.value.payload, op.value.pointsSelector, op.value.key, false);
    case 'overwritePayload':
      return writePayload(collections, name, op.value.payload, op.value.pointsSelector, op.value.key, true);
    case 'deletePayload':
      return deletePayload(collections, name, op.value.keys, op.value.pointsSelector);
    case 'clearPayload':
      return clearPayload(collections, name, op.value.points);
    case 'clearPayloadDeprecated':
      return clearPayload(collections, name, op.value);
    case 'updateVectors':
      return updateVectors(collections, name, op.value.points, op.value.updateFilter);
    case 'deleteVectors':
      return deleteVectors(collections, name, op.value.pointsSelector, op.value.vectors?.names ?? []);
    case undefined:
      throw new ArgumentError('Wrong input: empty update operation');
  }
}
