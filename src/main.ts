import { parseArgs } from 'node:util';
import { ConfigError, loadConfig, unknownSettingWarnings } from './config.ts';
import { AccountError } from './domain/accounts/accounts.ts';
import { print } from './cli/output.ts';
import type { AdminGroup } from './cli/admin.ts';

const help = `shipd: a self-hostable shipping API

usage: shipd [--config FILE] COMMAND

  serve                      run the API and, unless SHIPD_WORKER=false, the job worker (the default command)
  worker                     run only the job worker
  migrate                    bring the database schema up to date
  mcp                        the MCP server on stdio, acting as the API key in SHIPD_API_KEY
  accounts create|list       manage accounts
  keys create|list|revoke|roll   manage API keys
  billing set|clear          set an account's billing payment method
  carriers connect|disconnect|list   an account's own UPS, USPS or FedEx credentials for live labels
  locations add|list         an account's ship-from locations
  packages add|list          an account's own boxes
  users create|list|disable|enable|delete|reset-password|set-role
                             the people who sign in to the web dashboard at /dashboard

Settings come from the environment (and --config FILE, a JSON object of the same names); see docs/operating.md.`;

async function main(argv: string[]): Promise<void> {
  const { values, positionals, tokens } = parseArgs({
    args: argv,
    options: { config: { type: 'string' }, help: { type: 'boolean', short: 'h' } },
    allowPositionals: true,
    strict: false,
    tokens: true,
  });
  // Options after the command belong to the command; only leading ones are ours.
  const commandIndex = tokens.find((t) => t.kind === 'positional')?.index ?? argv.length;
  const command = positionals[0] ?? 'serve';
  const rest = argv.slice(commandIndex + 1);
  if (values.help === true && commandIndex === argv.length) {
    print(help);
    return;
  }
  for (const warning of unknownSettingWarnings(process.env)) process.stderr.write(`shipd: ${warning}\n`);
  const config = loadConfig(process.env, typeof values.config === 'string' ? values.config : process.env.SHIPD_CONFIG);

  // Each command loads its own modules when it runs: the server's (Fastify, the label renderers, the MCP SDK) take
  // seconds to load, which `shipd --help` or `shipd keys list` should not wait for.
  if (command === 'serve') return (await import('./cli/serve.ts')).serve(config);
  if (command === 'worker') return (await import('./cli/serve.ts')).work(config);
  if (command === 'mcp') return (await import('./mcp/stdio.ts')).serveMcpStdio(config, process.env.SHIPD_API_KEY);
  if (command === 'migrate') {
    const [{ openDatabase }, { migrate }] = await Promise.all([import('./db/database.ts'), import('./db/migrate.ts')]);
    const database = openDatabase(config);
    try {
      const applied = await migrate(database);
      print(applied.length ? `applied ${applied.join(', ')}` : 'the database is up to date');
    } finally {
      await database.close();
    }
    return;
  }
  const { adminGroups, runAdmin } = await import('./cli/admin.ts');
  if ((adminGroups as string[]).includes(command)) return runAdmin(config, command as AdminGroup, rest);
  throw new AccountError(`unknown command "${command}"; run shipd --help`);
}

main(process.argv.slice(2)).catch((err: unknown) => {
  if (err instanceof ConfigError || err instanceof AccountError || (err as { code?: string }).code?.startsWith('ERR_PARSE_ARGS')) {
    console.error(`shipd: ${(err as Error).message}`);
  } else {
    console.error('shipd: failed:', err);
  }
  process.exit(1);
});
