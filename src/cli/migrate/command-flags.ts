/** Flags every `graphdb migrate` command takes. */
import { Flags } from '@oclif/core';
import { connectionFlags } from '../connection.js';

/** The migrations folder and the database to migrate. */
export const migrateFlags = {
  ...connectionFlags,
  dir: Flags.string({ description: 'folder of V<version>__<description>.cypher files', default: './migrations' }),
};
