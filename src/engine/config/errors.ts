/**
 * A configuration problem found while loading or validating settings. The message always names
 * the key (dotted path or environment variable) and where the value came from.
 */
export class ConfigError extends Error {
  constructor(
    message: string,
    /** Dotted path or environment variable name of the offending setting. */
    readonly key: string,
    /** File path, `environment`, `flags` or `overrides`. */
    readonly source: string,
  ) {
    super(message);
    this.name = 'ConfigError';
  }
}
