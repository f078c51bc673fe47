import { setTimeout as sleep } from 'node:timers/promises';

// Loaded on the first password a process checks: the native module and its runtime threads cost a process
// that no one signs in to (an API-only deployment) about 11 MB of resident memory.
const argon2 = () => import('@node-rs/argon2');

/**
 * Argon2 runs on libuv's thread pool (4 threads unless UV_THREADPOOL_SIZE says otherwise), which file reads, DNS
 * lookups and zlib share, and each hash holds a thread for about 50 ms. So one hash runs at a time in a process,
 * leaving the other threads to the rest of shipd however many sign-ins come in; a few more may wait their turn,
 * and one beyond them is turned away at once (PasswordsBusy) rather than queued without end.
 */
const concurrency = 1;
const queueLimit = 16;

export class PasswordsBusy extends Error {
  constructor() {
    super('too many password checks are waiting');
  }
}

let running = 0;
const waiting: (() => void)[] = [];

async function gated<T>(work: () => Promise<T>): Promise<T> {
  if (running < concurrency) {
    running++;
  } else {
    if (waiting.length >= queueLimit) throw new PasswordsBusy();
    // The finishing task hands its place straight to the first in line, so `running` never dips in between.
    await new Promise<void>((resolve) => waiting.push(resolve));
  }
  try {
    return await work();
  } finally {
    const next = waiting.shift();
    if (next) next();
    else running--;
  }
}

const done = { hashes: 0, verifies: 0, decoys: 0 };

/** How many Argon2 hashes and verifies this process has run, and how many decoys stood in for one. */
export function passwordWorkDone(): Readonly<typeof done> {
  return { ...done };
}

/** How long a verify takes on this machine, smoothed over the recent ones; a first guess until one has run. */
let typicalVerifyMs = 50;

export function hashPassword(password: string): Promise<string> {
  return gated(async () => {
    done.hashes++;
    return (await argon2()).hash(password);
  });
}

/** Whether the password is the one the hash was made from; a hash that cannot be read matches nothing. */
export function verifyPassword(passwordHash: string, password: string): Promise<boolean> {
  return gated(async () => {
    done.verifies++;
    const { verify } = await argon2();
    const started = performance.now();
    const matches = await verify(passwordHash, password).catch(() => false);
    typicalVerifyMs = 0.8 * typicalVerifyMs + 0.2 * (performance.now() - started);
    return matches;
  });
}

/**
 * What checking a password against an email without a user costs the caller: a place in the same line and as long
 * as a verify, on a timer rather than a thread, so the answer's timing tells no one which emails have a user.
 */
export function passwordDecoy(): Promise<false> {
  return gated(async () => {
    done.decoys++;
    await sleep(typicalVerifyMs);
    return false as const;
  });
}
