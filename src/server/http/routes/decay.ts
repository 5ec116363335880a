/**
 * Route group: `GET /graphdb/decay` — memory decay statistics of a database (`?database=`,
 * default the default database; read access needed): settings in effect, memories per half-life
 * profile with their scores, archived and no-decay counts, a score histogram and the last
 * recalculation. Scores are computed at request time from the memories' timestamps.
 */
import type { FastifyInstance, FastifyPluginAsync } from 'fastify';
import { DatabaseNotFound, type GraphDB } from '../../../engine/index.js';

/** Options of the decay route group. */
export interface DecayRoutesOptions {
  readonly graphdb: GraphDB;
}

/** The `/graphdb/decay` route group. */
export function decayRoutes(options: DecayRoutesOptions): FastifyPluginAsync {
  return async (app: FastifyInstance) => {
    const { graphdb } = options;
    app.get('/graphdb/decay', { schema: { summary: 'Memory decay statistics', tags: ['search'] } }, async (request) => {
      const query = request.query as { database?: unknown };
      const database = typeof query.database === 'string' && query.database !== '' ? query.database : graphdb.defaultDatabase;
      if (!app.graphdb.engine.hasDatabase(database)) throw new DatabaseNotFound(database);
      request.security.authorize?.(database, 'read');
      return graphdb.memoryDecay.stats(graphdb.cypherRunner({ database, security: request.security }), database);
    });
  };
}
