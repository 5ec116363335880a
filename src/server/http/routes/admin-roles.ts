/**
 * Route group (admin only) of roles and users: `GET/POST /admin/roles`, `DELETE
 * /admin/roles/{role}`, the role database allowlists `PUT /admin/roles/{role}/databases` (JSON
 * array of database names) and `DELETE /admin/roles/{role}/databases` (no restriction), and
 * `GET/POST /admin/users`, `PATCH/DELETE /admin/users/{username}`.
 */
import type { FastifyInstance, FastifyPluginAsync, FastifyRequest } from 'fastify';
import { isPermission, type AuthService, type RoleDefinition } from '../../../engine/auth/index.js';
import { ClientError, StatusCodes } from '../../../engine/index.js';

const admin = { auth: 'admin' } as const;
/** An administration that writes: a cluster follower forwards it to the leader (leader-forwarding.ts). */
const adminWrite = { auth: 'admin', leader: true } as const;
const roleParams = { type: 'object', required: ['role'], properties: { role: { type: 'string' } } } as const;
const userParams = { type: 'object', required: ['username'], properties: { username: { type: 'string' } } } as const;

function invalid(message: string): ClientError {
  return new ClientError(StatusCodes.InvalidRequest, message);
}

function fieldsOf(request: FastifyRequest): Record<string, unknown> {
  const value = request.body;
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}

function stringList(value: unknown, what: string): string[] {
  if (!Array.isArray(value) || !value.every((v) => typeof v === 'string' && v !== ''))
    throw invalid(`${what} must be an array of non-empty strings.`);
  return value as string[];
}

function roleView(role: RoleDefinition): Record<string, unknown> {
  return { name: role.name, builtin: role.builtin, permissions: role.permissions, databases: role.databases };
}

/** The route plugin over an auth service. */
export function adminRoleRoutes(auth: AuthService): FastifyPluginAsync {
  return async (app: FastifyInstance) => {
    const roleOrNotFound = (name: string): RoleDefinition => {
      const role = auth.store.role(name);
      if (!role) throw Object.assign(new Error(`Role '${name}' does not exist.`), { statusCode: 404 });
      return role;
    };

    app.get(
      '/admin/roles',
      { config: admin, schema: { summary: 'Roles with permissions and database allowlists', tags: ['admin'] } },
      async () => ({
        roles: auth.listRoles().map(roleView),
      }),
    );

    app.post('/admin/roles', { config: adminWrite, schema: { summary: 'Create a role', tags: ['admin'] } }, async (request, reply) => {
      const fields = fieldsOf(request);
      if (typeof fields.name !== 'string') throw invalid("'name' is required.");
      const permissions = fields.permissions === undefined ? ['read'] : stringList(fields.permissions, "'permissions'");
      if (!permissions.every(isPermission)) throw invalid(`'permissions' may contain only read, write, delete, schema, admin.`);
      const role = await auth.createRole(fields.name, permissions, request.security.username);
      if (fields.databases !== undefined)
        await auth.setRoleDatabases(role.name, stringList(fields.databases, "'databases'"), request.security.username);
      void reply.status(201);
      return roleView(auth.store.role(role.name)!);
    });

    app.delete<{ Params: { role: string } }>(
      '/admin/roles/:role',
      { config: adminWrite, schema: { summary: 'Drop a user-defined role', tags: ['admin'], params: roleParams } },
      async (request) => {
        roleOrNotFound(request.params.role);
        return { dropped: await auth.dropRole(request.params.role, request.security.username) };
      },
    );

    app.put<{ Params: { role: string } }>(
      '/admin/roles/:role/databases',
      { config: adminWrite, schema: { summary: 'Restrict a role to the listed databases', tags: ['admin'], params: roleParams } },
      async (request) => {
        roleOrNotFound(request.params.role);
        const body = request.body;
        const databases = stringList(Array.isArray(body) ? body : fieldsOf(request).databases, 'The body');
        return roleView(await auth.setRoleDatabases(request.params.role, databases, request.security.username));
      },
    );

    app.delete<{ Params: { role: string } }>(
      '/admin/roles/:role/databases',
      { config: adminWrite, schema: { summary: 'Remove the database restriction of a role', tags: ['admin'], params: roleParams } },
      async (request) => {
        roleOrNotFound(request.params.role);
        return roleView(await auth.setRoleDatabases(request.params.role, [], request.security.username));
      },
    );

    app.get('/admin/users', { config: admin, schema: { summary: 'Users and their roles', tags: ['admin'] } }, async () => ({
      users: auth.listUsers(),
    }));

    app.post('/admin/users', { config: adminWrite, schema: { summary: 'Create a user', tags: ['admin'] } }, async (request, reply) => {
      const fields = fieldsOf(request);
      if (typeof fields.username !== 'string' || typeof fields.password !== 'string')
        throw invalid("'username' and 'password' are required.");
      const roles = fields.roles === undefined ? [] : stringList(fields.roles, "'roles'");
      void reply.status(201);
      return auth.createUser(fields.username, fields.password, roles, request.security.username);
    });

    app.patch<{ Params: { username: string } }>(
      '/admin/users/:username',
      { config: adminWrite, schema: { summary: 'Change password, roles or suspension of a user', tags: ['admin'], params: userParams } },
      async (request) => {
        const fields = fieldsOf(request);
        if (fields.password !== undefined && typeof fields.password !== 'string') throw invalid("'password' must be a string.");
        if (fields.suspended !== undefined && typeof fields.suspended !== 'boolean') throw invalid("'suspended' must be a boolean.");
        return auth.alterUser(
          request.params.username,
          {
            ...(typeof fields.password === 'string' ? { password: fields.password } : {}),
            ...(typeof fields.suspended === 'boolean' ? { suspended: fields.suspended } : {}),
            ...(fields.roles !== undefined ? { roles: stringList(fields.roles, "'roles'") } : {}),
          },
          request.security.username,
        );
      },
    );

    app.delete<{ Params: { username: string } }>(
      '/admin/users/:username',
      { config: adminWrite, schema: { summary: 'Drop a user', tags: ['admin'], params: userParams } },
      async (request) => ({
        dropped: await auth.dropUser(request.params.username, request.security.username),
      }),
    );
  };
}
