// The child of bench/webhooks.ts in its bulk and drain modes: shipd serve (the API and its worker, from the build in
// dist/, as `npm start` runs it) plus a writer of order.created events straight into the outbox, driven by the
// bench's messages: { start: { rate, seconds, batch, template } } writes at a steady rate, { backlog: { count, batch,
// template } } stops the worker and writes a backlog, { deliver: true } starts the worker again, { stop: true } stops.
// Plain JavaScript over the build, so no TypeScript loader sits in the process whose memory the bench measures.
import { performance } from 'node:perf_hooks';
const [{ loadConfig }, { createServices }, { bootstrapEmptyDatabase }, { buildApp }, { createLogger }, { createJobRunner }, { recordEvent }, { newId }] = await Promise.all([
  import('../dist/config.js'),
  import('../dist/services.js'),
  import('../dist/domain/accounts/bootstrap.js'),
  import('../dist/app.js'),
  import('../dist/http/logger.js'),
  import('../dist/jobs/index.js'),
  import('../dist/domain/webhooks/events.js'),
  import('../dist/kernel/ids.js'),
]);

const send = (m) => process.send(m);
const config = loadConfig(process.env);
const logger = createLogger(config.logLevel);
const services = await createServices(config);
const { db, kind } = services.database;
const secret = await bootstrapEmptyDatabase({ db, kind, clock: services.clock });
if (!secret) throw new Error('the bench database was not empty');
const app = await buildApp(services, logger);
await app.listen({ port: 0, host: '127.0.0.1' });
const workerLog = logger.child({ component: 'worker' });
let runner = createJobRunner(services, workerLog);
runner.start();
const address = app.server.address();
if (!address || typeof address === 'string') throw new Error('no address');
const key = await db.selectFrom('api_keys').select(['id', 'account_id', 'mode']).executeTakeFirstOrThrow();
const principal = { keyId: key.id, accountId: key.account_id, mode: key.mode };

/** n order.created events in one transaction, of orders like the template. */
const write = (n, template) => {
  const at = new Date().toISOString();
  return db.transaction().execute(async (trx) => {
    for (let i = 0; i < n; i++) await recordEvent(trx, { principal }, 'order.created', { ...template, id: newId('ord') }, at);
  });
};

async function insert({ rate, seconds, batch, template }) {
  const began = performance.now();
  let made = 0;
  for (;;) {
    const elapsed = (performance.now() - began) / 1000;
    if (elapsed >= seconds) return made;
    const due = Math.min(batch, Math.floor(elapsed * rate) - made);
    if (due > 0) {
      await write(due, template);
      made += due;
    }
    await new Promise((r) => setTimeout(r, 10));
  }
}

async function writeBacklog({ count, batch, template }) {
  await runner.stop();
  for (let made = 0; made < count; made += batch) await write(Math.min(batch, count - made), template);
  return count;
}

// Orphaned (the bench died): go too.
process.on('disconnect', () => process.exit(1));
process.on('message', (m) => {
  if ('start' in m) {
    void insert(m.start).then((inserted) => send({ inserted }));
    return;
  }
  if ('backlog' in m) {
    void writeBacklog(m.backlog).then((inserted) => send({ inserted }));
    return;
  }
  if ('deliver' in m) {
    runner = createJobRunner(services, workerLog);
    runner.start();
    return;
  }
  void (async () => {
    await app.close();
    await runner.stop();
    await services.close();
    process.exit(0);
  })();
});
send({ ready: { url: `http://127.0.0.1:${address.port}`, key: secret } });
