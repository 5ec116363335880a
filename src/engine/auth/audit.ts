/**
 * Security events. Every event has a `type`; failed logins carry the username, the client IP
 * (already resolved through the proxy trust boundary by the edge) and the reason.
 */

/** Kinds of security events. */
export type AuditEventType =
  | 'failed_login'
  | 'login_locked'
  | 'token_issued'
  | 'token_revoked'
  | 'user_created'
  | 'user_updated'
  | 'user_dropped'
  | 'role_created'
  | 'role_dropped'
  | 'role_granted'
  | 'role_revoked'
  | 'role_databases_changed'
  | 'role_renamed'
  | 'user_renamed'
  | 'privilege_changed';

/** One security event. */
export interface AuditEvent {
  readonly type: AuditEventType;
  readonly username?: string | null;
  readonly ip?: string | null;
  readonly reason?: string;
  /** Who did it, for administrative events. */
  readonly actor?: string | null;
  readonly [detail: string]: unknown;
}

/** Receives security events (the server logs them). */
export type AuditSink = (event: AuditEvent) => void;
