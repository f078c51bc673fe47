import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import pino from 'pino';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import type { Config } from '../config.ts';
import { AccountError } from '../domain/accounts/accounts.ts';
import { ApiError } from '../kernel/errors.ts';
import { createLogger } from '../http/logger.ts';
import { setCarrierTraceLog } from '../carriers/registry.ts';
import { idempotencyStore } from '../operations/run.ts';
import { createServices } from '../services.ts';
import { createMcpServer } from './server.ts';

/**
 * `shipd mcp`: the MCP server on stdin/stdout, acting as the API key in SHIPD_API_KEY. Stdout is the protocol,
 * so logs go to stderr. A key that the API would refuse refuses the start, with the API's own reason.
 */
export async function serveMcpStdio(config: Config, secret: string | undefined): Promise<void> {
  if (!secret) throw new AccountError('set SHIPD_API_KEY to the API key the MCP tools act as (svc_test_… or svc_live_…)');
  // Started from another folder, the default ./data is a new, empty database that knows no key: say so instead of
  // making one and then refusing every key as unknown.
  if (config.database.kind === 'sqlite' && !existsSync(config.database.file)) {
    throw new AccountError(
      `there is no shipd database at ${config.database.file}: shipd mcp must use the database of the shipd that made the key. ` +
        'Set SHIPD_DATA_DIR (or DATABASE_URL) as that shipd has it, or start shipd mcp in its folder',
    );
  }
  const logger = createLogger(config.logLevel, pino.destination(2));
  setCarrierTraceLog(logger);
  const services = await createServices(config);
  const principal = await services.keys.principalFor(secret).catch(async (err: unknown) => {
    await services.close();
    const where = config.database.kind === 'sqlite' ? `the SQLite database ${config.database.file}` : 'the PostgreSQL database of DATABASE_URL';
    throw err instanceof ApiError ? new AccountError(`SHIPD_API_KEY is refused (${err.code}): ${err.detail} (looked up in ${where})`) : err;
  });

  const server = createMcpServer({
    services,
    idempotency: idempotencyStore(services),
    // Checked again on every call: a key revoked while the client runs stops working, as it would over HTTP.
    principal: () => services.keys.principalFor(secret),
    requestId: () => `req_${randomUUID().replace(/-/g, '')}`,
    log: logger,
  });
  let stopping = false;
  const stop = async () => {
    if (stopping) return;
    stopping = true;
    await server.close();
    await services.close();
    process.exit(0);
  };
  // The client ends the session by closing our stdin, or with a signal when we are slow to go.
  process.stdin.once('end', () => void stop());
  for (const signal of ['SIGTERM', 'SIGINT'] as const) process.once(signal, () => void stop());
  await server.connect(new StdioServerTransport());
  logger.info({ key_id: principal.keyId, mode: principal.mode, database: services.database.kind }, 'shipd MCP server is serving on stdio');
}
