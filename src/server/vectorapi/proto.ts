/**
 * The Qdrant gRPC service descriptors, taken from `@qdrant/js-client-grpc`'s generated code. The
 * package exports the message schemas but not the `Collections` and `Points` service
 * descriptors, so their ESM files are loaded by path next to the package's entry point; the
 * types come from the package's declaration files. Message schemas come from the package root,
 * which is the same ESM module graph, so requests and responses use one set of descriptors.
 */
import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Collections as CollectionsService } from '../../../node_modules/@qdrant/js-client-grpc/dist/types/proto/collections_service_pb.js';
import type { Points as PointsService } from '../../../node_modules/@qdrant/js-client-grpc/dist/types/proto/points_service_pb.js';

export { Qdrant } from '@qdrant/js-client-grpc';

/** Directory of the package's generated ESM proto modules. */
function protoDirectory(): string {
  const entry = createRequire(import.meta.url).resolve('@qdrant/js-client-grpc');
  // The `require` condition resolves to dist/cjs/index.js; the ESM tree is its sibling.
  return path.join(path.dirname(entry), '..', 'esm', 'proto');
}

async function loadProto<T>(file: string): Promise<T> {
  return (await import(pathToFileURL(path.join(protoDirectory(), file)).href)) as T;
}

/** `qdrant.Collections`. */
export const Collections: typeof CollectionsService = (
  await loadProto<{ Collections: typeof CollectionsService }>('collections_service_pb.js')
).Collections;

/** `qdrant.Points`. */
export const Points: typeof PointsService = (await loadProto<{ Points: typeof PointsService }>('points_service_pb.js')).Points;
