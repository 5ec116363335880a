import { DatabaseNotFound } from '../../../../../engine/index.js';
import type { RequestMessage } from '../../messages.js';
import { notificationFilterOf } from '../../notification-filter.js';
import { runSuccess } from '../../summary-metadata.js';
import type { ConnectionState } from '../connection-state.js';
import { State, type Transition } from '../states.js';
import { databaseOf, parametersOf, transactionOptionsOf } from './transaction-options.js';

type Message<T extends RequestMessage['type']> = Extract<RequestMessage, { type: T }>;

/** READY + RUN: an auto-commit statement; its result stays open (STREAMING) until pulled. */
export async function handleAutoCommitRun(state: ConnectionState, message: Message<'RUN'>): Promise<Transition> {
  const started = performance.now();
  const options = transactionOptionsOf(message.extra);
  const session = await state.sessionFor(databaseOf(message.extra));
  const stream = await session.run(message.query, parametersOf(message.parameters), options);
  const filter = notificationFilterOf(message.extra, state.notificationFilter);
  state.autoCommit = { qid: -1, stream, session, autoCommit: true, filter, streamedRecords: false };
  const db = state.features.reportsDatabase ? session.database : null;
  state.success(runSuccess(stream.keys, performance.now() - started, null, db));
  return State.STREAMING;
}

/** READY + BEGIN: opens an explicit transaction (TX_READY). */
export async function handleBegin(state: ConnectionState, message: Message<'BEGIN'>): Promise<Transition> {
  const options = transactionOptionsOf(message.extra);
  const session = await state.sessionFor(databaseOf(message.extra));
  const transaction = await session.beginTransaction(options);
  state.transaction = {
    transaction,
    session,
    database: session.database,
    results: new Map(),
    filter: notificationFilterOf(message.extra, state.notificationFilter),
    nextQid: 0,
    lastQid: -1,
  };
  state.success(state.features.reportsDatabase ? { db: session.database } : {});
  return State.TX_READY;
}

/**
 * READY + ROUTE: in a cluster, the members' routing table (writers = the leader, readers = the
 * followers, routers = every member); otherwise a table naming this single server as router,
 * reader and writer, so `neo4j://` URIs work. An unknown database is DatabaseNotFound. A single
 * server's address is the advertised one, else the address the client dialled (HELLO
 * `routing.address`), else the socket's local address.
 */
export async function handleRoute(state: ConnectionState, message: Message<'ROUTE'>): Promise<Transition> {
  const requested = message.database ?? undefined;
  if (requested !== undefined && state.services.engine.hasDatabase?.(requested) === false) throw new DatabaseNotFound(requested);
  const session = await state.sessionFor(requested);
  const table = state.services.engine.routingTable?.(session.database) ?? null;
  if (table !== null) {
    state.success({
      rt: {
        ttl: BigInt(table.ttlSeconds),
        db: session.database,
        servers: [
          { addresses: [...table.routers], role: 'ROUTE' },
          { addresses: [...table.readers], role: 'READ' },
          { addresses: [...table.writers], role: 'WRITE' },
        ],
      },
    });
    return State.READY;
  }
  const dialled = state.routingContext?.get('address');
  const address =
    state.services.advertisedAddress ?? (typeof dialled === 'string' && dialled !== '' ? dialled : state.services.localAddress);
  const addresses = [address];
  state.success({
    rt: {
      ttl: BigInt(state.services.routingTtlSeconds),
      db: session.database,
      servers: [
        { addresses, role: 'ROUTE' },
        { addresses, role: 'READ' },
        { addresses, role: 'WRITE' },
      ],
    },
  });
  return State.READY;
}

/** READY + TELEMETRY (5.4+): acknowledged; the hint in HELLO keeps drivers from sending it. */
export async function handleTelemetry(state: ConnectionState): Promise<Transition> {
  state.success({});
  return State.READY;
}
