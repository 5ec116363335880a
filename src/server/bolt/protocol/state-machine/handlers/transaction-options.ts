import { ClientError, StatusCodes, type QueryParameters, type TransactionOptions, type CypherValue } from '../../../../../engine/index.js';
import { wireToCypher } from '../../mapping/index.js';
import { integerOf, stringOf, stringsOf, type WireMap } from '../../messages.js';

/** The `db` of RUN/BEGIN metadata; absent or empty means the default database. */
export function databaseOf(extra: WireMap): string | undefined {
  const db = stringOf(extra, 'db');
  return db === undefined || db === '' ? undefined : db;
}

/** Reads `mode`, `tx_timeout`, `tx_metadata` and `bookmarks` of RUN/BEGIN metadata. */
export function transactionOptionsOf(extra: WireMap): TransactionOptions {
  if (stringOf(extra, 'imp_user')) {
    throw new ClientError(StatusCodes.Forbidden, 'Impersonation is not supported by this server.');
  }
  const metadata = extra.get('tx_metadata');
  const timeout = integerOf(extra, 'tx_timeout');
  return {
    mode: stringOf(extra, 'mode') === 'r' ? 'READ' : 'WRITE',
    timeoutMs: timeout !== undefined && timeout > 0 ? timeout : undefined,
    metadata: metadata instanceof Map ? (wireToCypher(metadata) as ReadonlyMap<string, CypherValue>) : undefined,
    bookmarks: stringsOf(extra, 'bookmarks'),
  };
}

/** RUN parameters as Cypher values. */
export function parametersOf(parameters: WireMap): QueryParameters {
  const out = new Map<string, CypherValue>();
  for (const [key, value] of parameters) out.set(key, wireToCypher(value));
  return out;
}
