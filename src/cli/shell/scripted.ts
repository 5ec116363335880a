/**
 * Non-interactive shell: statements come from a stream (stdin or `--file`), results go to
 * stdout, errors to stderr. Stops at the first error unless `continueOnError`.
 */
import { LineReader } from '../../engine/transfer/index.js';
import type { ShellCore } from './core.js';

/** Lines of a file or of a readable stream. */
async function* linesOf(source: string | NodeJS.ReadableStream): AsyncGenerator<string> {
  if (typeof source === 'string') {
    for await (const { text } of new LineReader(source).lines()) yield text;
    return;
  }
  const { createInterface } = await import('node:readline');
  for await (const line of createInterface({ input: source, crlfDelay: Infinity })) yield line;
}

/** Runs a script through the shell core; resolves to the number of failed statements/commands. */
export async function runScript(core: ShellCore, source: string | NodeJS.ReadableStream, continueOnError: boolean): Promise<number> {
  let failures = 0;
  for await (const line of linesOf(source)) {
    const outcome = await core.line(line);
    if (outcome === 'exit') return failures;
    if (outcome === 'error') {
      failures++;
      if (!continueOnError) return failures;
    }
  }
  if ((await core.finish()) === 'error') failures++;
  if (core.client.inTransaction) await core.client.rollback();
  return failures;
}
