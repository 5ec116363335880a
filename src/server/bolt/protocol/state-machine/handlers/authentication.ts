import type { RequestMessage } from '../../messages.js';
import type { ConnectionState } from '../connection-state.js';
import { State, type Transition } from '../states.js';
import { authenticate, authTokenOf } from './auth.js';

/** AUTHENTICATION + LOGON (5.1+): credentials checked, READY on success. */
export async function handleLogon(state: ConnectionState, message: Extract<RequestMessage, { type: 'LOGON' }>): Promise<Transition> {
  state.security = await authenticate(state, authTokenOf(message.auth));
  state.success({});
  return State.READY;
}

/** READY + LOGOFF (5.1+): forget the identity and its sessions; LOGON may follow. */
export async function handleLogoff(state: ConnectionState): Promise<Transition> {
  state.security = null;
  await state.closeSessions();
  state.success({});
  return State.AUTHENTICATION;
}
