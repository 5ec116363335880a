/** Structured logs: one pino logger per process, level from `logging.level` (`GRAPHDB_LOG_LEVEL`). */
import { pino, type Logger } from 'pino';
import type { LogLevel } from '../engine/config/index.js';

/** Creates the process logger writing JSON lines to stdout (or to `destination`). */
export function createLogger(level: LogLevel, destination?: NodeJS.WritableStream): Logger {
  const options = {
    level,
    base: { service: 'graphdb', pid: process.pid },
    timestamp: pino.stdTimeFunctions.isoTime,
  };
  return destination === undefined ? pino(options) : pino(options, destination);
}
