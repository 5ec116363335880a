import type { AdminCommand, SchemaCommand } from '../../ast/index.js';

/** A schema or administration command (CREATE INDEX, SHOW DATABASES, ...), run as one operator. */
export interface CommandCall {
  readonly op: 'CommandCall';
  readonly command: SchemaCommand | AdminCommand;
  readonly columns: readonly string[];
}
