// The resident set of a shipd idle after a start on an existing database: a first start makes the database and
// its test key and stops; the second start, the one measured, is how a deployed shipd starts every time after.
// Goal (issue 31): at most 120 MB, read 5 s after /readyz first answers. Also prints each thread's V8 heap.
import { describeThreads, freshDatabase, idleRssGoalBytes, isMain, megabytes, startShipd, type Result } from './lib.ts';

export async function benchIdle(databaseUrl: string | undefined, settleSeconds = 5): Promise<Result> {
  const database = await freshDatabase(databaseUrl);
  const first = await startShipd(databaseUrl, {}, { database, keep: true });
  await first.stop();
  const shipd = await startShipd(databaseUrl, {}, { database });
  try {
    await new Promise((r) => setTimeout(r, settleSeconds * 1000));
    const rss = shipd.rss()!;
    const peak = shipd.peakRss();
    const threads = shipd.threads();
    console.error(`idle after a start on an existing database, ${shipd.database}: RSS ${megabytes(rss)} (peak while starting ${megabytes(peak)}); V8 heaps: ${describeThreads(threads, 'heapNowBytes')}`);
    return {
      benchmark: 'idle: after a start on an existing database',
      database: shipd.database,
      value: rss / 1_048_576,
      unit: 'MB RSS',
      baselines: [],
      peakRssBytes: peak,
      threads: threads.map((t) => ({ ...t, heapPeakBytes: t.heapNowBytes })),
      goals: [{ text: `RSS ≤ ${megabytes(idleRssGoalBytes)}`, met: rss <= idleRssGoalBytes }],
      ok: true,
    };
  } finally {
    await shipd.stop();
  }
}

if (isMain(import.meta.url)) await benchIdle(process.env.BENCH_DATABASE_URL);
