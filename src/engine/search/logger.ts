/** The logging surface search components use (pino's `info`/`warn` shape, message-first). */
export interface SearchLogger {
  info(message: string): void;
  warn(message: string): void;
}

/** A logger that discards everything (the default; the server passes its pino logger). */
export const silentLogger: SearchLogger = { info: () => undefined, warn: () => undefined };
