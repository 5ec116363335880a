/**
 * The one table from an error's Neo4j status code to what each listener answers with: Bolt's
 * FAILURE (`neo4j_code`, GQLSTATUS, `_classification`), the HTTP status of the HTTP and GraphQL
 * routes, and the gRPC status of the vector API. Every listener first turns a thrown value into
 * a classified error with the engine's `toGraphError()` (a storage fault gets its own code,
 * anything unclassified `Neo.DatabaseError.General.UnknownError`), so nothing reaches a client as
 * a bare `Error`.
 *
 * A code without its own row answers by its classification (the code's middle segment):
 *
 * | classification | HTTP | gRPC | Bolt `_classification` |
 * |---|---|---|---|
 * | `ClientError` | 400 | `INVALID_ARGUMENT` | `CLIENT_ERROR` |
 * | `TransientError` | 503 | `UNAVAILABLE` | `TRANSIENT_ERROR` |
 * | `DatabaseError` | 500 | `INTERNAL` | `DATABASE_ERROR` |
 */
import type { Code } from '@connectrpc/connect';
import { StatusCodes, type Classification, type GraphError } from '../engine/index.js';

/**
 * The gRPC status codes this table uses (gRPC's standard numbering, checked against connect's
 * `Code` enum by the type). Only the type comes from `@connectrpc/connect`: importing its values
 * would load connect and protobuf into every process that answers a Bolt or HTTP error.
 */
const GRPC = {
  InvalidArgument: 3,
  NotFound: 5,
  PermissionDenied: 7,
  ResourceExhausted: 8,
  Aborted: 10,
  Internal: 13,
  Unavailable: 14,
  Unauthenticated: 16,
} as const satisfies Record<string, Code>;

/** What one status code answers with on each listener. */
export interface ErrorMapping {
  /** HTTP status of a request that fails with this error (statement errors inside a transactional 200 excepted). */
  readonly httpStatus: number;
  /** gRPC status of a vector-API call. */
  readonly grpcCode: Code;
  /** GQLSTATUS of a Bolt 5.7+ FAILURE. */
  readonly gqlStatus: string;
  /** GQLSTATUS description (the message follows it). */
  readonly gqlDescription: string;
  /** `diagnostic_record._classification` of a Bolt 5.7+ FAILURE. */
  readonly boltClassification: 'CLIENT_ERROR' | 'TRANSIENT_ERROR' | 'DATABASE_ERROR';
}

const UNEXPECTED: readonly [string, string] = ['50N42', 'error: general processing exception - unexpected error'];

const BY_CLASSIFICATION: Readonly<Record<Exclude<Classification, 'ClientNotification'>, ErrorMapping>> = {
  ClientError: {
    httpStatus: 400,
    grpcCode: GRPC.InvalidArgument,
    gqlStatus: UNEXPECTED[0],
    gqlDescription: UNEXPECTED[1],
    boltClassification: 'CLIENT_ERROR',
  },
  TransientError: {
    httpStatus: 503,
    grpcCode: GRPC.Unavailable,
    gqlStatus: UNEXPECTED[0],
    gqlDescription: UNEXPECTED[1],
    boltClassification: 'TRANSIENT_ERROR',
  },
  DatabaseError: {
    httpStatus: 500,
    grpcCode: GRPC.Internal,
    gqlStatus: UNEXPECTED[0],
    gqlDescription: UNEXPECTED[1],
    boltClassification: 'DATABASE_ERROR',
  },
};

type Override = Partial<Pick<ErrorMapping, 'httpStatus' | 'grpcCode'>> & { readonly gql?: readonly [string, string] };

/** Codes whose answer differs from their classification's. */
const BY_CODE: ReadonlyMap<string, Override> = new Map<string, Override>([
  [StatusCodes.SyntaxError, { gql: ['42001', 'error: syntax error or access rule violation - invalid syntax'] }],
  [StatusCodes.SemanticError, { gql: ['42N00', 'error: syntax error or access rule violation'] }],
  [StatusCodes.TypeError, { gql: ['22G03', 'error: data exception - invalid value type'] }],
  [StatusCodes.ArgumentError, { gql: ['22N00', 'error: data exception - invalid argument'] }],
  [StatusCodes.ArithmeticError, { gql: ['22000', 'error: data exception'] }],
  [StatusCodes.ParameterMissing, { gql: ['42N51', 'error: syntax error or access rule violation - invalid parameter'] }],
  [StatusCodes.EntityNotFound, { gql: ['22N00', 'error: data exception - invalid argument'] }],
  [StatusCodes.ConstraintValidationFailed, { gql: ['22N77', 'error: data exception - property presence verification failed'] }],
  [
    StatusCodes.DatabaseNotFound,
    { httpStatus: 404, grpcCode: GRPC.NotFound, gql: ['22N51', 'error: data exception - graph reference not found'] },
  ],
  [StatusCodes.TransactionNotFound, { httpStatus: 404, grpcCode: GRPC.NotFound }],
  [
    StatusCodes.Unauthorized,
    {
      httpStatus: 401,
      grpcCode: GRPC.Unauthenticated,
      gql: ['42NFF', 'error: syntax error or access rule violation - permission/access denied'],
    },
  ],
  [StatusCodes.TokenExpired, { httpStatus: 401, grpcCode: GRPC.Unauthenticated }],
  [
    StatusCodes.Forbidden,
    {
      httpStatus: 403,
      grpcCode: GRPC.PermissionDenied,
      gql: ['42NFF', 'error: syntax error or access rule violation - permission/access denied'],
    },
  ],
  [StatusCodes.AuthenticationRateLimit, { httpStatus: 429, grpcCode: GRPC.ResourceExhausted }],
  [StatusCodes.InvalidRequest, { gql: ['08N06', 'error: connection exception - protocol error'] }],
  [StatusCodes.InvalidFormat, { gql: ['08N06', 'error: connection exception - protocol error'] }],
  [StatusCodes.DeadlockDetected, { grpcCode: GRPC.Aborted, gql: ['50N05', 'error: general processing exception - deadlock detected'] }],
  [StatusCodes.Outdated, { grpcCode: GRPC.Aborted }],
  [StatusCodes.LockAcquisitionTimeout, { grpcCode: GRPC.Aborted }],
  [StatusCodes.ResourceExhaustion, { grpcCode: GRPC.ResourceExhausted }],
  [StatusCodes.ResourcePressure, { grpcCode: GRPC.ResourceExhausted }],
]);

/** The answer to `error` on every listener. */
export function errorMapping(error: GraphError): ErrorMapping {
  const classification = error.classification === 'ClientNotification' ? 'ClientError' : error.classification;
  const base = BY_CLASSIFICATION[classification] ?? BY_CLASSIFICATION.DatabaseError;
  const override = BY_CODE.get(error.code);
  if (override === undefined) return base;
  const [gqlStatus, gqlDescription] = override.gql ?? [base.gqlStatus, base.gqlDescription];
  return {
    ...base,
    httpStatus: override.httpStatus ?? base.httpStatus,
    grpcCode: override.grpcCode ?? base.grpcCode,
    gqlStatus,
    gqlDescription,
  };
}
