/**
 * `qdrant.Collections`: Create, Get, List, Delete, CollectionExists and Update (accepted for an
 * existing collection; graphdb has no per-collection tuning to change). Creating and deleting a
 * collection are schema operations (its constraint and VECTOR indexes) and need the `schema`
 * permission; reading needs `read`.
 */
import type { ServiceImpl } from '@connectrpc/connect';
import { CollectionStatus } from '@qdrant/js-client-grpc';
import { CollectionNotFound } from '../../engine/index.js';
import { elapsedSeconds, withCollections, type VectorApiDependencies } from './call-context.js';
import { payloadSchemaType, specFromProto, specToProto } from './convert.js';
import type { Collections } from './proto.js';

/** The Collections service over graphdb. */
export function collectionsService(deps: VectorApiDependencies): Partial<ServiceImpl<typeof Collections>> {
  return {
    async create(request, context) {
      const start = performance.now();
      await withCollections(deps, context, 'schema', (collections) =>
        collections.create(specFromProto(request.collectionName, request.vectorsConfig)),
      );
      return { result: true, time: elapsedSeconds(start) };
    },

    async get(request, context) {
      const start = performance.now();
      return withCollections(deps, context, 'read', async (collections) => {
        const spec = await collections.spec(request.collectionName);
        const points = BigInt(await collections.count(spec.name));
        return {
          result: {
            status: CollectionStatus.Green,
            optimizerStatus: { ok: true, error: '' },
            segmentsCount: 1n,
            pointsCount: points,
            indexedVectorsCount: points,
            payloadSchema: Object.fromEntries(
              (spec.payloadIndexes ?? []).map((index) => [index.key, { dataType: payloadSchemaType(index.type) }]),
            ),
            config: {
              params: {
                shardNumber: 1,
                onDiskPayload: false,
                replicationFactor: 1,
                writeConsistencyFactor: 1,
                vectorsConfig: specToProto(spec),
              },
              hnswConfig: {},
              optimizerConfig: {},
              walConfig: {},
            },
          },
          time: elapsedSeconds(start),
        };
      });
    },

    async list(_request, context) {
      const start = performance.now();
      const names = await withCollections(deps, context, 'read', (collections) => collections.list());
      return { collections: names.map((name) => ({ name })), time: elapsedSeconds(start) };
    },

    async delete(request, context) {
      const start = performance.now();
      const dropped = await withCollections(deps, context, 'schema', (collections) => collections.drop(request.collectionName));
      return { result: dropped, time: elapsedSeconds(start) };
    },

    async collectionExists(request, context) {
      const start = performance.now();
      const spec = await withCollections(deps, context, 'read', (collections) => collections.describe(request.collectionName));
      return { result: { exists: spec !== null }, time: elapsedSeconds(start) };
    },

    async update(request, context) {
      const start = performance.now();
      await withCollections(deps, context, 'schema', async (collections) => {
        if ((await collections.describe(request.collectionName)) === null) throw new CollectionNotFound(request.collectionName);
      });
      return { result: true, time: elapsedSeconds(start) };
    },
  };
}
