// Regenerates the TypeScript client's types (clients/typescript/src/schema.ts) from the OpenAPI document shipd serves:
// `npm run client:types`. The document is the one of a server with every ops helper on, so that the client covers
// them too. test/client/schema.test.ts fails while the checked-in file differs from what this writes.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { featureNames, loadConfig } from '../src/config.ts';
import { createServices } from '../src/services.ts';
import { buildApp } from '../src/app.ts';
import { createLogger } from '../src/http/logger.ts';
import { generateSchema, schemaPath } from '../clients/typescript/scripts/generate.ts';

const dataDir = mkdtempSync(join(tmpdir(), 'shipd-client-types-'));
try {
  const config = loadConfig({ SHIPD_DATA_DIR: dataDir, SHIPD_FEATURES: featureNames.join(','), SHIPD_LOG_LEVEL: 'silent' });
  const services = await createServices(config);
  try {
    const app = await buildApp(services, createLogger('silent'));
    const res = await app.inject({ method: 'GET', url: '/openapi.json' });
    await app.close();
    if (res.statusCode !== 200) throw new Error(`GET /openapi.json answered ${res.statusCode}: ${res.body}`);
    const target = join(import.meta.dirname, '..', 'clients', 'typescript', schemaPath);
    writeFileSync(target, await generateSchema(res.json()));
    process.stdout.write(`wrote ${target}\n`);
  } finally {
    await services.close();
  }
} finally {
  rmSync(dataDir, { recursive: true, force: true });
}
