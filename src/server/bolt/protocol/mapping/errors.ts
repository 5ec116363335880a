import { ClientError, StatusCodes } from '../../../../engine/index.js';

/** A well-formed value the server cannot accept (wrong structure fields, entity as parameter). */
export function invalidValue(message: string): ClientError {
  return new ClientError(StatusCodes.InvalidFormat, message);
}
