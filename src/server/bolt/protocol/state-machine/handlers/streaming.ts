import { ClientError, StatusCodes } from '../../../../../engine/index.js';
import type { RequestMessage } from '../../messages.js';
import type { ConnectionState, OpenResult } from '../connection-state.js';
import { streamRecords } from '../result-streaming.js';
import { State, type Transition } from '../states.js';

type StreamMessage = Extract<RequestMessage, { type: 'PULL' | 'DISCARD' }>;

/** STREAMING + PULL/DISCARD: the auto-commit result; READY once it is finished. */
export async function handleAutoCommitStream(state: ConnectionState, message: StreamMessage): Promise<Transition> {
  const result = state.autoCommit;
  if (!result) throw new ClientError(StatusCodes.InvalidRequest, 'No open result to stream.');
  const finished = await streamRecords(state, result, message.n, message.type === 'PULL');
  if (!finished) return State.STREAMING;
  state.autoCommit = null;
  return State.READY;
}

/** TX_STREAMING + PULL/DISCARD: one of the transaction's open results, chosen by `qid`. */
export async function handleTransactionStream(state: ConnectionState, message: StreamMessage): Promise<Transition> {
  const tx = state.transaction;
  if (!tx) throw new ClientError(StatusCodes.InvalidRequest, 'No open transaction.');
  const qid = message.qid === -1 ? tx.lastQid : message.qid;
  const result: OpenResult | undefined = tx.results.get(qid);
  if (!result) throw new ClientError(StatusCodes.InvalidRequest, `No open result with qid ${message.qid}.`);
  const finished = await streamRecords(state, result, message.n, message.type === 'PULL');
  if (finished) tx.results.delete(qid);
  return tx.results.size > 0 ? State.TX_STREAMING : State.TX_READY;
}
