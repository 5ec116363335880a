/**
 * Route group: `GET /db/{db}/tx/writes/{id}`, the outcome of a write the transactional endpoint
 * acknowledged with 202 (its `writeId` and `Location`): `queued`, `flushed` (with the commit's
 * `version` and `bookmark`) or `failed` (with the Neo4j `code` and `message`). Only the principal
 * that sent the write, or an admin, can read it; anyone else gets the same 404 as for an unknown
 * or evicted id (tx/write-statuses.ts keeps a bounded number of recent outcomes).
 */
import type { FastifyInstance } from 'fastify';
import { StatusCodes } from '../../../engine/index.js';

interface WriteStatusRoute {
  Params: { database: string; id: string };
}

const stateSchema = {
  type: 'object',
  required: ['writeId', 'state'],
  properties: {
    writeId: { type: 'string' },
    state: { type: 'string', enum: ['queued', 'flushed', 'failed'] },
    version: { type: 'string', description: 'Commit version (flushed)' },
    bookmark: { type: 'string', description: 'Bookmark of the commit (flushed)' },
    code: { type: 'string', description: 'Neo4j status code (failed)' },
    message: { type: 'string', description: 'Error message (failed)' },
  },
} as const;

/** Registers the async-write status route. */
export async function writeStatusRoutes(app: FastifyInstance): Promise<void> {
  const { writeStatuses, auth } = app.graphdb;
  app.get<WriteStatusRoute>(
    '/db/:database/tx/writes/:id',
    {
      schema: {
        summary: 'Outcome of an asynchronous (202) write',
        tags: ['cypher'],
        params: {
          type: 'object',
          required: ['database', 'id'],
          properties: { database: { type: 'string' }, id: { type: 'string' } },
        },
        response: { 200: stateSchema },
      },
    },
    async (request, reply) => {
      const { database, id } = request.params;
      const admin = auth === null || auth.isAdmin(request.security);
      const state = writeStatuses.read(id, database, request.security.username, admin);
      if (state === null) {
        return reply
          .status(404)
          .send({ errors: [{ code: StatusCodes.InvalidRequest, message: `Unknown write '${id}' on database '${database}'.` }] });
      }
      return { writeId: id, ...state };
    },
  );
}
