import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import type { Logger } from 'pino';
import type { Database } from '../db/database.ts';
import type { JobsTable } from '../db/schema.ts';
import type { Clock } from '../kernel/clock.ts';
import { enqueue } from '../db/job-queue.ts';

export type JobHandler = (payload: unknown, job: JobsTable) => Promise<void>;

export interface Schedule {
  name: string;
  everyMs: number;
}

export interface RunnerOptions {
  /** Jobs run at once by this runner. */
  concurrency?: number;
  /** Idle wait between looks for due jobs. */
  pollMs?: number;
  /** A job whose runner has not finished it by then is taken to have crashed, and runs again. */
  leaseMs?: number;
}

/** A worker that runs continuously rather than as jobs (webhook delivery), started and stopped with the runner. */
export interface ContinuousWorker {
  start(): void;
  stop(): Promise<void>;
}

/** Retry n waits about 2^n seconds, capped at an hour, with ±20% jitter so failures do not retry in step. */
export function backoffMs(attempts: number): number {
  const base = Math.min(3_600_000, 1_000 * 2 ** Math.max(0, attempts - 1));
  return Math.round(base * (0.8 + Math.random() * 0.4));
}

/**
 * The durable job runner. Jobs live in the `jobs` table; a runner claims due ones with one atomic UPDATE
 * (with FOR UPDATE SKIP LOCKED on PostgreSQL, so any number of runners share the table), holds each under a
 * lease, and marks it done, reschedules it, or retries it with backoff.
 */
export class JobRunner {
  readonly id = `wkr_${randomBytes(6).toString('hex')}`;
  private running = new Set<Promise<void>>();
  private timer: NodeJS.Timeout | undefined;
  /** The claim under way, which stop() must wait for: the jobs it takes are this runner's to finish. */
  private looking: Promise<unknown> | undefined;
  private stopped = true;
  private readonly concurrency: number;
  private readonly pollMs: number;
  private readonly leaseMs: number;

  constructor(
    private readonly database: Database,
    private readonly handlers: Record<string, JobHandler>,
    private readonly schedules: Schedule[],
    private readonly clock: Clock,
    private readonly log: Logger,
    options: RunnerOptions = {},
    private readonly continuous: ContinuousWorker[] = [],
  ) {
    this.concurrency = options.concurrency ?? 4;
    this.pollMs = options.pollMs ?? 250;
    this.leaseMs = options.leaseMs ?? 60_000;
  }

  /** Makes sure each schedule has its one recurring job. */
  async installSchedules(): Promise<void> {
    for (const s of this.schedules) {
      await enqueue(this.database.db, { name: s.name, uniqueKey: `schedule:${s.name}`, maxAttempts: 1_000_000 }, this.clock.now());
    }
  }

  start(): void {
    if (!this.stopped) return;
    this.stopped = false;
    for (const w of this.continuous) w.start();
    void this.installSchedules()
      .catch((err: unknown) => this.log.error({ err }, 'could not install job schedules'))
      .finally(() => this.loop());
  }

  /** Stops taking jobs and waits for those running to finish. */
  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.looking;
    await Promise.allSettled([...this.running, ...this.continuous.map((w) => w.stop())]);
  }

  private loop(): void {
    if (this.stopped) return;
    this.looking = this.tick()
      .catch((err: unknown) => {
        this.log.error({ err }, 'job runner could not claim jobs');
        return 0;
      })
      .then((claimed) => {
        if (this.stopped) return;
        // A full batch suggests more are waiting; otherwise look again after a pause.
        this.timer = setTimeout(() => this.loop(), claimed > 0 && this.running.size < this.concurrency ? 0 : this.pollMs);
      });
  }

  /** Claims what it has room for and starts it; returns how many it claimed. */
  async tick(): Promise<number> {
    const room = this.concurrency - this.running.size;
    if (room <= 0) return 0;
    const jobs = await this.claim(room);
    for (const job of jobs) {
      const p = this.execute(job).finally(() => this.running.delete(p));
      this.running.add(p);
    }
    return jobs.length;
  }

  /** Claims and runs due jobs until none are left; for tests and one-shot runs. */
  async drain(): Promise<void> {
    while ((await this.tick()) > 0 || this.running.size > 0) {
      await Promise.race([...this.running]);
    }
  }

  private async claim(limit: number): Promise<JobsTable[]> {
    const { db, kind } = this.database;
    const now = this.clock.now();
    const at = now.toISOString();
    let due = db
      .selectFrom('jobs')
      .select('id')
      .where((eb) =>
        eb.or([
          eb.and([eb('status', '=', 'pending'), eb('run_at', '<=', at)]),
          eb.and([eb('status', '=', 'running'), eb('locked_until', '<', at)]),
        ]),
      )
      .orderBy('run_at')
      .limit(limit);
    if (kind === 'postgres') due = due.forUpdate().skipLocked();
    return db
      .updateTable('jobs')
      .set({
        status: 'running',
        attempts: sql`attempts + 1`,
        locked_by: this.id,
        locked_until: new Date(now.getTime() + this.leaseMs).toISOString(),
        updated_at: at,
      })
      .where('id', 'in', due)
      .returningAll()
      .execute();
  }

  private async execute(job: JobsTable): Promise<void> {
    const handler = this.handlers[job.name];
    // A job runs as long as it needs: while it runs, its lease is renewed, so the lease only has to outlast a
    // crashed worker's silence, and another worker takes over a crashed one's job within one lease.
    const heartbeat = setInterval(() => {
      void this.renew(job).catch((err: unknown) => this.log.warn({ err, job_id: job.id }, 'could not renew a job lease'));
    }, this.leaseMs / 3);
    heartbeat.unref();
    let error: unknown;
    try {
      if (!handler) throw new Error(`no handler for job ${job.name}`);
      await handler(JSON.parse(job.payload), job);
    } catch (err) {
      error = err;
    } finally {
      clearInterval(heartbeat);
    }
    try {
      await this.finish(job, error);
    } catch (err) {
      // The lease runs out and the job runs again: at least once, never lost.
      this.log.error({ err, job_id: job.id }, 'could not record a job outcome');
    }
  }

  private async renew(job: JobsTable): Promise<void> {
    const now = this.clock.now();
    await this.database.db
      .updateTable('jobs')
      .set({ locked_until: new Date(now.getTime() + this.leaseMs).toISOString(), updated_at: now.toISOString() })
      .where('id', '=', job.id)
      .where('locked_by', '=', this.id)
      .where('status', '=', 'running')
      .execute();
  }

  private async finish(job: JobsTable, error: unknown): Promise<void> {
    const { db } = this.database;
    const now = this.clock.now();
    const at = now.toISOString();
    const mine = db.updateTable('jobs').where('id', '=', job.id).where('locked_by', '=', this.id).where('status', '=', 'running');
    const schedule = this.schedules.find((s) => job.unique_key === `schedule:${s.name}`);
    if (error === undefined) {
      if (schedule) {
        await mine
          .set({ status: 'pending', attempts: 0, run_at: new Date(now.getTime() + schedule.everyMs).toISOString(), locked_by: null, locked_until: null, last_error: null, updated_at: at })
          .execute();
      } else {
        await db.deleteFrom('jobs').where('id', '=', job.id).where('locked_by', '=', this.id).execute();
      }
      return;
    }
    const message = error instanceof Error ? error.message : String(error);
    const retry = job.attempts < job.max_attempts;
    this.log.warn({ job_id: job.id, job: job.name, attempts: job.attempts, err: message, retry }, 'job failed');
    await mine
      .set({
        status: retry ? 'pending' : 'failed',
        run_at: retry ? new Date(now.getTime() + (schedule ? schedule.everyMs : backoffMs(job.attempts))).toISOString() : job.run_at,
        locked_by: null,
        locked_until: null,
        last_error: message.slice(0, 2000),
        updated_at: at,
      })
      .execute();
  }
}
