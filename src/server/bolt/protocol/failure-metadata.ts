import type { GraphError } from '../../../engine/index.js';
import { errorMapping } from '../../error-mapping.js';
import type { Metadata } from './summary-metadata.js';
import type { ProtocolFeatures } from './versions.js';

/**
 * FAILURE metadata in the shape of the negotiated version: `code` and `message` before 5.7;
 * from 5.7 `neo4j_code`, `message`, `gql_status`, `description` and a `diagnostic_record`.
 */
export function failureMetadata(error: GraphError, features: ProtocolFeatures): Metadata {
  if (!features.gqlErrors) return { code: error.code, message: error.message };
  const { gqlStatus, gqlDescription: description, boltClassification: classification } = errorMapping(error);
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
