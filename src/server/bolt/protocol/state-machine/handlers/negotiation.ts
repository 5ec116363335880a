import type { RequestMessage } from '../../messages.js';
import { NO_FILTER, notificationFilterOf } from '../../notification-filter.js';
import { stringOf, stringsOf } from '../../messages.js';
import type { ConnectionState } from '../connection-state.js';
import { State, type Transition } from '../states.js';
import { authenticate, authTokenOf } from './auth.js';

type Hello = Extract<RequestMessage, { type: 'HELLO' }>;

/**
 * NEGOTIATION + HELLO. Before 5.1 HELLO carries the credentials and leads to READY; from 5.1
 * credentials come with LOGON, so HELLO leads to AUTHENTICATION. On 4.4 the `utc` patch
 * switches DateTime structures to their UTC form.
 */
export async function handleHello(state: ConnectionState, message: Hello): Promise<Transition> {
  state.userAgent = stringOf(message.extra, 'user_agent') ?? '';
  const routing = message.extra.get('routing');
  state.routingContext = routing instanceof Map ? routing : null;
  state.notificationFilter = notificationFilterOf(message.extra, NO_FILTER);
  const patches = state.features.elementIds ? [] : stringsOf(message.extra, 'patch_bolt').filter((p) => p === 'utc');
  if (patches.includes('utc')) state.mapping.utcDateTime = true;
  if (!state.features.logon) state.security = await authenticate(state, authTokenOf(message.extra));
  state.success({
    server: state.services.serverAgent,
    connection_id: state.services.connectionId,
    hints: {},
    patch_bolt: patches.length > 0 ? patches : undefined,
  });
  return state.features.logon ? State.AUTHENTICATION : State.READY;
}
