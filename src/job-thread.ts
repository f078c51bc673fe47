import { Worker, type Transferable } from 'node:worker_threads';

/** What a thread is sent for each job, and what it answers: the job's result, or why it failed. */
export interface JobMessage<J> {
  id: number;
  job: J;
}
export type JobReply<R> = { id: number; result: R } | { id: number; error: string };

/** A job sent to a thread and not yet answered. */
export interface PendingJob<J, R> {
  job: J;
  resolve(result: R): void;
  reject(err: Error): void;
}

/**
 * One worker thread that takes jobs by message and answers each by its id (the label threads). It keeps the
 * process alive only while it holds jobs. When it dies (an uncaught error, an exit, terminate()), `onLost` gets the
 * jobs it still held, to fail them or send them to another thread.
 */
export class JobThread<J, R> {
  private readonly worker: Worker;
  private readonly pending = new Map<number, PendingJob<J, R>>();
  private nextId = 1;
  private lost = false;

  constructor(
    source: string,
    name: string,
    /** What a failed job's error starts with, by the job. */
    private readonly failure: (job: J) => string,
    onLost: (orphans: PendingJob<J, R>[], err: Error) => void,
  ) {
    // The name in workerData too: inside the thread that is the only way to know it (bench/memory-probe.mjs).
    this.worker = new Worker(source, { eval: true, name, workerData: { thread: name } });
    this.worker.unref();
    this.worker.on('message', (reply: JobReply<R>) => {
      const p = this.pending.get(reply.id);
      if (!p) return;
      this.pending.delete(reply.id);
      if (this.pending.size === 0) this.worker.unref();
      if ('error' in reply) p.reject(new Error(`${this.failure(p.job)}: ${reply.error}`));
      else p.resolve(reply.result);
    });
    const die = (err: Error) => {
      if (this.lost) return;
      this.lost = true;
      const orphans = [...this.pending.values()];
      this.pending.clear();
      onLost(orphans, err);
    };
    this.worker.on('error', die);
    this.worker.on('exit', (code) => die(new Error(`the ${name} thread exited with code ${code}`)));
  }

  /** Jobs sent and not yet answered. */
  get load(): number {
    return this.pending.size;
  }

  /** Whether the thread has died; a dead one takes no more jobs. */
  get dead(): boolean {
    return this.lost;
  }

  run(job: J, transfer: Transferable[] = []): Promise<R> {
    return new Promise((resolve, reject) => this.send({ job, resolve, reject }, transfer));
  }

  /** Sends a job whose promise already exists, such as one a dead thread left unanswered. */
  send(p: PendingJob<J, R>, transfer: Transferable[] = []): void {
    const id = this.nextId++;
    this.pending.set(id, p);
    if (this.pending.size === 1) this.worker.ref();
    this.worker.postMessage({ id, job: p.job } satisfies JobMessage<J>, transfer);
  }

  async terminate(): Promise<void> {
    await this.worker.terminate();
  }
}
