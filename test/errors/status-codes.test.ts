// The error model against Neo4j's status-code list: every code graphdb reports is Neo4j's (or a
// documented extension), its error class follows the classification (the code's middle segment),
// and each listener's answer comes from the one table of src/server/error-mapping.ts.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Code } from '@connectrpc/connect';
import {
  ClientError,
  DatabaseError,
  StatusCodes,
  TransientError,
  WriteConflict,
  graphError,
  invariant,
  toGraphError,
  type GraphError,
} from '../../src/engine/index.js';
import { errorMapping } from '../../src/server/error-mapping.js';
import { mapError } from '../../src/server/http/http-errors.js';
import { failureMetadata } from '../../src/server/bolt/protocol/failure-metadata.js';
import { toConnectError } from '../../src/server/vectorapi/errors.js';
import { formatError, toGraphqlError } from '../../src/server/graphql/errors.js';
import { GRAPHDB_EXTENSION_CODES, NEO4J_STATUS_CODES } from './neo4j-status-codes.js';

const ours = [...new Set(Object.values(StatusCodes))];
const CLASS_OF = { ClientError, TransientError, DatabaseError } as const;

function classOf(code: string): 'ClientError' | 'TransientError' | 'DatabaseError' {
  const middle = code.split('.')[1];
  assert.ok(middle === 'ClientError' || middle === 'TransientError' || middle === 'DatabaseError', code);
  return middle;
}

describe('status codes', () => {
  it('are the codes of Neo4j’s list, or a documented extension', () => {
    const known = new Set([...NEO4J_STATUS_CODES, ...GRAPHDB_EXTENSION_CODES.keys()]);
    const unknown = ours.filter((code) => !known.has(code));
    assert.deepEqual(unknown, [], 'codes missing from test/errors/neo4j-status-codes.ts');
    assert.equal(new Set(NEO4J_STATUS_CODES).size, NEO4J_STATUS_CODES.length);
    for (const code of GRAPHDB_EXTENSION_CODES.keys()) assert.ok(!NEO4J_STATUS_CODES.includes(code), code);
  });

  it('make errors whose class follows the classification', () => {
    for (const code of ours) {
      const error = graphError(code, 'probe');
      const expected = classOf(code);
      assert.ok(error instanceof CLASS_OF[expected], `${code} is a ${error.constructor.name}`);
      assert.equal(error.classification, expected);
      assert.equal(error.isTransient, expected === 'TransientError');
      assert.equal(error.code, code);
    }
    assert.ok(new WriteConflict() instanceof TransientError);
  });

  it('turn a string that is no status code into an UnknownError', () => {
    const error = graphError('SQLITE_MISUSE', 'bad use');
    assert.ok(error instanceof DatabaseError);
    assert.equal(error.code, StatusCodes.UnknownError);
    assert.match(error.message, /SQLITE_MISUSE/);
  });

  it('invariant() reports a broken invariant as a DatabaseError', () => {
    assert.throws(
      () => invariant(false, 'two heads'),
      (error: unknown) => error instanceof DatabaseError && error.code === StatusCodes.UnknownError && /two heads/.test(error.message),
    );
    assert.doesNotThrow(() => invariant(true, 'fine'));
  });
});

describe('one mapping table for every listener', () => {
  const features = { gqlErrors: true } as Parameters<typeof failureMetadata>[1];

  it('answers each classification the same way on Bolt, HTTP and gRPC', () => {
    for (const code of ours) {
      const error = graphError(code, 'probe');
      const mapping = errorMapping(error);
      const classification = classOf(code);
      assert.equal(
        mapping.boltClassification,
        { ClientError: 'CLIENT_ERROR', TransientError: 'TRANSIENT_ERROR', DatabaseError: 'DATABASE_ERROR' }[classification],
      );
      if (classification === 'DatabaseError') {
        assert.equal(mapping.httpStatus, 500, code);
        assert.equal(mapping.grpcCode, Code.Internal, code);
      } else {
        assert.ok(mapping.httpStatus >= 400 && mapping.httpStatus < 600, code);
        assert.notEqual(mapping.grpcCode, Code.Internal, code);
      }
      if (classification === 'TransientError') {
        assert.ok([Code.Unavailable, Code.Aborted, Code.ResourceExhausted].includes(mapping.grpcCode), `${code}: a retryable gRPC status`);
      }
      const bolt = failureMetadata(error, features);
      assert.equal(bolt.neo4j_code, code);
      assert.equal(bolt.gql_status, mapping.gqlStatus);
      assert.equal((bolt.diagnostic_record as { _classification: string })._classification, mapping.boltClassification);
      assert.equal(mapError(error).status, mapping.httpStatus);
    }
  });

  it('keeps the specific answers', () => {
    const cases: [string, number, Code][] = [
      [StatusCodes.Unauthorized, 401, Code.Unauthenticated],
      [StatusCodes.Forbidden, 403, Code.PermissionDenied],
      [StatusCodes.DatabaseNotFound, 404, Code.NotFound],
      [StatusCodes.AuthenticationRateLimit, 429, Code.ResourceExhausted],
      [StatusCodes.DatabaseUnavailable, 503, Code.Unavailable],
      [StatusCodes.DeadlockDetected, 503, Code.Aborted],
      [StatusCodes.SyntaxError, 400, Code.InvalidArgument],
      [StatusCodes.UnknownError, 500, Code.Internal],
    ];
    for (const [code, http, grpc] of cases) {
      const mapping = errorMapping(graphError(code, 'probe'));
      assert.deepEqual([mapping.httpStatus, mapping.grpcCode], [http, grpc], code);
    }
    assert.equal(errorMapping(graphError(StatusCodes.SyntaxError, 'x')).gqlStatus, '42001');
  });

  it('never lets a bare Error reach a client', () => {
    const bare = new Error('internal detail');
    const wrapped: GraphError = toGraphError(bare);
    assert.ok(wrapped instanceof DatabaseError);
    assert.equal(wrapped.code, StatusCodes.UnknownError);
    assert.deepEqual(mapError(bare), { status: 500, entry: { code: StatusCodes.UnknownError, message: 'internal detail' } });
    const logged: unknown[] = [];
    const grpc = toConnectError(bare, (error) => logged.push(error));
    assert.equal(grpc.code, Code.Internal);
    assert.deepEqual(logged, [bare]);
    assert.equal(formatError(toGraphqlError(bare)).extensions?.code, StatusCodes.UnknownError);
    const transient = toConnectError(graphError(StatusCodes.DatabaseUnavailable, 'closing'), () => assert.fail('not internal'));
    assert.equal(transient.code, Code.Unavailable);
  });
});
