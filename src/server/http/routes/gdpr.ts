/**
 * Route group (authenticated): GDPR data export and erasure.
 *
 * The data subject is the caller. An admin (and, with authentication disabled, every caller,
 * who then has no user name) names the subject explicitly (`?subject=` on export, `subject` in
 * the erasure body) to serve a request on someone's behalf.
 *
 * A subject's graph data is every node whose `owner` property (`GDPR_OWNER_PROPERTY`) equals
 * the subject's user name, in every user database, plus the relationships touching those nodes.
 *
 * - `GET /gdpr/export`: the subject's account (user name, roles, flags; never the password hash)
 *   and graph data, as one JSON document.
 * - `POST /gdpr/delete` `{confirm: true, subject?, delete_account?}`: detaches and deletes the
 *   subject's nodes in every user database (one transaction per database); with
 *   `delete_account: true` the account is dropped too (existing tokens stop working). Returns
 *   the per-database counts. The request is logged (who, for whom, counts), never the data.
 * Both first flush the write-behind queue, so acknowledged asynchronous CREATEs are included
 * (and none lands after an erasure). Both run with full rights scoped to the subject's own data, so a read-only user can still
 * export and erase what they own.
 */
import type { FastifyInstance, FastifyPluginAsync, FastifyRequest } from 'fastify';
import { Forbidden, StatusCodes, SYSTEM_DATABASE, type GraphDB, graphError } from '../../../engine/index.js';
import { rowJson } from '../json/values-out.js';
import { UNRESTRICTED } from '../security-context.js';

/** The node property that names a node's owner (the user name of the data subject). */
export const GDPR_OWNER_PROPERTY = 'owner';

/** Inputs of the GDPR routes. */
export interface GdprRouteOptions {
  readonly graphdb: GraphDB;
}

const authenticated = { auth: 'authenticated' } as const;
const objectResponse = { 200: { type: 'object', additionalProperties: true } } as const;

const EXPORT_NODES = `MATCH (n) WHERE n.${GDPR_OWNER_PROPERTY} = $subject RETURN elementId(n), labels(n), properties(n) ORDER BY elementId(n)`;
const EXPORT_RELATIONSHIPS = `MATCH (n)-[r]-(m) WHERE n.${GDPR_OWNER_PROPERTY} = $subject
  RETURN DISTINCT elementId(r), type(r), elementId(startNode(r)), elementId(endNode(r)), properties(r) ORDER BY elementId(r)`;
const ERASE = `MATCH (n) WHERE n.${GDPR_OWNER_PROPERTY} = $subject DETACH DELETE n`;

async function allRows(graphdb: GraphDB, database: string, statement: string, subject: string): Promise<unknown[][]> {
  const session = graphdb.session({ database, security: UNRESTRICTED });
  try {
    const stream = await session.run(statement, { subject });
    const rows: unknown[][] = [];
    let more = true;
    while (more) {
      const page = await stream.pull(1000);
      for (const record of page.records) rows.push(JSON.parse(rowJson(record)) as unknown[]);
      more = page.hasMore;
    }
    return rows;
  } finally {
    await session.close();
  }
}

/** The GDPR route plugin for `graphdb`. */
export function gdprRoutes(options: GdprRouteOptions): FastifyPluginAsync {
  const { graphdb } = options;
  return async function routes(app: FastifyInstance): Promise<void> {
    const services = app.graphdb;
    const userDatabases = (): string[] =>
      graphdb
        .databases()
        .filter((d) => d.name !== SYSTEM_DATABASE && d.status === 'online')
        .map((d) => d.name);
    const isAdmin = (request: FastifyRequest): boolean =>
      services.auth === null ? request.security.roles.includes('admin') : services.auth.isAdmin(request.security);

    const subjectOf = (request: FastifyRequest, named: string | undefined): string => {
      const caller = request.security.username;
      if (named !== undefined && named !== caller) {
        if (!isAdmin(request)) throw new Forbidden('Only an admin may serve a GDPR request for another user.');
        return named;
      }
      if (caller === null) {
        if (named !== undefined) return named;
        throw graphError(StatusCodes.InvalidRequest, 'No authenticated user: name the data subject with `subject`.');
      }
      return caller;
    };

    app.get<{ Querystring: { subject?: string } }>(
      '/gdpr/export',
      {
        config: authenticated,
        schema: {
          summary: "Export the caller's personal data (account and owned graph data)",
          tags: ['gdpr'],
          querystring: {
            type: 'object',
            properties: { subject: { type: 'string', minLength: 1, description: 'Data subject (admins only; default: the caller)' } },
          },
          response: objectResponse,
        },
      },
      async (request) => {
        const subject = subjectOf(request, request.query.subject);
        await services.writeBehind.flushAll();
        const account = services.auth === null ? null : await services.auth.user(subject);
        const databases = [];
        for (const database of userDatabases()) {
          const nodes = (await allRows(graphdb, database, EXPORT_NODES, subject)).map(([id, labels, properties]) => ({
            element_id: id,
            labels,
            properties,
          }));
          const relationships = (await allRows(graphdb, database, EXPORT_RELATIONSHIPS, subject)).map(
            ([id, type, start, end, properties]) => ({
              element_id: id,
              type,
              start,
              end,
              properties,
            }),
          );
          if (nodes.length > 0 || relationships.length > 0) databases.push({ name: database, nodes, relationships });
        }
        services.logger.info({ actor: request.security.username, subject, databases: databases.length }, 'GDPR export served');
        return {
          subject,
          exported_at: new Date().toISOString(),
          owner_property: GDPR_OWNER_PROPERTY,
          account:
            account === null
              ? null
              : { username: account.username, roles: account.roles, suspended: account.suspended, service_account: account.serviceAccount },
          databases,
        };
      },
    );

    app.post<{ Body: { confirm: boolean; subject?: string; delete_account?: boolean } }>(
      '/gdpr/delete',
      {
        // A cluster follower sends the erasure to the leader as the caller (leader-forwarding.ts).
        config: { ...authenticated, leader: true },
        schema: {
          summary: "Erase the caller's personal data (owned nodes, optionally the account)",
          tags: ['gdpr'],
          body: {
            type: 'object',
            required: ['confirm'],
            properties: {
              confirm: { type: 'boolean', description: 'Must be true' },
              subject: { type: 'string', minLength: 1, description: 'Data subject (admins only; default: the caller)' },
              delete_account: { type: 'boolean', default: false, description: 'Also drop the user account' },
            },
          },
          response: objectResponse,
        },
      },
      async (request) => {
        if (request.body.confirm !== true) throw graphError(StatusCodes.InvalidRequest, 'An erasure request needs "confirm": true.');
        const subject = subjectOf(request, request.body.subject);
        await services.writeBehind.flushAll();
        const databases = [];
        for (const database of userDatabases()) {
          const session = graphdb.session({ database, security: UNRESTRICTED });
          try {
            const summary = await (await session.run(ERASE, { subject })).discard();
            const { nodesDeleted, relationshipsDeleted } = summary.counters;
            if (nodesDeleted > 0)
              databases.push({ name: database, nodes_deleted: nodesDeleted, relationships_deleted: relationshipsDeleted });
          } finally {
            await session.close();
          }
        }
        let accountDeleted = false;
        if (request.body.delete_account === true && services.auth !== null) {
          accountDeleted = await services.auth.dropUser(subject, request.security.username);
        }
        services.logger.info({ actor: request.security.username, subject, databases, accountDeleted }, 'GDPR erasure done');
        return { subject, erased_at: new Date().toISOString(), databases, account_deleted: accountDeleted };
      },
    );
  };
}
