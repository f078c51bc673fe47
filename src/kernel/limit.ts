/**
 * Runs at most `most` of the tasks given to it at once; the others wait their turn in the order they came. A task
 * whose signal aborts while it waits is never started: its promise rejects with the signal's reason, so work that
 * nobody will read (a rate search past its time-out) does not go out.
 */
export type Limit = <T>(signal: AbortSignal, task: () => Promise<T>) => Promise<T>;

export function limit(most: number): Limit {
  if (!Number.isInteger(most) || most < 1) throw new RangeError(`limit(${most}): at least one task must be able to run`);
  let running = 0;
  const waiting: (() => void)[] = [];
  // A finishing task hands its place straight to the next one waiting, so no newcomer can slip in between.
  const release = () => {
    const next = waiting.shift();
    if (next) next();
    else running--;
  };
  return async (signal, task) => {
    signal.throwIfAborted();
    if (running < most) {
      running++;
    } else {
      await new Promise<void>((resolve, reject) => {
        const go = () => {
          signal.removeEventListener('abort', stop);
          resolve();
        };
        const stop = () => {
          waiting.splice(waiting.indexOf(go), 1);
          reject(signal.reason);
        };
        waiting.push(go);
        signal.addEventListener('abort', stop, { once: true });
      });
    }
    try {
      return await task();
    } finally {
      release();
    }
  };
}
