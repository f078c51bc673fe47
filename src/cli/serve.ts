import type { Config } from '../config.ts';
import { createServices } from '../services.ts';
import { buildApp } from '../app.ts';
import { createLogger } from '../http/logger.ts';
import type { Logger } from 'pino';
import { bootstrapEmptyDatabase } from '../domain/accounts/bootstrap.ts';
import { createJobRunner } from '../jobs/index.ts';
import { print } from './output.ts';
import { setCarrierTraceLog } from '../carriers/registry.ts';
import { narrowModes } from '../kernel/private-files.ts';

function onSignals(stop: (signal: string) => Promise<void>): void {
  let stopping = false;
  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    process.on(signal, () => {
      if (stopping) return;
      stopping = true;
      void stop(signal).then(() => process.exit(0));
    });
  }
}

/**
 * Makes private what an older shipd, or a looser umask, left readable by other users in the data dir (and the SQLite
 * files), saying so once; before the database opens, so that SQLite gives a new -wal file the narrowed mode.
 */
function narrowDataFiles(config: Config, logger: Logger): void {
  const { database } = config;
  const sqlite = database.kind === 'sqlite' ? ['', '-wal', '-shm'].map((suffix) => `${database.file}${suffix}`) : [];
  const { narrowed, failed } = narrowModes(config.dataDir, sqlite);
  if (narrowed.length > 0) {
    logger.warn({ dataDir: config.dataDir, narrowed: narrowed.length, examples: narrowed.slice(0, 5) }, 'other users could read data files: made them private (directories 0700, files 0600)');
  }
  if (failed.length > 0) {
    logger.error({ dataDir: config.dataDir, failed: failed.length, examples: failed.slice(0, 5) }, 'could not make data files private (another owner?): other users may read them');
  }
}

export async function serve(config: Config): Promise<void> {
  const logger = createLogger(config.logLevel);
  narrowDataFiles(config, logger);
  const services = await createServices(config);
  const secret = await bootstrapEmptyDatabase({ db: services.database.db, kind: services.database.kind, clock: services.clock });
  if (secret) {
    // Printed, never logged: the one time this key is shown.
    print(
      [
        '',
        'shipd created the account "default" with a test API key (test mode: simulated carriers, nothing charged).',
        'It is shown only this once:',
        '',
        `    ${secret}`,
        '',
      ].join('\n'),
    );
  }
  const app = await buildApp(services, logger);
  await app.listen({ port: config.port, host: config.host });
  const runner = config.worker ? createJobRunner(services, logger.child({ component: 'worker' })) : undefined;
  runner?.start();
  logger.info({ url: config.publicUrl, database: services.database.kind, worker: Boolean(runner) }, 'shipd is serving');

  onSignals(async (signal) => {
    logger.info({ signal }, 'shutting down');
    await app.close();
    await runner?.stop();
    await services.close();
  });
}

/** The job worker alone, for running it apart from the API processes. */
export async function work(config: Config): Promise<void> {
  const logger = createLogger(config.logLevel);
  setCarrierTraceLog(logger);
  narrowDataFiles(config, logger);
  const services = await createServices(config);
  const runner = createJobRunner(services, logger.child({ component: 'worker' }));
  runner.start();
  logger.info({ worker: runner.id, database: services.database.kind }, 'shipd worker is running');
  onSignals(async (signal) => {
    logger.info({ signal }, 'worker shutting down');
    await runner.stop();
    await services.close();
  });
}
