/** Shared helpers of the vector-API tests: an engine with the gRPC listener on 127.0.0.1:0, message builders, brute-force references. */
import { ConnectError } from '@connectrpc/connect';
import { Distance, QdrantClient } from '@qdrant/js-client-grpc';
import type { MessageInitShape } from '@bufbuild/protobuf';
import type { PointStructSchema, ValueSchema, PointStruct, Value } from '@qdrant/js-client-grpc';
import { GraphDB } from '../../src/engine/index.js';
import { startVectorApiServer, type VectorApiServer } from '../../src/server/vectorapi/index.js';

/** An in-memory engine with an unauthenticated listener and a client connected to it. */
export interface VectorApiFixture {
  readonly db: GraphDB;
  readonly server: VectorApiServer;
  readonly client: QdrantClient;
  /** Errors the server reported as INTERNAL (a test fails when any appear). */
  readonly internalErrors: unknown[];
  stop(): Promise<void>;
}

/** Starts the fixture. */
export async function startFixture(): Promise<VectorApiFixture> {
  const db = await GraphDB.open();
  const internalErrors: unknown[] = [];
  const server = await startVectorApiServer({
    host: '127.0.0.1',
    port: 0,
    deps: { engine: { session: (options) => db.session(options) }, auth: null, onInternalError: (error) => internalErrors.push(error) },
  });
  const client = new QdrantClient({ url: `http://127.0.0.1:${server.port}`, checkCompatibility: false });
  return {
    db,
    server,
    client,
    internalErrors,
    async stop() {
      await server.close();
      await db.close();
    },
  };
}

/** A deterministic pseudo-random generator (mulberry32). */
export function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A `qdrant.Value` from a JS value (bigint = integer, number = double). */
export function value(v: unknown): MessageInitShape<typeof ValueSchema> {
  if (v === null) return { kind: { case: 'nullValue', value: 0 } };
  if (typeof v === 'bigint') return { kind: { case: 'integerValue', value: v } };
  if (typeof v === 'number') return { kind: { case: 'doubleValue', value: v } };
  if (typeof v === 'string') return { kind: { case: 'stringValue', value: v } };
  if (typeof v === 'boolean') return { kind: { case: 'boolValue', value: v } };
  if (Array.isArray(v)) return { kind: { case: 'listValue', value: { values: v.map(value) } } };
  return { kind: { case: 'structValue', value: { fields: payload(v as Record<string, unknown>) } } };
}

/** A payload map from a JS object. */
export function payload(object: Record<string, unknown>): Record<string, MessageInitShape<typeof ValueSchema>> {
  return Object.fromEntries(Object.entries(object).map(([k, v]) => [k, value(v)]));
}

/** A JS value from a `qdrant.Value`. */
export function plain(v: Value): unknown {
  const kind = v.kind;
  switch (kind.case) {
    case 'structValue':
      return Object.fromEntries(Object.entries(kind.value.fields).map(([k, inner]) => [k, plain(inner)]));
    case 'listValue':
      return kind.value.values.map(plain);
    case 'nullValue':
    case undefined:
      return null;
    default:
      return kind.value;
  }
}

/** A JS object from a payload map. */
export function plainPayload(fields: { [key: string]: Value }): Record<string, unknown> {
  return Object.fromEntries(Object.entries(fields).map(([k, v]) => [k, plain(v)]));
}

/** A numeric point id. */
export function numId(n: number | bigint) {
  return { pointIdOptions: { case: 'num' as const, value: BigInt(n) } };
}

/** A point with an unnamed dense vector. */
export function point(id: number, vector: number[], fields: Record<string, unknown> = {}): MessageInitShape<typeof PointStructSchema> {
  return { id: numId(id), vectors: { vectorsOptions: { case: 'vector', value: { data: vector } } }, payload: payload(fields) };
}

/** The collection config of one unnamed vector. */
export function vectorsConfig(size: number, distance: Distance) {
  return { config: { case: 'params' as const, value: { size: BigInt(size), distance } } };
}

/** The numeric id of a returned point. */
export function idOf(p: Pick<PointStruct, 'id'>): number {
  const options = p.id?.pointIdOptions;
  if (options?.case !== 'num') throw new Error('expected a numeric id');
  return Number(options.value);
}

/** The gRPC status code of a rejected call. */
export async function grpcCode(promise: Promise<unknown>): Promise<number> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof ConnectError) return error.code;
    throw error;
  }
  throw new Error('the call succeeded');
}

/** Brute-force Qdrant scores: cosine, dot product or euclidean distance. */
export function referenceScore(distance: 'cosine' | 'dot' | 'euclid', a: readonly number[], b: readonly number[]): number {
  let dot = 0;
  let na = 0;
  let nb = 0;
  let sq = 0;
  for (let i = 0; i < a.length; i++) {
    dot += a[i] * b[i];
    na += a[i] * a[i];
    nb += b[i] * b[i];
    sq += (a[i] - b[i]) ** 2;
  }
  if (distance === 'cosine') return dot / Math.sqrt(na * nb);
  if (distance === 'dot') return dot;
  return Math.sqrt(sq);
}
