/**
 * What the route plugins share, attached to the fastify instance as `app.graphdb`, plus the
 * request decorations (`request.security`, `request.clientIp`) and the route `config.auth` field.
 */
import type { Logger } from 'pino';
import type { DatabaseConfigRegistry } from '../../engine/config/index.js';
import type { CacheFigures, ClusterStatus, SecurityContext } from '../../engine/index.js';
import type { ServerEngine } from '../engine-port.js';
import type { GraphdbMetrics } from '../metrics.js';
import type { OpenApiCollector } from './openapi.js';
import type { AuthService } from '../../engine/auth/index.js';
import type { AccessLevel } from './security-context.js';
import type { OpenTransactions } from './tx/open-transactions.js';
import type { WriteBehindQueue } from './tx/write-behind.js';
import type { WriteStatuses } from './tx/write-statuses.js';

/** Readiness of the search indexes, shown in `/admin/stats`. */
export interface SearchReadiness {
  readonly ready: boolean;
  readonly build_phase: string;
  readonly progress_pct: number;
  /** `faiss`, or `exact` when faiss-node is unavailable (then `vector_backend_reason` says why). */
  readonly vector_backend?: 'faiss' | 'exact';
  readonly vector_backend_reason?: string;
  /** Estimated heap bytes of the full-text indexes and their bound (`dbms.memory.search_index.max_size`). */
  readonly index_bytes?: number;
  readonly index_max_bytes?: number;
}

/** JSON schema of `SearchReadiness` in the `/status` and `/admin/stats` responses. */
export const searchReadinessSchema = {
  type: 'object',
  properties: {
    ready: { type: 'boolean' },
    build_phase: { type: 'string' },
    progress_pct: { type: 'number' },
    vector_backend: { type: 'string' },
    vector_backend_reason: { type: 'string' },
    index_bytes: { type: 'integer' },
    index_max_bytes: { type: 'integer' },
  },
} as const;

/** The readiness reported when the server runs without search services. */
export const SEARCH_DISABLED: SearchReadiness = { ready: true, build_phase: 'ready', progress_pct: 100 };

/** Optional providers of subsystem state (search, embeddings). */
export interface SubsystemProbes {
  readonly searchReadiness?: () => SearchReadiness;
  readonly embeddingsPending?: () => number;
  /** Replication role, leader, applied sequence and lag; absent or null on a single node. */
  readonly clusterStatus?: () => ClusterStatus | null;
  /** The engine's caches (query and plan, regular expressions) for `/status`. */
  readonly engineCaches?: () => Readonly<Record<string, CacheFigures>>;
}

/** Where the Bolt listener is, for the discovery document; null when Bolt is disabled. */
export interface BoltEndpoint {
  readonly port: number;
}

/** Services shared by every route plugin. */
export interface HttpServices {
  readonly engine: ServerEngine;
  readonly config: DatabaseConfigRegistry;
  readonly configFile: string | null;
  readonly metrics: GraphdbMetrics;
  readonly writeBehind: WriteBehindQueue;
  /** Outcomes of the writes acknowledged with 202. */
  readonly writeStatuses: WriteStatuses;
  readonly transactions: OpenTransactions;
  readonly version: string;
  readonly startedAt: Date;
  readonly probes: SubsystemProbes;
  /** Resolved lazily: the Bolt listener may start after the HTTP app is built. */
  readonly bolt: () => BoltEndpoint | null;
  readonly logger: Logger;
  /** Routes collected for `/openapi.json`. */
  readonly openapi: OpenApiCollector;
  /** Authentication and access control; null when authentication is disabled. */
  readonly auth: AuthService | null;
  /** Caches of route plugins (GraphQL documents) reported in `/status`, by name. */
  readonly caches: Map<string, () => CacheFigures>;
}

declare module 'fastify' {
  interface FastifyInstance {
    graphdb: HttpServices;
  }
  interface FastifyRequest {
    security: SecurityContext;
    clientIp: string;
  }
  /** OpenAPI fields read by openapi.ts. */
  interface FastifySchema {
    summary?: string;
    description?: string;
    tags?: readonly string[];
    /** Left out of the OpenAPI document. */
    hide?: boolean;
    /** Response content type when not JSON. */
    produces?: string;
  }
  interface FastifyContextConfig {
    /** Access level; routes without one are 'authenticated'. */
    auth?: AccessLevel;
    /** The route writes what only a cluster's leader writes: a follower forwards it (leader-forwarding.ts). */
    leader?: boolean;
  }
}
