import { carrierIds, type CarrierId, type Config } from '../config.ts';
import { openDatabase, type Database } from '../db/database.ts';
import { migrate } from '../db/migrate.ts';
import { AccountError, createAccount, findAccount, listAccounts, type Plan } from '../domain/accounts/accounts.ts';
import { createApiKey, listApiKeys, parseDuration, revokeApiKey, rollApiKey, type KeyAdmin } from '../domain/accounts/api-keys.ts';
import type { Mode } from '../kernel/mode.ts';
import { ApiError } from '../kernel/errors.ts';
import { clearPaymentMethod, savePaymentMethod } from '../domain/billing/payment-methods.ts';
import { connectCarrier, disconnectCarrier, listCarrierAccounts, type OwnCredentials } from '../domain/carrier-accounts/carrier-accounts.ts';
import { mailerIdProblem } from '../carriers/usps/mailer-ids.ts';
import { addLocation, listLocations } from '../domain/locations/locations.ts';
import { addPackage, customPackages, setDefaultPackage } from '../domain/packages/packages.ts';
import { systemClock } from '../kernel/clock.ts';
import { parse, type Options } from './args.ts';
import { print, table } from './output.ts';
import { runUsers, usersUsage } from './users.ts';

function carrier(value: unknown): CarrierId {
  if (!(carrierIds as readonly unknown[]).includes(value)) throw new AccountError(`--carrier must be one of ${carrierIds.join(', ')}`);
  return value as CarrierId;
}

/** --crid, --mid and --manifest-mid: the USPS mailer its payment authorization names, in USPS's published formats. */
function uspsMailer(id: CarrierId, values: Record<string, string | boolean | undefined>): Pick<OwnCredentials, 'crid' | 'mid' | 'manifestMid'> {
  const flags = [
    ['crid', 'crid', 'crid'],
    ['mid', 'mid', 'mid'],
    ['manifest-mid', 'manifestMid', 'mid'],
  ] as const;
  const out: Pick<OwnCredentials, 'crid' | 'mid' | 'manifestMid'> = {};
  for (const [flag, field, kind] of flags) {
    const value = values[flag] as string | undefined;
    if (value === undefined) continue;
    if (id !== 'usps') throw new AccountError(`--${flag} is for --carrier usps only`);
    const problem = mailerIdProblem(kind, value);
    if (problem) throw new AccountError(`--${flag} ${problem}`);
    out[field] = value;
  }
  return out;
}

function mode(value: unknown): Mode {
  if (value !== 'test' && value !== 'live') throw new AccountError('--mode must be test or live');
  return value;
}

/**
 * The commands write beside a running server: on SQLite their transactions take the write lock at BEGIN and wait
 * for it (busy_timeout, 5 s), rather than fail with "database is locked" when the server wrote after they read.
 */
export function openAdminDatabase(config: Config): Database {
  return openDatabase(config, { immediate: true });
}

async function withDatabase<T>(config: Config, fn: (database: Database, admin: KeyAdmin) => Promise<T>): Promise<T> {
  const database = openAdminDatabase(config);
  try {
    await migrate(database);
    return await fn(database, { db: database.db, kind: database.kind, clock: systemClock });
  } catch (err) {
    // A refusal the API would answer with a problem says the same here, with its stable code for scripts to match.
    if (err instanceof ApiError && err.status < 500) throw new AccountError(`${err.message} (${err.code})`);
    throw err;
  } finally {
    await database.close();
  }
}

const usage = {
  accounts: 'shipd accounts create --name NAME [--plan api|basic] | shipd accounts list',
  keys:
    'shipd keys create --account ID|NAME --mode test|live [--name LABEL] | keys list --account ID|NAME | ' +
    'keys revoke KEY_ID | keys roll KEY_ID [--grace 24h]',
  billing: 'shipd billing set --account ID|NAME --mode test|live --payment-method PM | billing clear --account ID|NAME --mode test|live',
  packages:
    'shipd packages add --account ID|NAME --name NAME --length L --width W --height H [--unit in|cm] --max-weight N [--weight-unit lb|oz|kg|g] [--default] | ' +
    'packages list --account ID|NAME',
  carriers:
    'shipd carriers connect --account ID|NAME --carrier ups|usps|fedex --client-id ID [--client-secret SECRET] [--account-number N] [--crid CRID --mid MID [--manifest-mid MID]] | ' +
    'carriers disconnect --account ID|NAME --carrier ups|usps|fedex | carriers list --account ID|NAME',
  locations:
    'shipd locations add --account ID|NAME --name NAME --street1 … [--street2 …] --city … --state … --zip … [--phone …] [--company …] [--default] | ' +
    'locations list --account ID|NAME',
  users: usersUsage,
} as const;

export type AdminGroup = keyof typeof usage;
export const adminGroups = Object.keys(usage) as AdminGroup[];

export async function runAdmin(config: Config, group: AdminGroup, args: string[]): Promise<void> {
  const [action, ...rest] = args;
  const wrong = () => new AccountError(`usage: ${usage[group]}`);
  await withDatabase(config, async (database, admin) => {
    const db = database.db;
    if (group === 'users') return runUsers(admin, action, rest);
    switch (`${group} ${action}`) {
      case 'accounts create': {
        const { values } = parse(rest, { name: { type: 'string' }, plan: { type: 'string' } }, ['name']);
        const account = await createAccount(db, systemClock, values.name as string, (values.plan as Plan | undefined) ?? 'api');
        print(account.id);
        return;
      }
      case 'accounts list': {
        const rows = await listAccounts(db);
        print(table([['ID', 'NAME', 'PLAN', 'CREATED'], ...rows.map((a) => [a.id, a.name, a.plan, a.created_at])]));
        return;
      }
      case 'keys create': {
        const { values } = parse(rest, { account: { type: 'string' }, mode: { type: 'string' }, name: { type: 'string' } }, ['account', 'mode']);
        const account = await findAccount(db, values.account as string);
        const { secret } = await createApiKey(admin, account.id, mode(values.mode), config.maxKeysPerAccount, values.name as string | undefined);
        print(secret);
        return;
      }
      case 'keys list': {
        const { values } = parse(rest, { account: { type: 'string' } }, ['account']);
        const account = await findAccount(db, values.account as string);
        const keys = await listApiKeys(db, account.id);
        print(
          table([
            ['ID', 'MODE', 'KEY', 'NAME', 'CREATED', 'STATUS'],
            ...keys.map((k) => [k.id, k.mode, `${k.prefix}…${k.last4}`, k.name ?? '', k.created_at, k.revoked_at ? `revoked ${k.revoked_at}` : 'active']),
          ]),
        );
        return;
      }
      case 'keys revoke': {
        const { positionals } = parse(rest, {}, []);
        if (positionals.length !== 1) throw wrong();
        const { webhooksDisabled } = await revokeApiKey(admin, positionals[0]!);
        print(`revoked ${positionals[0]}; ${webhooksDisabled === 1 ? '1 webhook' : `${webhooksDisabled} webhooks`} of it disabled`);
        return;
      }
      case 'keys roll': {
        const { values, positionals } = parse(rest, { grace: { type: 'string' } }, []);
        if (positionals.length !== 1) throw wrong();
        const { secret } = await rollApiKey(admin, positionals[0]!, parseDuration((values.grace as string | undefined) ?? '24h'));
        print(secret);
        return;
      }
      case 'billing set': {
        const { values } = parse(rest, { account: { type: 'string' }, mode: { type: 'string' }, 'payment-method': { type: 'string' } }, [
          'account',
          'mode',
          'payment-method',
        ]);
        const account = await findAccount(db, values.account as string);
        const saved = await savePaymentMethod({ db, clock: systemClock, config }, account.id, mode(values.mode), values['payment-method'] as string);
        print(`${account.id} ${values.mode}: ${saved}`);
        return;
      }
      case 'billing clear': {
        const { values } = parse(rest, { account: { type: 'string' }, mode: { type: 'string' } }, ['account', 'mode']);
        const account = await findAccount(db, values.account as string);
        const cleared = await clearPaymentMethod({ db, clock: systemClock, config }, account.id, mode(values.mode));
        print(cleared ? `${account.id} ${values.mode}: cleared` : `${account.id} ${values.mode}: had no payment method`);
        return;
      }
      case 'carriers connect': {
        const { values } = parse(
          rest,
          {
            account: { type: 'string' },
            carrier: { type: 'string' },
            'client-id': { type: 'string' },
            'client-secret': { type: 'string' },
            'account-number': { type: 'string' },
            crid: { type: 'string' },
            mid: { type: 'string' },
            'manifest-mid': { type: 'string' },
          },
          ['account', 'carrier', 'client-id'],
        );
        // From the environment when not given, so the secret need not sit in shell history or the process list.
        const clientSecret = (values['client-secret'] as string | undefined) ?? process.env.SHIPD_CARRIER_CLIENT_SECRET;
        if (!clientSecret) throw new AccountError('--client-secret (or SHIPD_CARRIER_CLIENT_SECRET) is required');
        const account = await findAccount(db, values.account as string);
        const id = carrier(values.carrier);
        const accountNumber = values['account-number'] as string | undefined;
        const mailer = uspsMailer(id, values);
        await connectCarrier(db, systemClock, config.secret, account.id, id, { clientId: values['client-id'] as string, clientSecret, ...(accountNumber && { accountNumber }), ...mailer });
        print(`${account.id} ${id}: connected; its live labels are billed by ${id.toUpperCase()} to this account, not charged by shipd`);
        return;
      }
      case 'carriers disconnect': {
        const { values } = parse(rest, { account: { type: 'string' }, carrier: { type: 'string' } }, ['account', 'carrier']);
        const account = await findAccount(db, values.account as string);
        const removed = await disconnectCarrier(db, account.id, carrier(values.carrier));
        print(removed ? `${account.id} ${values.carrier}: disconnected` : `${account.id} ${values.carrier}: was not connected`);
        return;
      }
      case 'carriers list': {
        const { values } = parse(rest, { account: { type: 'string' } }, ['account']);
        const account = await findAccount(db, values.account as string);
        const rows = await listCarrierAccounts(db, account.id);
        print(rows.length === 0 ? 'no carrier accounts connected' : table(rows.map((r) => [r.id, r.carrier, r.status, r.lastTestedAt ? `tested ${r.lastTestedAt}` : 'never tested', `updated ${r.updatedAt}`])));
        return;
      }
      case 'locations add': {
        const names = ['account', 'name', 'street1', 'street2', 'city', 'state', 'zip', 'phone', 'company'];
        const options: Options = Object.fromEntries(names.map((n) => [n, { type: 'string' as const }]));
        options.default = { type: 'boolean' };
        const { values } = parse(rest, options, ['account', 'name', 'street1', 'city', 'state', 'zip']);
        const account = await findAccount(db, values.account as string);
        const address = Object.fromEntries(
          ['street1', 'street2', 'city', 'state', 'zip', 'phone', 'company'].filter((n) => values[n] !== undefined).map((n) => [n, values[n]]),
        );
        const location = await addLocation(db, systemClock, account.id, {
          name: values.name as string,
          address: address as never,
          isDefault: values.default === true,
        });
        print(location.id);
        return;
      }
      case 'locations list': {
        const { values } = parse(rest, { account: { type: 'string' } }, ['account']);
        const rows = await listLocations(db, (await findAccount(db, values.account as string)).id);
        const line = (l: (typeof rows)[number]) => [l.id, l.name, `${l.address.street1}, ${l.address.city} ${l.address.state} ${l.address.zip}`, l.is_default ? 'default' : ''];
        print(rows.length === 0 ? 'no ship-from locations' : table([['ID', 'NAME', 'ADDRESS', ''], ...rows.map(line)]));
        return;
      }
      case 'packages list': {
        const { values } = parse(rest, { account: { type: 'string' } }, ['account']);
        const rows = await customPackages(db, (await findAccount(db, values.account as string)).id);
        const size = (p: (typeof rows)[number]) => `${p.dimensions.length} × ${p.dimensions.width} × ${p.dimensions.height} ${p.dimensions.unit}`;
        const line = (p: (typeof rows)[number]) => [p.id, p.name, size(p), `up to ${p.max_weight.value} ${p.max_weight.unit}`, p.is_default ? 'default' : ''];
        print(rows.length === 0 ? 'no packages of its own (the carriers\' boxes are in GET /packages)' : table([['ID', 'NAME', 'SIZE', 'WEIGHT', ''], ...rows.map(line)]));
        return;
      }
      case 'packages add': {
        const names = ['account', 'name', 'length', 'width', 'height', 'unit', 'max-weight', 'weight-unit'];
        const options: Options = Object.fromEntries(names.map((n) => [n, { type: 'string' as const }]));
        options.default = { type: 'boolean' };
        const { values } = parse(rest, options, ['account', 'name', 'length', 'width', 'height', 'max-weight']);
        const account = await findAccount(db, values.account as string);
        const num = (name: string) => {
          const n = Number(values[name]);
          if (!Number.isFinite(n)) throw new AccountError(`--${name} must be a number`);
          return n;
        };
        const created = await addPackage(db, systemClock, account.id, {
          name: values.name as string,
          dimensions: { length: num('length'), width: num('width'), height: num('height'), unit: ((values.unit as string) ?? 'in') as 'in' },
          maxWeight: { value: num('max-weight'), unit: ((values['weight-unit'] as string) ?? 'lb') as 'lb' },
        });
        if (values.default === true) await setDefaultPackage(db, database.kind, account.id, created.id);
        print(created.id);
        return;
      }
      default:
        throw wrong();
    }
  });
}
