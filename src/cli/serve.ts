import type { Config } from '../config.ts';
import { createServices } from '../services.ts';
import { buildApp } from '../app.ts';
import { createLogger } from '../http/logger.ts';
import { bootstrapEmptyDatabase } from '../domain/accounts/bootstrap.ts';
import { createJobRunner } from '../jobs/index.ts';
import { print } from './output.ts';
import { setCarrierTraceLog } from '../carriers/registry.ts';

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

export async function serve(config: Config): Promise<void> {
  const logger = createLogger(config.logLevel);
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
