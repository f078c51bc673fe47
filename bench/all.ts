// npm run bench — the benchmarks on SQLite and then on PostgreSQL, in one run: POST /rates beside a bare Fastify
// route; the order flow beside the PDF label renderer and the database's raw insert rate; webhook delivery, a queued
// backlog beside shipd's attempt code with no database, and orders at a steady rate beside that load itself; numbers
// followed by trackers (bench/trackers.ts at a fifth of its numbers and five times its simulated speed: the same
// scans a second, the window a minute, after a wait for the first pickup of up to four minutes on a weekend). Prints
// one table, each figure beside its baselines from the same run, with p99 and the shipd process's peak RSS, and
// writes it with the machine it came from into bench/RESULTS.md: a section a day, a later run that day above the
// earlier ones (BENCH_RECORD=0 only prints). BENCH_SECONDS (8) per measurement; BENCH_DATABASE_URL is the PostgreSQL
// server (postgres://postgres@127.0.0.1:5432/postgres), where each benchmark makes a database of its own and drops it.
import { readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { benchFlow } from './flow.ts';
import { benchIdle } from './idle.ts';
import { describeThreads, megabytes, onServer, type Result } from './lib.ts';
import { benchRates } from './rates.ts';
import { benchTrackers } from './trackers.ts';
import { benchWebhooks } from './webhooks.ts';

const seconds = Number(process.env.BENCH_SECONDS ?? 8);
const postgresUrl = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const resultsFile = join(import.meta.dirname, 'RESULTS.md');

let postgresVersion: string;
try {
  postgresVersion = String((await onServer(postgresUrl, 'SHOW server_version'))[0]?.server_version);
} catch (err) {
  console.error(`no PostgreSQL at ${postgresUrl} (${(err as Error).message}): set BENCH_DATABASE_URL to a server where this user may create databases`);
  process.exit(1);
}

const began = Date.now();
const loadAtStart = os.loadavg()[0]!;
const results: Result[] = [];
for (const databaseUrl of [undefined, postgresUrl]) {
  results.push(await benchIdle(databaseUrl));
  results.push(...(await benchRates(seconds, databaseUrl)));
  results.push(await benchFlow(seconds, databaseUrl));
  results.push(...(await benchWebhooks(['drain', 'paced'], { seconds, warmupSeconds: 2, databaseUrl })));
  results.push(await benchTrackers({ trackers: 20_000, seconds: 60, graceSeconds: 60, speed: 720, maxWaitSeconds: 360, createConcurrency: 4, listRate: 50, databaseUrl }));
}
const loadAtEnd = os.loadavg()[0]!;
const minutes = (Date.now() - began) / 60_000;

function number(n: number): string {
  return n.toLocaleString('en-US', { maximumFractionDigits: n < 10 ? 1 : 0 });
}

/** The goals a result missed, or "met". */
function goalCell(r: Result): string {
  const missed = (r.goals ?? []).filter((g) => !g.met);
  if (!r.goals?.length) return '—';
  return missed.length ? `**MISSED**: ${missed.map((g) => g.text).join('; ')}` : 'met';
}

/** A line per baseline: a benchmark with two has its figure, p99, RSS and goals on the first. */
function tableRows(): string[][] {
  const rows: string[][] = [];
  for (const r of results) {
    const baselines = r.baselines.length ? r.baselines : [undefined];
    baselines.forEach((b, i) => {
      const first = i === 0;
      const ratio = b ? r.value / b.value : undefined;
      rows.push([
        first ? r.benchmark : '',
        first ? r.database : '',
        first ? `${number(r.value)} ${r.unit}${r.ok ? '' : ' (checks FAILED)'}` : '',
        b ? `${b.name}: ${number(b.value)} ${b.unit}` : '—',
        ratio === undefined ? '—' : ratio.toFixed(ratio < 0.1 ? 3 : 2),
        first ? (r.p99Ms === undefined ? '—' : `${number(r.p99Ms)} ms`) : '',
        first ? megabytes(r.peakRssBytes) : '',
        first ? goalCell(r) : '',
      ]);
    });
  }
  return rows;
}

/** The memory table: the process's RSS and each thread's V8 heap, idle and at the peak of each load. */
function memoryRows(): string[][] {
  return results
    .filter((r) => r.peakRssBytes !== undefined || r.threads?.length)
    .map((r) => [r.benchmark.split(':')[0]!, r.database, r.unit === 'MB RSS' ? `${number(r.value)} MB now, ${megabytes(r.peakRssBytes)} peak` : megabytes(r.peakRssBytes), describeThreads(r.threads)]);
}

const header = ['benchmark', 'database', 'figure', 'baseline (same run)', 'ratio', 'p99', 'peak RSS', 'goals'];
const memoryHeader = ['load', 'database', 'RSS (VmRSS / VmHWM)', 'V8 heap per thread (committed, at its peak)'];
const rows = tableRows();
const widths = header.map((h, c) => Math.max(h.length, ...rows.map((r) => r[c]!.length)));
const line = (cells: string[]) => cells.map((cell, c) => cell.padEnd(widths[c]!)).join('  ').trimEnd();
console.error(`\n${line(header)}\n${line(widths.map((w) => '-'.repeat(w)))}\n${rows.map(line).join('\n')}`);
const memory = memoryRows();
console.error(`\n${memoryHeader.join(' | ')}\n${memory.map((r) => r.join(' | ')).join('\n')}`);

const date = new Date().toISOString().slice(0, 10);
const heading = `## \`npm run bench\`, ${date}`;
const machine = `${os.cpus()[0]?.model ?? 'unknown CPU'}, ${os.availableParallelism()} cores, ${(os.totalmem() / 2 ** 30).toFixed(1)} GB RAM, Node ${process.version}, PostgreSQL ${postgresVersion}, Linux ${os.release()}`;
const section = `${heading}

${machine}.
${seconds} s per measurement, the load generator on the same cores as the server. 1-minute load average ${loadAtStart.toFixed(2)} when
the run started, ${loadAtEnd.toFixed(2)} when it ended; it took ${minutes.toFixed(1)} minutes.

| ${header.join(' | ')} |
|${header.map(() => '---').join('|')}|
${rows.map((r) => `| ${r.join(' | ')} |`).join('\n')}

| ${memoryHeader.join(' | ')} |
|${memoryHeader.map(() => '---').join('|')}|
${memory.map((r) => `| ${r.join(' | ')} |`).join('\n')}

The ratio is the figure over its baseline. p99 is of a request (rates), of a whole flow (flow), and of an event's
\`created_at\` to its first arrival at the receiver (webhooks paced); a queued backlog's latency is only how long it
waited, so drain has none. Peak RSS is the shipd process's VmHWM (in drain, that process also wrote the backlog);
goals are issue 31's (peak RSS ≤ 250 MB under every load, ≤ 120 MB idle after a start on an existing database,
rates ≥ 0.35 of the bare route with p99 < 25 ms, GET /carriers ≥ 0.5 of a bare GET) and each benchmark's own.
shipd runs at its default settings (info-level request logs) but for rate limits. A thread's V8 heap is what
bench/memory-probe.mjs saw committed; the RSS beyond the heaps is code, native libraries and their buffers.
`;

if (process.env.BENCH_RECORD !== '0') {
  const text = readFileSync(resultsFile, 'utf8');
  const at = text.indexOf(`${heading}\n`);
  const next = text.indexOf('\n## ', at);
  // Newest first, after the introduction; a run later the same day goes above that day's earlier runs, which stay
  // under it, with whatever was written of them.
  const earlier = at < 0 ? '' : text.slice(at + heading.length + 1, next < 0 ? undefined : next);
  const updated =
    at < 0 ? text.replace(/\n## /, `\n${section}\n## `) : `${text.slice(0, at)}${section}\n### The same day's earlier run\n${earlier}${next < 0 ? '' : text.slice(next)}`;
  writeFileSync(resultsFile, updated);
  console.error(`\nrecorded in ${resultsFile}`);
}
if (results.some((r) => !r.ok)) process.exit(1);
