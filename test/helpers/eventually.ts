import { setTimeout as delay } from 'node:timers/promises';

/**
 * Polls `check` until it returns a value (not undefined), failing after `timeoutMs`: for effects
 * that have no event to wait on (a background worker's result seen through HTTP, a child's state).
 */
export async function eventually<T>(check: () => T | undefined | Promise<T | undefined>, what: string, timeoutMs = 15_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await delay(10);
  }
}
