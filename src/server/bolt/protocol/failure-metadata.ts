import type { GraphError } from '../../../engine/index.js';
import type { Metadata } from './summary-metadata.js';
import type { ProtocolFeatures } from './versions.js';

/** GQLSTATUS codes for the status codes that have a well-known one; others use 50N42. */
const GQL_STATUS_BY_CODE: Readonly<Record<string, readonly [string, string]>> = {
  'Neo.ClientError.Statement.SyntaxError': ['42001', 'error: syntax error or access rule violation - invalid syntax'],
  'Neo.ClientError.Statement.SemanticError': ['42N00', 'error: syntax error or access rule violation'],
  'Neo.ClientError.Statement.TypeError': ['22G03', 'error: data exception - invalid value type'],
  'Neo.ClientError.Statement.ArgumentError': ['22N00', 'error: data exception - invalid argument'],
  'Neo.ClientError.Statement.ArithmeticError': ['22000', 'error: data exception'],
  'Neo.ClientError.Statement.ParameterMissing': ['42N51', 'error: syntax error or access rule violation - invalid parameter'],
  'Neo.ClientError.Statement.EntityNotFound': ['22N00', 'error: data exception - invalid argument'],
  'Neo.ClientError.Schema.ConstraintValidationFailed': ['22N77', 'error: data exception - property presence verification failed'],
  'Neo.ClientError.Database.DatabaseNotFound': ['22N51', 'error: data exception - graph reference not found'],
  'Neo.ClientError.Security.Unauthorized': ['42NFF', 'error: syntax error or access rule violation - permission/access denied'],
  'Neo.ClientError.Security.Forbidden': ['42NFF', 'error: syntax error or access rule violation - permission/access denied'],
  'Neo.ClientError.Request.Invalid': ['08N06', 'error: connection exception - protocol error'],
  'Neo.ClientError.Request.InvalidFormat': ['08N06', 'error: connection exception - protocol error'],
  'Neo.TransientError.Transaction.DeadlockDetected': ['50N05', 'error: general processing exception - deadlock detected'],
};

const CLASSIFICATION: Readonly<Record<string, string>> = {
  ClientError: 'CLIENT_ERROR',
  TransientError: 'TRANSIENT_ERROR',
  DatabaseError: 'DATABASE_ERROR',
};

/**
 * FAILURE metadata in the shape of the negotiated version: `code` and `message` before 5.7;
 * from 5.7 `neo4j_code`, `message`, `gql_status`, `description` and a `diagnostic_record`.
 */
export function failureMetadata(error: GraphError, features: ProtocolFeatures): Metadata {
  if (!features.gqlErrors) return { code: error.code, message: error.message };
  const [gqlStatus, description] = GQL_STATUS_BY_CODE[error.code] ?? ['50N42', 'error: general processing exception - unexpected error'];
  const classification = CLASSIFICATION[error.code.split('.')[1] ?? ''] ?? 'CLIENT_ERROR';
  const position = error.position;
  return {
    neo4j_code: error.code,
    message: error.message,
    gql_status: gqlStatus,
    description: `${description}. ${error.message}`,
    diagnostic_record: {
      OPERATION: '',
      OPERATION_CODE: '0',
      CURRENT_SCHEMA: '/',
      _classification: classification,
      _position: position ? { offset: BigInt(position.offset), line: BigInt(position.line), column: BigInt(position.column) } : undefined,
    },
  };
}
