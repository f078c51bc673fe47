import { readFileSync } from 'node:fs';

/** A recorded-style FedEx answer from ./fixtures, parsed. */
export function fixture(name: string): unknown {
  return JSON.parse(readFileSync(new URL(`./fixtures/${name}.json`, import.meta.url), 'utf8'));
}
