/**
 * Connection states, after Neo4j's server `fsm/States`:
 * - NEGOTIATION: handshake done, waiting for HELLO.
 * - AUTHENTICATION: 5.1+, HELLO done, waiting for LOGON.
 * - READY: idle, authenticated.
 * - STREAMING: an auto-commit result is open (PULL/DISCARD).
 * - TX_READY: an explicit transaction is open, no open result.
 * - TX_STREAMING: an explicit transaction with open results.
 * - FAILED: a request failed; everything but RESET/GOODBYE is IGNORED.
 * - INTERRUPTED: a RESET is on its way; everything before it is IGNORED.
 */
export const State = {
  NEGOTIATION: 'NEGOTIATION',
  AUTHENTICATION: 'AUTHENTICATION',
  READY: 'READY',
  STREAMING: 'STREAMING',
  TX_READY: 'TX_READY',
  TX_STREAMING: 'TX_STREAMING',
  FAILED: 'FAILED',
  INTERRUPTED: 'INTERRUPTED',
} as const;

/** One of the states above. */
export type State = (typeof State)[keyof typeof State];

/** A handler's verdict: the next state, or close the connection. */
export type Transition = State | 'CLOSE';
