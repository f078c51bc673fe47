import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.ts';
import { carrierCatalog, domesticServices, servicesAbroad } from '../../carriers/catalog.ts';
import type { Address, AnyAddress } from '../../schemas/address.ts';
import { countryOf, isUsAddress, normalizedAddress, usOriginErrors } from '../addresses/address-rules.ts';
import { countryInSentence } from '../addresses/countries.ts';
import type { RequestedService } from '../../schemas/order.ts';
import type { Context } from '../core/context.ts';
import { ApiError, type FieldError } from '../../kernel/errors.ts';
import { toLocation } from '../locations/locations.ts';
import { defaultPackage, findPackage, type ResolvedPackage } from '../packages/packages.ts';
import { weightInLb } from '../orders/parcels.ts';
import type { Parcel } from '../../schemas/order.ts';

// What orders and rate requests both take in: addresses, the ship-from choice and service codes.

export const field = (pointer: string, detail: string): FieldError => ({ in: 'body', pointer, detail });

/**
 * A ship-from address: in the US, whose addresses always have a state and a ZIP, as carriers expect it (upper-case
 * state, ZIP+4 with its dash, country US). A fault goes to `errors`; the address is then not to be used.
 */
export function normalizeOrigin(address: AnyAddress, pointer: string, errors: FieldError[]): Address {
  const origin = usOriginErrors(address, pointer);
  errors.push(...origin);
  return (origin.length === 0 ? normalizedAddress(address, pointer, errors) : address) as Address;
}

/**
 * A requested service must be the carrier's and fit where the parcel goes: a domestic service within the US (its
 * territories and military post offices included), an international one abroad.
 */
export function checkService(service: RequestedService, to: AnyAddress, pointer: string, errors: FieldError[]): void {
  const carrier = carrierCatalog.find((c) => c.id === service.carrier)!;
  const abroad = !isUsAddress(to);
  const offered = abroad ? servicesAbroad(service.carrier, countryOf(to)) : domesticServices(service.carrier);
  if (offered.some((s) => s.code === service.service)) return;
  const codes = offered.map((s) => s.code).join(', ');
  const sold = carrier.services.some((s) => s.code === service.service);
  const detail = !sold
    ? `is not a ${carrier.name} service; use one of ${codes}`
    : abroad
      ? `is a domestic ${carrier.name} service, for parcels within the US; to ${countryInSentence(countryOf(to))} ${carrier.name} ships by ${codes}`
      : `is an international ${carrier.name} service, for parcels leaving the US; within the US ${carrier.name} ships by ${codes}`;
  errors.push(field(`${pointer}/service`, detail));
}

/** A problem's detail: the first three faults, and how many more. */
export function fieldSummary(errors: FieldError[]): string {
  const summary = errors.slice(0, 3).map((e) => `${e.pointer} ${e.detail}`).join('; ');
  return errors.length > 3 ? `${summary} and ${errors.length - 3} more` : summary;
}

export function failIfAny(errors: FieldError[]): void {
  if (errors.length > 0) throw new ApiError('validation_failed', fieldSummary(errors), errors);
}

/** The ship-from address: given inline, from one of the account's locations, or the account's default. */
export async function resolveShipFrom(
  db: Kysely<DB>,
  ctx: Context,
  input: { ship_from?: AnyAddress; ship_from_id?: string },
  errors: FieldError[],
): Promise<{ address: Address | null; id: string | null }> {
  if (input.ship_from && input.ship_from_id) {
    errors.push(field('/ship_from_id', 'give ship_from or ship_from_id, not both'));
    return { address: null, id: null };
  }
  if (input.ship_from) return { address: normalizeOrigin(input.ship_from, '/ship_from', errors), id: null };
  let q = db.selectFrom('locations').selectAll().where('account_id', '=', ctx.principal.accountId);
  q = input.ship_from_id ? q.where('id', '=', input.ship_from_id) : q.where('is_default', '=', 1);
  const row = await q.executeTakeFirst();
  if (!row) {
    errors.push(
      input.ship_from_id
        ? field('/ship_from_id', 'is not one of the account\'s ship-from locations (GET /ship-from)')
        : field('/ship_from', 'is required: the account has no default ship-from location'),
    );
    return { address: null, id: null };
  }
  const location = toLocation(row);
  // A label's sender line is a name or a company: a location saved with neither signs with its own name.
  const address = location.address.name || location.address.company ? location.address : { ...location.address, name: location.name };
  return { address, id: row.id };
}

/**
 * The package id a parcel goes in: the one named, else the account's default box when the parcel gives no size of
 * its own. Orders store the result, so a later change of default never changes what an existing order ships in.
 */
export async function packageIdFor(db: Kysely<DB>, ctx: Context, packageId: string | undefined, parcel: Parcel | null | undefined): Promise<string | undefined> {
  if (packageId || parcel?.dimensions) return packageId;
  return (await defaultPackage(db, ctx.principal.accountId))?.preset.id;
}

/** The package a parcel is packed in: its dimensions come from the package, and its weight must fit it. */
export async function resolvePackage(
  db: Kysely<DB>,
  ctx: Context,
  packageId: string,
  parcel: Parcel | null | undefined,
  errors: FieldError[],
  pointers: { package: string; parcel: string } = { package: '/package_id', parcel: '/parcel' },
): Promise<ResolvedPackage | undefined> {
  const found = await findPackage(db, ctx.principal.accountId, packageId);
  if (!found) {
    errors.push(field(pointers.package, 'is not a carrier box or one of the account\'s packages (GET /packages)'));
    return undefined;
  }
  if (parcel?.dimensions) errors.push(field(`${pointers.parcel}/dimensions`, 'comes from the package; send only the weight'));
  const max = found.preset.max_weight;
  if (parcel && weightInLb(parcel.weight) > weightInLb(max)) {
    errors.push(field(`${pointers.parcel}/weight/value`, `is over the ${max.value} ${max.unit} that ${found.preset.name} holds`));
  }
  return found;
}

/** One box of a shipment: the parcel as given, in its package if it has one. */
export interface Box {
  parcel: Parcel;
  pkg?: ResolvedPackage;
}

/**
 * Each box in its package: its own package_id, else the shipment's (`packageId`, the order's stored one or the
 * request's), else the account's default box when it gives no size. A box's faults point at `pointer(i)`. The boxes
 * of one shipment are all in one carrier's box or none is: a carrier's box ships only with that carrier, at its price.
 */
export async function resolveBoxes(
  db: Kysely<DB>,
  ctx: Context,
  parcels: Parcel[],
  packageId: string | null | undefined,
  errors: FieldError[],
  pointer: (index: number) => string,
): Promise<Box[]> {
  const boxes: Box[] = [];
  for (const [i, parcel] of parcels.entries()) {
    const own = parcel.package_id;
    const id = own ?? (parcels.length === 1 ? packageId : await packageIdFor(db, ctx, packageId ?? undefined, parcel));
    const pkg = id ? await resolvePackage(db, ctx, id, parcel, errors, { package: own ? `${pointer(i)}/package_id` : '/package_id', parcel: pointer(i) }) : undefined;
    boxes.push({ parcel, ...(pkg && { pkg }) });
  }
  const carrierBoxes = new Set(boxes.map((b) => b.pkg?.box?.id ?? null));
  if (boxes.length > 1 && carrierBoxes.size > 1 && [...carrierBoxes].some((id) => id !== null)) {
    errors.push(field('/parcels', "the boxes of one shipment are all in the same carrier's box (GET /packages) or none is"));
  }
  return boxes;
}
