import type { Kysely } from 'kysely';
import { BatchInserter } from '../db/batch-insert.ts';
import type { DB, RateShopsTable } from '../db/schema.ts';

/** Where rate shops are kept for 24 hours, written in batches (one row per shop). */
export class RateStore {
  private readonly inserter: BatchInserter<'rate_shops'>;

  constructor(db: Kysely<DB>) {
    this.inserter = new BatchInserter(db, 'rate_shops');
  }

  save(row: RateShopsTable): Promise<void> {
    return this.inserter.insert(row);
  }
}
