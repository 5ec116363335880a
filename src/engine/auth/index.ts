/**
 * Authentication and access control: users and roles in the `system` database, scrypt password
 * hashes, JWTs, RBAC decisions, login rate limiting and audit events.
 */
export { AuthService, type AuthServiceOptions, type Principal, type UserView } from './auth-service.js';
export { AuthStore, type UserRecord } from './auth-store.js';
export { coarseAccess, isAdmin, privilegeContext, securityContext } from './access-control.js';
export type { AuditEvent, AuditEventType, AuditSink } from './audit.js';
export { AuthenticationRateLimit, LoginGuard, type LoginGuardOptions } from './login-guard.js';
export { hashPassword, verifyPasswordHash } from './password-hash.js';
export { passwordProblem } from './password-policy.js';
export { ALL_PERMISSIONS, BUILTIN_ROLES, isPermission, isValidName, type RoleDefinition } from './roles.js';
export { MIN_SECRET_BYTES, TokenService, type IssuedToken, type TokenClaims, type TokenType } from './token-service.js';
export { OidcClient, type OidcClientOptions, type OidcIdentity } from './oidc-client.js';
export { securityAdmin } from './security-admin.js';
export { privilegeCommand } from './privileges/command-text.js';
export type { PrivilegeRecord, PrivilegeAction, PrivilegeAccess } from './privileges/types.js';
