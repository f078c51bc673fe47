import type { Config } from '../config.ts';
import { createServices } from '../services.ts';
import { buildApp } from '../app.ts';
import { createLogger } from '../http/logger.ts';
import { bootstrapEmptyDatabase } from '../domain/bootstrap.ts';
import { print } from './output.ts';

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
  logger.info({ url: config.publicUrl, database: services.database.kind }, 'shipd is serving');

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'shutting down');
    await app.close();
    await services.close();
    process.exit(0);
  };
  process.on('SIGTERM', () => void stop('SIGTERM'));
  process.on('SIGINT', () => void stop('SIGINT'));
}
