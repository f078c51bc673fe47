import type { CarrierId } from '../../config.ts';
import type { CarrierAccountsTable } from '../../db/schema.ts';
import { carrierName } from '../../carriers/catalog.ts';
import { mailerIdProblem, type MailerIdKind } from '../../carriers/usps/mailer-ids.ts';
import type { CarrierAccount, CarrierAccountCreate, CarrierAccountUpdate, CarrierCredentials } from '../../schemas/carrier-account.ts';
import { ApiError, type FieldError } from '../../kernel/errors.ts';
import { hasPrefix, newId } from '../../kernel/ids.ts';
import type { Context } from '../core/context.ts';
import { field, failIfAny } from '../shipments/shipment-inputs.ts';
import { openCredentials, sealCredentials, type OwnCredentials } from './carrier-accounts.ts';
import { testCredentials } from './carrier-access.ts';
import { inTransaction } from '../core/transaction.ts';
import { takeAccountTurn } from '../accounts/account-turn.ts';

/** A test-mode connection test refuses these credentials, as a carrier refuses a wrong secret, so clients can rehearse both answers. */
export const refusedTestSecret = 'SHIPD_TEST_INVALID_CREDENTIALS';

const masked = (value: string | undefined) => (value ? `****${value.slice(-4)}` : null);

function toCarrierAccount(row: CarrierAccountsTable, creds: OwnCredentials | null): CarrierAccount {
  return {
    id: row.id,
    object: 'carrier_account',
    carrier: row.carrier as CarrierId,
    description: row.description,
    // Credentials sealed under another SHIPD_SECRET cannot be read: their account number is then unknown.
    account_number: masked(creds?.accountNumber),
    mode: row.mode,
    status: row.status,
    last_tested_at: row.last_tested_at,
    last_test_error: row.last_test_error,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

const mailerFields: [keyof CarrierCredentials, MailerIdKind][] = [
  ['crid', 'crid'],
  ['mid', 'mid'],
  ['manifest_mid', 'mid'],
];

/** USPS's mailer ids by their published formats; the other carriers have none, so giving one is a mistake worth saying. */
function credentialErrors(carrier: CarrierId, creds: Partial<CarrierCredentials>, errors: FieldError[]): void {
  for (const [name, kind] of mailerFields) {
    const value = creds[name];
    if (value === undefined) continue;
    const pointer = `/credentials/${name}`;
    if (carrier !== 'usps') errors.push(field(pointer, `is for USPS accounts only; ${carrierName(carrier)} has no such id`));
    else {
      const problem = mailerIdProblem(kind, value);
      if (problem) errors.push(field(pointer, problem));
    }
  }
}

const toOwn = (c: CarrierCredentials): OwnCredentials => ({
  clientId: c.client_id,
  clientSecret: c.client_secret,
  ...(c.account_number && { accountNumber: c.account_number }),
  ...(c.crid && { crid: c.crid }),
  ...(c.mid && { mid: c.mid }),
  ...(c.manifest_mid && { manifestMid: c.manifest_mid }),
});

const fromOwn = (c: OwnCredentials): CarrierCredentials => ({
  client_id: c.clientId,
  client_secret: c.clientSecret,
  ...(c.accountNumber && { account_number: c.accountNumber }),
  ...(c.crid && { crid: c.crid }),
  ...(c.mid && { mid: c.mid }),
  ...(c.manifestMid && { manifest_mid: c.manifestMid }),
});

async function ownRow(ctx: Context, id: string): Promise<CarrierAccountsTable> {
  const row = hasPrefix(id, 'ca')
    ? await ctx.db
        .selectFrom('carrier_accounts')
        .selectAll()
        .where('id', '=', id)
        .where('account_id', '=', ctx.principal.accountId)
        .where('mode', '=', ctx.principal.mode)
        .executeTakeFirst()
    : undefined;
  if (!row) throw new ApiError('not_found', `No carrier account ${id}`);
  return row;
}

const answer = (ctx: Context, row: CarrierAccountsTable) => toCarrierAccount(row, openCredentials(ctx.config.secret, row));

/** POST /carrier-accounts: one per carrier and mode; nothing is asked of the carrier until a test. */
export async function createCarrierAccount(ctx: Context, input: CarrierAccountCreate): Promise<CarrierAccount> {
  const errors: FieldError[] = [];
  credentialErrors(input.carrier, input.credentials, errors);
  failIfAny(errors);
  const { accountId, mode } = ctx.principal;
  // In the account's turn, so that two creations at once answer 201 and 409 rather than meeting at the unique key.
  return inTransaction(ctx.db, async (trx) => {
    await takeAccountTurn(trx, accountId);
    const existing = await trx
      .selectFrom('carrier_accounts')
      .select('id')
      .where('account_id', '=', accountId)
      .where('mode', '=', mode)
      .where('carrier', '=', input.carrier)
      .executeTakeFirst();
    if (existing) {
      throw new ApiError('carrier_account_exists', `The account has a ${mode} ${carrierName(input.carrier)} account already (${existing.id}); change its credentials with PATCH /carrier-accounts/${existing.id}`, [
        { in: 'body', pointer: '/carrier', detail: `already connected as ${existing.id}` },
      ]);
    }
    const at = ctx.clock.now().toISOString();
    const row: CarrierAccountsTable = {
      id: newId('ca', ctx.clock.now().getTime()),
      account_id: accountId,
      mode,
      carrier: input.carrier,
      description: input.description ?? null,
      client_id_last4: input.credentials.client_id.slice(-4),
      credentials: sealCredentials(ctx.config.secret, toOwn(input.credentials)),
      status: 'connected',
      last_tested_at: null,
      last_test_error: null,
      created_at: at,
      updated_at: at,
    };
    await trx.insertInto('carrier_accounts').values(row).execute();
    return answer(ctx, row);
  });
}

export async function listCarrierAccountsOf(ctx: Context, query: { carrier?: CarrierId }): Promise<CarrierAccount[]> {
  let q = ctx.db.selectFrom('carrier_accounts').selectAll().where('account_id', '=', ctx.principal.accountId).where('mode', '=', ctx.principal.mode);
  if (query.carrier) q = q.where('carrier', '=', query.carrier);
  return (await q.orderBy('created_at').orderBy('id').execute()).map((row) => answer(ctx, row));
}

export async function getCarrierAccount(ctx: Context, id: string): Promise<CarrierAccount> {
  return answer(ctx, await ownRow(ctx, id));
}

/** PATCH: the credential fields given replace the stored ones, the others stay; changed credentials are untested again. */
export async function updateCarrierAccount(ctx: Context, id: string, patch: CarrierAccountUpdate): Promise<CarrierAccount> {
  const row = await ownRow(ctx, id);
  const carrier = row.carrier as CarrierId;
  const errors: FieldError[] = [];
  if (patch.credentials) credentialErrors(carrier, patch.credentials, errors);
  failIfAny(errors);
  const next: Partial<CarrierAccountsTable> = { updated_at: ctx.clock.now().toISOString() };
  if (patch.description !== undefined) next.description = patch.description;
  if (patch.credentials && Object.keys(patch.credentials).length > 0) {
    const stored = openCredentials(ctx.config.secret, row);
    const merged = { ...(stored ? fromOwn(stored) : {}), ...patch.credentials };
    if (!merged.client_id || !merged.client_secret) {
      // Sealed under another SHIPD_SECRET: what is not given cannot be kept, so all of it must come again.
      throw new ApiError('validation_failed', 'The stored credentials cannot be read with this server secret; send client_id and client_secret again', [
        field(merged.client_id ? '/credentials/client_secret' : '/credentials/client_id', 'is required: the stored credentials cannot be read'),
      ]);
    }
    const creds = toOwn(merged as CarrierCredentials);
    Object.assign(next, { credentials: sealCredentials(ctx.config.secret, creds), client_id_last4: creds.clientId.slice(-4), status: 'connected', last_tested_at: null, last_test_error: null });
  }
  const changed = await ctx.db.updateTable('carrier_accounts').set(next).where('id', '=', row.id).executeTakeFirst();
  if (Number(changed.numUpdatedRows) !== 1) throw new ApiError('not_found', `No carrier account ${id}`);
  return answer(ctx, { ...row, ...next });
}

/**
 * DELETE: live keys then buy that carrier's labels with the platform's account (charged as postage). Labels bought
 * with it stay valid with the carrier, but shipd can no longer void or track them with its credentials.
 */
export async function deleteCarrierAccount(ctx: Context, id: string): Promise<CarrierAccount> {
  const row = await ownRow(ctx, id);
  const removed = await ctx.db.deleteFrom('carrier_accounts').where('id', '=', row.id).executeTakeFirst();
  if (Number(removed.numDeletedRows) !== 1) throw new ApiError('not_found', `No carrier account ${id}`);
  return answer(ctx, row);
}

/**
 * POST /carrier-accounts/{id}/test: a real sign-in and sample rate with live keys (nothing bought), simulated with
 * test keys. A carrier that refuses the credentials marks the account failing and is a 422 saying what it answered; a
 * carrier that is down or slow says nothing of them, so the status stays and the outage is answered as such.
 */
export async function testCarrierAccount(ctx: Context, id: string): Promise<CarrierAccount> {
  const row = await ownRow(ctx, id);
  const creds = openCredentials(ctx.config.secret, row);
  const name = carrierName(row.carrier);
  if (creds === null) {
    throw new ApiError('carrier_account_failing', `The ${name} credentials were sealed with another SHIPD_SECRET and cannot be read; send them again with PATCH /carrier-accounts/${row.id}`);
  }
  let refusal: string | null = null;
  if (row.mode === 'test') {
    // The detail does not name the secret it refused: no answer repeats a credential, not even this documented one.
    if (creds.clientSecret === refusedTestSecret) refusal = `${name} refused the client id and secret (simulated: test mode always refuses the documented invalid-credentials secret)`;
  } else {
    const result = await testCredentials(ctx, row.carrier as CarrierId, creds);
    if (!result.ok && !result.error.credentialsRefused) {
      throw new ApiError(result.error.code === 'carrier_timeout' ? 'carrier_timeout' : 'carrier_error', `${name} could not be asked: ${result.error.detail}; the account's status is unchanged`);
    }
    if (!result.ok) refusal = result.error.detail;
  }
  const at = ctx.clock.now().toISOString();
  const tested = { status: refusal ? ('failing' as const) : ('connected' as const), last_tested_at: at, last_test_error: refusal };
  await ctx.db.updateTable('carrier_accounts').set(tested).where('id', '=', row.id).execute();
  if (refusal) throw new ApiError('carrier_account_failing', `${name} refused the credentials of ${row.id}: ${refusal}`);
  return answer(ctx, { ...row, ...tested });
}
