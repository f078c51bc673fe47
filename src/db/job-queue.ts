import type { Kysely } from 'kysely';
import type { DB } from './schema.ts';
import { newId } from '../kernel/ids.ts';

export interface NewJob {
  name: string;
  payload?: unknown;
  runAt?: Date;
  maxAttempts?: number;
  /** At most one job with this key exists at a time; enqueueing a second is a no-op. */
  uniqueKey?: string;
}

/** Adds a job. Pass a transaction to make the job exist exactly when the change that needs it does. */
export async function enqueue(db: Kysely<DB>, job: NewJob, now: Date): Promise<string> {
  const id = newId('job', now.getTime());
  const at = now.toISOString();
  await db
    .insertInto('jobs')
    .values({
      id,
      name: job.name,
      payload: JSON.stringify(job.payload ?? null),
      status: 'pending',
      attempts: 0,
      max_attempts: job.maxAttempts ?? 10,
      run_at: (job.runAt ?? now).toISOString(),
      locked_until: null,
      locked_by: null,
      last_error: null,
      unique_key: job.uniqueKey ?? null,
      created_at: at,
      updated_at: at,
    })
    .onConflict((oc) => oc.column('unique_key').doNothing())
    .execute();
  return id;
}
