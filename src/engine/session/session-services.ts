/**
 * The engine services as one session sees them: SHOW/TERMINATE TRANSACTIONS bound to the
 * session's user (admins see and terminate every transaction, other users their own).
 * Built once per session, so statements pay nothing for it.
 */
import type { AdminHooks } from '../cypher/runtime/admin-hooks.js';
import type { EngineServices } from './statement-execution.js';
import type { TransactionRegistry, TransactionViewer } from './transaction-registry.js';
import type { SecurityContext } from './types.js';

/** The role that sees every transaction and the configuration. */
export const ADMIN_ROLE = 'admin';

/**
 * Who the session's user is for the registry: no security context means embedded, full access.
 * Whether a user is an admin is asked of the security context only when a SHOW/TERMINATE
 * TRANSACTIONS statement needs it (never at session creation).
 */
export function viewerOf(security: SecurityContext | undefined): TransactionViewer {
  if (security === undefined) return { username: null, admin: true };
  let admin: boolean | null = security.roles.includes(ADMIN_ROLE) ? true : null;
  return {
    username: security.username,
    get admin(): boolean {
      admin ??= grantsAdmin(security);
      return admin;
    },
  };
}

/** True when the context grants the admin permission (a custom role may carry it). */
function grantsAdmin(security: SecurityContext): boolean {
  if (!security.authorize) return false;
  try {
    security.authorize('system', 'admin');
    return true;
  } catch {
    return false;
  }
}

/** `services` with `admin.transactions` bound to the session's user. */
export function sessionServices(
  services: EngineServices,
  registry: TransactionRegistry,
  security: SecurityContext | undefined,
): EngineServices {
  const viewer = viewerOf(security);
  const securityAdmin = services.admin.securityFor?.(security);
  const admin: AdminHooks = {
    ...services.admin,
    ...(securityAdmin ? { security: securityAdmin } : {}),
    transactions: {
      list: (ids) => registry.list(viewer, ids),
      terminate: (ids) => registry.terminate(ids, viewer),
    },
    ...(security === undefined ? {} : { currentUser: { username: security.username, roles: security.roles }, isAdmin: () => viewer.admin }),
  };
  const files = services.files.forPrincipal(security?.authorizeLoad === undefined ? null : (url) => security.authorizeLoad!(url));
  return { ...services, admin, files };
}
