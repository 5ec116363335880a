import { ClientError, StatusCodes } from '../../../../../engine/index.js';
import type { RequestMessage } from '../../messages.js';
import { runSuccess } from '../../summary-metadata.js';
import type { ConnectionState, OpenTransaction } from '../connection-state.js';
import { State, type Transition } from '../states.js';
import { parametersOf } from './transaction-options.js';

function openTransaction(state: ConnectionState): OpenTransaction {
  const tx = state.transaction;
  if (!tx) throw new ClientError(StatusCodes.InvalidRequest, 'No open transaction.');
  return tx;
}

/** TX_READY/TX_STREAMING + RUN: a statement in the transaction; its result gets a `qid`. */
export async function handleTransactionRun(state: ConnectionState, message: Extract<RequestMessage, { type: 'RUN' }>): Promise<Transition> {
  const tx = openTransaction(state);
  const started = performance.now();
  const stream = await tx.transaction.run(message.query, parametersOf(message.parameters));
  const qid = tx.nextQid++;
  tx.lastQid = qid;
  tx.results.set(qid, { qid, stream, session: tx.session, autoCommit: false, filter: tx.filter, streamedRecords: false });
  state.success(runSuccess(stream.keys, performance.now() - started, qid, null));
  return State.TX_STREAMING;
}

/** TX_READY/TX_STREAMING + COMMIT: unconsumed results are discarded, then the commit's bookmark. */
export async function handleCommit(state: ConnectionState): Promise<Transition> {
  const tx = openTransaction(state);
  for (const result of tx.results.values()) await result.stream.discard();
  tx.results.clear();
  state.transaction = null;
  const bookmark = await tx.transaction.commit();
  state.success(state.features.reportsDatabase ? { bookmark, db: tx.database } : { bookmark });
  return State.READY;
}

/** TX_READY/TX_STREAMING + ROLLBACK. */
export async function handleRollback(state: ConnectionState): Promise<Transition> {
  const tx = openTransaction(state);
  tx.results.clear();
  state.transaction = null;
  await tx.transaction.rollback();
  state.success({});
  return State.READY;
}
