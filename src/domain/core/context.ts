import type { Kysely } from 'kysely';
import type { Config } from '../../config.ts';
import type { DatabaseKind } from '../../db/database.ts';
import type { DB } from '../../db/schema.ts';
import type { Clock } from '../../kernel/clock.ts';
import type { Principal } from '../accounts/key-store.ts';
import type { RateStore } from '../rating/rate-store.ts';
import type { LabelStore } from '../label-files/label-store.ts';
import type { LabelRenderer } from '../../labels/render-pool.ts';

/** What every domain operation gets: who is asking, in which mode, and the means to answer. */
export interface Context {
  principal: Principal;
  db: Kysely<DB>;
  dbKind: DatabaseKind;
  clock: Clock;
  config: Config;
  requestId: string;
  rateStore: RateStore;
  labels: LabelStore;
  renderer: LabelRenderer;
  /** The request's Idempotency-Key, when it sent one and the operation honours it. */
  idempotencyKey?: string;
  /**
   * For operations that commit in several steps: stores the operation's answer for its Idempotency-Key in the
   * transaction of the step that completes it. Absent when there is no key.
   */
  answer?: (trx: Kysely<DB>, result: unknown) => Promise<void>;
}
