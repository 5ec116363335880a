/**
 * The engine's change-event bus: listeners receive each committed transaction's events
 * (never a rolled-back one's). A throwing listener does not affect others or the writer.
 */
import type { ChangeEvent } from './graph-store.js';

/** Subscribe to committed changes. */
export interface ChangeEventSource {
  /** Registers a listener; returns the function that unsubscribes it. */
  subscribe(listener: (events: readonly ChangeEvent[]) => void): () => void;
}

/** A synchronous fan-out bus. */
export class EventBus implements ChangeEventSource {
  private readonly listeners = new Set<(events: readonly ChangeEvent[]) => void>();

  constructor(private readonly onListenerError: (error: unknown) => void = () => {}) {}

  subscribe(listener: (events: readonly ChangeEvent[]) => void): () => void {
    this.listeners.add(listener);
    return () => {
      this.listeners.delete(listener);
    };
  }

  get hasSubscribers(): boolean {
    return this.listeners.size > 0;
  }

  publish(events: readonly ChangeEvent[]): void {
    for (const listener of [...this.listeners]) {
      try {
        listener(events);
      } catch (error) {
        this.onListenerError(error);
      }
    }
  }
}
