/**
 * Tells the delivery worker of this process that an event was just written, so it looks at once instead of at
 * its next poll. The event is still inside its transaction at that moment; the worker looks a moment later, and
 * its poll catches anything that committed later than that (or in another process).
 */
const listeners = new Set<() => void>();

export function notifyOutbox(): void {
  for (const listener of listeners) listener();
}

export function onOutbox(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}
