/**
 * Routes that write what only a cluster's leader may write (users, roles, tokens, the GDPR
 * erasure: `config.leader` set on the route) are sent on by a follower to the leader's HTTP
 * listener with the caller's own credentials (Authorization header, token cookie), so the leader
 * authenticates the caller and checks its rights again; the leader's answer (status and body)
 * is the follower's answer (docs/replication.md). On a single node or the leader nothing changes.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { StatusCodes, TransientError } from '../../engine/index.js';
import type { HttpServices } from './services.js';

/** How long a forwarded request may take on the leader (ms). */
const FORWARD_TIMEOUT_MS = 60_000;
/** The request headers the leader needs: the caller's credentials and the body's type. */
const FORWARDED_HEADERS = ['authorization', 'cookie', 'content-type', 'accept'] as const;

async function forward(services: HttpServices, request: FastifyRequest, reply: FastifyReply): Promise<boolean> {
  const status = services.probes.clusterStatus?.() ?? null;
  if (status === null || status.role === 'LEADER') return false;
  const leader = status.leader;
  if (leader === null || leader.nodeId === status.nodeId) {
    throw new TransientError(StatusCodes.ReplicationFailure, 'No leader is available to take this write yet; retry.');
  }
  // Writes this member acknowledged asynchronously (202) reach the leader first: an erasure includes them.
  await services.writeBehind.flushAll();
  const headers: Record<string, string> = {};
  for (const name of FORWARDED_HEADERS) {
    const value = request.headers[name];
    if (typeof value === 'string') headers[name] = value;
  }
  const body = request.body === undefined || request.body === null ? undefined : JSON.stringify(request.body);
  if (body !== undefined) headers['content-type'] = 'application/json';
  let response: Response;
  let text: string;
  try {
    response = await fetch(`${request.protocol}://${leader.http}${request.url}`, {
      method: request.method,
      headers,
      ...(body === undefined ? {} : { body }),
      signal: AbortSignal.timeout(FORWARD_TIMEOUT_MS),
    });
    text = await response.text();
  } catch (error) {
    // The leader went away or did not answer in time (a failover): the caller may retry once a leader is known.
    throw new TransientError(StatusCodes.ReplicationFailure, `The leader did not answer the forwarded request: ${String(error)}; retry.`);
  }
  reply.code(response.status).header('content-type', response.headers.get('content-type') ?? 'application/json');
  const setCookie = response.headers.get('set-cookie');
  if (setCookie !== null) reply.header('set-cookie', setCookie);
  await reply.send(text);
  return true;
}

/** Installs the forwarding of `config.leader` routes (after authentication and body parsing). */
export function installLeaderForwarding(app: FastifyInstance, services: HttpServices): void {
  app.addHook('preHandler', async (request, reply) => {
    if (request.is404 || request.routeOptions.config.leader !== true) return;
    if (await forward(services, request, reply)) return reply;
  });
}
