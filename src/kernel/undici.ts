import type * as Undici from 'undici';

let loaded: Promise<typeof Undici> | undefined;

/**
 * undici, loaded on first use: its 1 MB of sources would otherwise sit compiled in every process's heap, while a
 * shipd in test mode without webhooks never sends a request with it (issue 31's idle memory).
 */
export const undici = (): Promise<typeof Undici> => (loaded ??= import('undici'));
