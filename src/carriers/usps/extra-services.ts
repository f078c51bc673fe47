import type { SurchargeType } from '../../schemas/surcharge.ts';
import type { ParcelSpec } from '../carrier.ts';
import { asArray, asCents, at } from '../live/lenient.ts';
import { optionAsks, optionRule, type ShipmentOptions } from '../options.ts';
import type { Surcharge } from '../surcharges.ts';
import { uspsInsurance, uspsInsuranceCodes } from './insurance.ts';

/*
 * Delivery options and insurance as USPS extra services: the `extraServices` codes of packageDescription
 * (ExtraService in domestic-labels.yaml 3.9.13 and shipping-options.yaml 3.1.29, karrioapi/karrio
 * modules/connectors/usps/vendor/ at deea10f8, read 2026-11-27), which carriers/options.ts names per option. The
 * options search prices each code asked in its rate options' extraServices[] ({name, SKU, price, extraService}); a
 * label lists what it charged for them in its own extraServices[].
 */

/** What one service is asked beyond postage for the options: its extra service codes, and a nonstandard parcel. */
export interface UspsExtras {
  codes: number[];
  /**
   * `non_machinable`: the parcel has nonstandard characteristics (hasNonstandardCharacteristics, "cylindrical tubes and
   * rolls, certain high-density items, cartons containing … liquids …", both specs), so it goes as NONSTANDARD.
   */
  nonstandard: boolean;
}

export const noExtras: UspsExtras = { codes: [], nonstandard: false };

/** The extras of the options on this service, or undefined where it does not do one of them (carriers/options.ts). */
export function uspsExtras(service: string, options: ShipmentOptions | undefined): UspsExtras | undefined {
  const codes: number[] = [];
  let nonstandard = false;
  for (const ask of optionAsks(options)) {
    const rule = optionRule('usps', service, ask);
    if (!rule) return undefined;
    // A hold is toAddress.holdForPickup on the label (hold.ts), no extra service: nothing to price or declare here.
    if (ask === 'hold_for_pickup') continue;
    if (ask === 'non_machinable') nonstandard = true;
    else if (!codes.includes(Number(rule.code))) codes.push(Number(rule.code));
  }
  return { codes, nonstandard };
}

/**
 * The codes the Labels spec asks `physicalSignatureRequired` with (BaseDomesticPackageDescription: "required to include
 * … 910, 911, 912, 913, 921, 922, 923, 924, 925, 931, 934, 955, 981 or an extraServiceCode value of 930 with a
 * packageValue greater than 500"); shipd sends 921, 922, 981 and 931 of them.
 */
const signedCodes = new Set([921, 922, 981, uspsInsuranceCodes.above500]);

/** Each code shipd asks for, as the surcharge its price is shown under. */
const surchargeOfCode: Readonly<Record<string, SurchargeType>> = {
  '920': 'delivery_confirmation',
  '921': 'signature',
  '922': 'signature',
  '981': 'signature',
  '819': 'dry_ice',
  '820': 'hazmat',
  '831': 'hazmat',
  [uspsInsuranceCodes.upTo500]: 'insurance',
  [uspsInsuranceCodes.above500]: 'insurance',
};

/** The codes asked for the parcel: the options', then its insurance's. */
export function allCodes(parcel: Pick<ParcelSpec, 'insuredCents'>, extras: UspsExtras): number[] {
  const insured = uspsInsurance(parcel);
  return [...extras.codes, ...(insured ? [insured.code] : [])];
}

/**
 * The options search's packageDescription fields: extraServices with packageValue beside them ("Required to receive
 * prices for Insurance", DomesticPackageDescription), and hasNonstandardCharacteristics.
 */
export function extrasToPrice(parcel: Pick<ParcelSpec, 'insuredCents'>, extras: UspsExtras): Record<string, unknown> {
  const codes = allCodes(parcel, extras);
  const insured = uspsInsurance(parcel);
  return {
    ...(codes.length > 0 && { extraServices: codes }),
    ...(insured && { packageValue: insured.packageValue }),
    ...(extras.nonstandard && { hasNonstandardCharacteristics: true }),
  };
}

/**
 * The label's packageDescription fields: the insured value goes under `packageOptions` there (PackageOptions
 * .packageValue). An outbound label with a signature code or 931 states `physicalSignatureRequired`, which the Labels
 * spec requires with them; false keeps what USPS does without it, a signature on paper or electronic. Return labels
 * have no such field (BaseReturnsPackageDescription). The Labels API has no field for the weight of dry ice: 819
 * declares it.
 */
export function extrasToLabel(parcel: Pick<ParcelSpec, 'insuredCents'>, extras: UspsExtras, outbound: boolean): Record<string, unknown> {
  const codes = allCodes(parcel, extras);
  const insured = uspsInsurance(parcel);
  const signed = outbound && codes.some((c) => signedCodes.has(c));
  return {
    ...(codes.length > 0 && { extraServices: codes }),
    ...(insured && { packageOptions: { packageValue: insured.packageValue } }),
    ...(signed && { physicalSignatureRequired: false }),
    ...(extras.nonstandard && { hasNonstandardCharacteristics: true }),
  };
}

/**
 * A rate option's extraServices entries that carry a price, with their code as a string. International prices'
 * TotalRatesQueryResult declares each entry as an ExtraServiceRateDetails, itself an array of entries
 * (international-prices.yaml 3.3.5), so an entry that is a list is read as the entries it holds.
 */
function pricedEntries(option: unknown): { code: string; cents: number }[] {
  return asArray(at(option, 'extraServices')).flatMap((entry) => (Array.isArray(entry) ? entry : [entry])).flatMap((service) => {
    const cents = asCents(at(service, 'price'));
    return cents === undefined ? [] : [{ code: String(at(service, 'extraService') ?? ''), cents }];
  });
}

/**
 * The extra services asked (`codes`) as a rate option prices them, each as its surcharge: the option's price includes
 * them (RateOptions.totalPrice, "including the `totalBasePrice` and all extra service prices"). An entry for a code not
 * asked (the spec's own example answers a 957 beside its rate) is not what the label will be charged, so is left out.
 */
export function extraServiceSurcharges(option: unknown, codes: readonly number[]): Surcharge[] {
  return pricedEntries(option)
    .filter(({ code }) => codes.some((c) => String(c) === code))
    .map(({ code, cents }) => ({ type: surchargeOfCode[code] ?? 'other', amountCents: cents }));
}

/**
 * Whether the option prices every code asked: a service USPS does not price an extra service for is one it does not
 * sell it with, so it is not quoted rather than quoted without it.
 */
export function pricesEvery(option: unknown, codes: readonly number[]): boolean {
  const priced = new Set(pricedEntries(option).map((e) => e.code));
  return codes.every((c) => priced.has(String(c)));
}
