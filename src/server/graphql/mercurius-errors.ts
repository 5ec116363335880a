/**
 * mercurius' error formatter: mercurius' own status rules (200 with `errors`, 400 when a request
 * cannot execute), with every error carrying `extensions.code` (see errors.ts).
 */
import { GraphQLError, type ExecutionResult } from 'graphql';
import mercurius from 'mercurius';
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
