import type { Kysely } from 'kysely';
import type { Config } from '../config.ts';
import type { DatabaseKind } from '../db/database.ts';
import type { DB } from '../db/schema.ts';
import type { Clock } from './clock.ts';
import type { Principal } from './key-store.ts';
import type { RateStore } from './rate-store.ts';

/** What every domain operation gets: who is asking, in which mode, and the means to answer. */
export interface Context {
  principal: Principal;
  db: Kysely<DB>;
  dbKind: DatabaseKind;
  clock: Clock;
  config: Config;
  requestId: string;
  rateStore: RateStore;
}
