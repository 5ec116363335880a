import { ClientError, StatusCodes } from '../../../../engine/index.js';
import { describeRequest, type RequestMessage, type RequestType } from '../messages.js';
import type { ConnectionState } from './connection-state.js';
import { handleLogoff, handleLogon } from './handlers/authentication.js';
import { handleHello } from './handlers/negotiation.js';
import { handleAutoCommitRun, handleBegin, handleRoute, handleTelemetry } from './handlers/ready.js';
import { handleAutoCommitStream, handleTransactionStream } from './handlers/streaming.js';
import { handleCommit, handleRollback, handleTransactionRun } from './handlers/transaction.js';
import { StreamInterrupted } from './result-streaming.js';
import { State, type Transition } from './states.js';

// Handlers are typed by the message they accept; the table erases that, dispatch restores it.
type Handler = (state: ConnectionState, message: never) => Promise<Transition>;

/**
 * One handler per (state, message), as Neo4j's server `fsm/` does. RESET and GOODBYE are
 * valid everywhere and handled by the machine itself; a message without a handler in the
 * current state is a protocol violation (FAILED), or IGNORED while FAILED/INTERRUPTED.
 */
const TRANSITIONS: Readonly<Record<State, Partial<Record<RequestType, Handler>>>> = {
  [State.NEGOTIATION]: { HELLO: handleHello },
  [State.AUTHENTICATION]: { LOGON: handleLogon },
  [State.READY]: {
    RUN: handleAutoCommitRun,
    BEGIN: handleBegin,
    ROUTE: handleRoute,
    LOGOFF: handleLogoff,
    TELEMETRY: handleTelemetry,
  },
  [State.STREAMING]: { PULL: handleAutoCommitStream, DISCARD: handleAutoCommitStream },
  [State.TX_READY]: { RUN: handleTransactionRun, COMMIT: handleCommit, ROLLBACK: handleRollback },
  [State.TX_STREAMING]: {
    RUN: handleTransactionRun,
    PULL: handleTransactionStream,
    DISCARD: handleTransactionStream,
    COMMIT: handleCommit,
    ROLLBACK: handleRollback,
  },
  [State.FAILED]: {},
  [State.INTERRUPTED]: {},
};

/** States in which a failure closes the connection (nobody is authenticated yet). */
const PRE_AUTH: ReadonlySet<State> = new Set([State.NEGOTIATION, State.AUTHENTICATION]);

/** The Bolt server state machine of one connection. */
export class StateMachine {
  private current: State = State.NEGOTIATION;
  /** RESETs received but not yet processed: everything queued before them is IGNORED. */
  private pendingResets = 0;

  constructor(private readonly state: ConnectionState) {}

  get currentState(): State {
    return this.current;
  }

  /**
   * Called by the reader the moment a RESET is decoded, ahead of the queue: running work
   * stops at its next check and queued messages are IGNORED until the RESET is processed.
   */
  interrupt(): void {
    this.pendingResets++;
    this.state.interrupted = true;
    if (this.current !== State.NEGOTIATION && this.current !== State.AUTHENTICATION) this.current = State.INTERRUPTED;
  }

  /** Processes one message; resolves to false when the connection must close. */
  async process(message: RequestMessage): Promise<boolean> {
    if (this.state.debugEnabled) this.state.log(`C: ${describeRequest(message)}`);
    if (message.type === 'GOODBYE') return false;
    if (message.type === 'RESET') return this.reset();
    if (this.pendingResets > 0 || this.current === State.FAILED || this.current === State.INTERRUPTED) {
      this.state.ignored();
      return true;
    }
    const handler = TRANSITIONS[this.current][message.type];
    if (!handler) return this.fail(this.invalidInState(message.type));
    try {
      const next = await (handler as (state: ConnectionState, message: RequestMessage) => Promise<Transition>)(this.state, message);
      if (next === 'CLOSE') return false;
      if (this.pendingResets === 0) this.current = next;
      return true;
    } catch (error) {
      if (error instanceof StreamInterrupted) {
        this.state.ignored();
        return true;
      }
      return this.fail(error);
    }
  }

  /** Releases the connection's work (the connection is going away). */
  async shutdown(): Promise<void> {
    await this.state.abandonWork();
    await this.state.closeSessions();
  }

  private async reset(): Promise<boolean> {
    if (this.pendingResets > 0) this.pendingResets--;
    if (this.pendingResets === 0) this.state.interrupted = false;
    await this.state.abandonWork();
    if (this.state.security === null) {
      if (this.current === State.NEGOTIATION) return this.fail(this.invalidInState('RESET'));
      this.state.success({});
      this.current = State.AUTHENTICATION;
      return true;
    }
    this.state.success({});
    if (this.pendingResets === 0) this.current = State.READY;
    return true;
  }

  private async fail(error: unknown): Promise<boolean> {
    const wasPreAuth = PRE_AUTH.has(this.current);
    this.state.failure(error);
    if (this.state.autoCommit) {
      const result = this.state.autoCommit;
      this.state.autoCommit = null;
      await result.stream.discard().catch(() => undefined);
    }
    this.current = State.FAILED;
    return !wasPreAuth;
  }

  private invalidInState(type: RequestType): ClientError {
    return new ClientError(StatusCodes.InvalidRequest, `Message '${type}' cannot be handled by a session in the ${this.current} state.`);
  }
}
