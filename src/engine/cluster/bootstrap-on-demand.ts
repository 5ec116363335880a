/**
 * The engine's entry point to the snapshot bootstrap (`bootstrap.ts`), which loads it, and with it
 * the NATS and JetStream clients, only when a cluster member calls it: a single server never
 * loads them.
 */
import type { Bootstrapped, BootstrapOptions } from './bootstrap.js';

export type { Bootstrapped, BootstrapOptions } from './bootstrap.js';

/** Runs `bootstrap.ts`'s `bootstrapFromSnapshots`, loading it on the first call. */
export async function bootstrapFromSnapshots(options: BootstrapOptions): Promise<Bootstrapped[]> {
  const { bootstrapFromSnapshots: bootstrap } = await import('./bootstrap.js');
  return bootstrap(options);
}
