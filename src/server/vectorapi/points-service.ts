/**
 * `qdrant.Points`: Upsert, Get, Delete, UpdateVectors, DeleteVectors, SetPayload,
 * OverwritePayload, DeletePayload, ClearPayload, UpdateBatch (see point-writes.ts),
 * CreateFieldIndex and DeleteFieldIndex (a RANGE index on the payload property; they need
 * `schema`), Search, SearchBatch, Recommend, RecommendBatch, Query and QueryBatch (see
 * search-calls.ts), Scroll and Count. Writes need `write` (`delete` for Delete; the engine also
 * checks `delete` for deletes inside UpdateBatch), reads need `read`. Operations Qdrant runs
 * asynchronously complete before the reply here, so `wait` is always honoured.
 */
import type { MessageInitShape } from '@bufbuild/protobuf';
import type { HandlerContext, ServiceImpl } from '@connectrpc/connect';
import { UpdateStatus, type PointsOperationResponseSchema, type ScoredPointSchema } from '@qdrant/js-client-grpc';
import { ArgumentError, type PointCollections } from '../../engine/index.js';
import { elapsedSeconds, withCollections, type VectorApiDependencies } from './call-context.js';
import { payloadIndexType, pointIdFromProto, pointIdToProto } from './convert.js';
import { compileFilter } from './filter.js';
import {
  applyOperation,
  clearPayload,
  deletePayload,
  deletePoints,
  deleteVectors,
  updateVectors,
  upsertPoints,
  writePayload,
} from './point-writes.js';
import { count, retrievedPoint } from './points-output.js';
import type { Points } from './proto.js';
import { queryCall, recommendCall, searchCall } from './search-calls.js';

type Scored = MessageInitShape<typeof ScoredPointSchema>;

function operationResponse(start: number): MessageInitShape<typeof PointsOperationResponseSchema> {
  return { result: { operationId: 0n, status: UpdateStatus.Completed }, time: elapsedSeconds(start) };
}

/** The Points service over graphdb. */
export function pointsService(deps: VectorApiDependencies): Partial<ServiceImpl<typeof Points>> {
  const call = <T>(context: HandlerContext, permission: 'read' | 'write' | 'delete', work: (collections: PointCollections) => Promise<T>) =>
    withCollections(deps, context, permission, work);

  return {
    async upsert(request, context) {
      const start = performance.now();
      await call(context, 'write', (collections) =>
        upsertPoints(collections, request.collectionName, request.points, request.updateFilter, request.updateMode),
      );
      return operationResponse(start);
    },

    async delete(request, context) {
      const start = performance.now();
      await call(context, 'delete', (collections) => deletePoints(collections, request.collectionName, request.points));
      return operationResponse(start);
    },

    async get(request, context) {
      const start = performance.now();
      return call(context, 'read', async (collections) => {
        const spec = await collections.spec(request.collectionName);
        const points = await collections.retrieve(request.collectionName, request.ids.map(pointIdFromProto));
        const output = { withPayload: request.withPayload, withVectors: request.withVectors, payloadByDefault: true };
        return { result: points.map((point) => retrievedPoint(point, spec, output)), time: elapsedSeconds(start) };
      });
    },

    async updateVectors(request, context) {
      const start = performance.now();
      await call(context, 'write', (collections) =>
        updateVectors(collections, request.collectionName, request.points, request.updateFilter),
      );
      return operationResponse(start);
    },

    async deleteVectors(request, context) {
      const start = performance.now();
      await call(context, 'write', (collections) =>
        deleteVectors(collections, request.collectionName, request.pointsSelector, request.vectors?.names ?? []),
      );
      return operationResponse(start);
    },

    async setPayload(request, context) {
      const start = performance.now();
      await call(context, 'write', (collections) =>
        writePayload(collections, request.collectionName, request.payload, request.pointsSelector, request.key, false),
      );
      return operationResponse(start);
    },

    async overwritePayload(request, context) {
      const start = performance.now();
      await call(context, 'write', (collections) =>
        writePayload(collections, request.collectionName, request.payload, request.pointsSelector, request.key, true),
      );
      return operationResponse(start);
    },

    async deletePayload(request, context) {
      const start = performance.now();
      await call(context, 'write', (collections) =>
        deletePayload(collections, request.collectionName, request.keys, request.pointsSelector),
      );
      return operationResponse(start);
    },

    async clearPayload(request, context) {
      const start = performance.now();
      await call(context, 'write', (collections) => clearPayload(collections, request.collectionName, request.points));
      return operationResponse(start);
    },

    async updateBatch(request, context) {
      const start = performance.now();
      await call(context, 'write', async (collections) => {
        for (const operation of request.operations) await applyOperation(collections, request.collectionName, operation);
      });
      return {
        result: request.operations.map(() => ({ operationId: 0n, status: UpdateStatus.Completed })),
        time: elapsedSeconds(start),
      };
    },

    async createFieldIndex(request, context) {
      const start = performance.now();
      await withCollections(deps, context, 'schema', (collections) =>
        collections.createPayloadIndex(request.collectionName, request.fieldName, payloadIndexType(request.fieldType)),
      );
      return operationResponse(start);
    },

    async deleteFieldIndex(request, context) {
      const start = performance.now();
      await withCollections(deps, context, 'schema', (collections) =>
        collections.dropPayloadIndex(request.collectionName, request.fieldName),
      );
      return operationResponse(start);
    },

    async search(request, context) {
      const start = performance.now();
      const result = await call(context, 'read', (collections) => searchCall(collections, request.collectionName, request));
      return { result, time: elapsedSeconds(start) };
    },

    async searchBatch(request, context) {
      const start = performance.now();
      const result = await call(context, 'read', async (collections) => {
        const batches: { result: Scored[] }[] = [];
        for (const search of request.searchPoints) batches.push({ result: await searchCall(collections, request.collectionName, search) });
        return batches;
      });
      return { result, time: elapsedSeconds(start) };
    },

    async recommend(request, context) {
      const start = performance.now();
      const result = await call(context, 'read', (collections) => recommendCall(collections, request.collectionName, request));
      return { result, time: elapsedSeconds(start) };
    },

    async recommendBatch(request, context) {
      const start = performance.now();
      const result = await call(context, 'read', async (collections) => {
        const batches: { result: Scored[] }[] = [];
        for (const recommend of request.recommendPoints)
          batches.push({ result: await recommendCall(collections, request.collectionName, recommend) });
        return batches;
      });
      return { result, time: elapsedSeconds(start) };
    },

    async query(request, context) {
      const start = performance.now();
      const result = await call(context, 'read', (collections) => queryCall(collections, request.collectionName, request));
      return { result, time: elapsedSeconds(start) };
    },

    async queryBatch(request, context) {
      const start = performance.now();
      const result = await call(context, 'read', async (collections) => {
        const batches: { result: Scored[] }[] = [];
        for (const query of request.queryPoints) batches.push({ result: await queryCall(collections, request.collectionName, query) });
        return batches;
      });
      return { result, time: elapsedSeconds(start) };
    },

    async scroll(request, context) {
      const start = performance.now();
      return call(context, 'read', async (collections) => {
        if (request.orderBy !== undefined) throw new ArgumentError('Wrong input: order_by is not supported by this server');
        const spec = await collections.spec(request.collectionName);
        const limit = count(request.limit, 10, 'limit');
        const { points: page, next } = await collections.page(request.collectionName, {
          ...(request.offset === undefined ? {} : { from: pointIdFromProto(request.offset) }),
          limit,
          filter: compileFilter(request.filter),
        });
        const output = { withPayload: request.withPayload, withVectors: request.withVectors, payloadByDefault: true };
        return {
          result: page.map((point) => retrievedPoint(point, spec, output)),
          ...(next === null ? {} : { nextPageOffset: pointIdToProto(next) }),
          time: elapsedSeconds(start),
        };
      });
    },

    async count(request, context) {
      const start = performance.now();
      const total = await call(context, 'read', (collections) => collections.count(request.collectionName, compileFilter(request.filter)));
      return { result: { count: BigInt(total) }, time: elapsedSeconds(start) };
    },
  };
}
