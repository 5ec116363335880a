/**
 * mercurius' error formatter: mercurius' own status rules (200 with `errors`, 400 when a request
 * cannot execute), with every error carrying `extensions.code` (see errors.ts).
 */
import { GraphQLError, type ExecutionResult } from 'graphql';
import mercurius from 'mercurius';
import { GraphError } from '../../engine/index.js';
import { mapError } from '../http/http-errors.js';
import { formatError, toGraphqlError } from './errors.js';

type Formatter = NonNullable<Parameters<typeof mercurius>[1]>['errorFormatter'];

/** Flattens mercurius' wrapped validation errors and formats each one. */
export const formatMercuriusErrors: Formatter = (execution, context) => {
  const { statusCode } = mercurius.defaultErrorFormatter(execution, context);
  const errors = execution.errors.flatMap((error) => {
    const nested = (error.originalError as { errors?: unknown } | undefined)?.errors;
    return Array.isArray(nested) ? nested.map(toGraphqlError) : [error instanceof GraphQLError ? error : toGraphqlError(error)];
  });
  const response: ExecutionResult = { data: execution.data ?? null, errors: errors.map(formatError) as never };
  return { statusCode, response };
};

type ErrorHandler = Exclude<NonNullable<Parameters<typeof mercurius>[1]>['errorHandler'], boolean | undefined>;

/**
 * Errors thrown before execution on the `/graphql` routes: refused credentials and permissions
 * (from the security hook) keep their HTTP status (401 with `WWW-Authenticate`, 403) in a GraphQL
 * body; request and validation errors go through `formatMercuriusErrors`.
 */
export const handleMercuriusError: ErrorHandler = (error, _request, reply) => {
  if (error instanceof GraphError) {
    const { status } = mapError(error);
    if (status === 401) void reply.header('WWW-Authenticate', 'Basic realm="graphdb", charset="UTF-8"');
    void reply.code(status).send({ data: null, errors: [{ message: error.message, extensions: { code: error.code } }] });
    return;
  }
  const { statusCode, response } = formatMercuriusErrors({ errors: [toGraphqlError(error)] }, { reply } as never);
  void reply.code(statusCode).send(response);
};
