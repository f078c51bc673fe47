import type { ParcelSpec } from '../carrier.ts';

/**
 * USPS insures a parcel as an extra service (ExtraService in domestic-labels.yaml 3.9.13 and shipping-options.yaml
 * 3.1.29, karrioapi/karrio modules/connectors/usps/vendor/ at deea10f8, the copies test/contracts/usps cites):
 * 930 "Insurance <= $500" and 931 "Insurance > $500", the value insured in US dollars as `packageValue`, which both
 * specs require with insurance ("Package value is required when an 'extraServiceCode' value of '930' is provided",
 * PackageOptions; "Required to receive prices for Insurance", the options search). The Labels API would turn a 930
 * above $500 into a 931 itself; the options search says no such thing, so the code is chosen from the amount for both.
 */
export const uspsInsuranceCodes = { upTo500: 930, above500: 931 } as const;

const limitOf930Cents = 50_000;

export interface UspsInsurance {
  code: 930 | 931;
  /** The amount insured, in US dollars. */
  packageValue: number;
}

export function uspsInsurance(parcel: Pick<ParcelSpec, 'insuredCents'>): UspsInsurance | undefined {
  const cents = parcel.insuredCents;
  if (cents === undefined) return undefined;
  return { code: cents > limitOf930Cents ? uspsInsuranceCodes.above500 : uspsInsuranceCodes.upTo500, packageValue: cents / 100 };
}

/** The options search's packageDescription fields (DomesticPackageDescription: extraServices and packageValue side by side). */
export function insuranceToPrice(parcel: Pick<ParcelSpec, 'insuredCents'>): Record<string, unknown> {
  const insured = uspsInsurance(parcel);
  return insured ? { extraServices: [insured.code], packageValue: insured.packageValue } : {};
}

/**
 * The label's packageDescription fields: the value goes under `packageOptions` there (PackageOptions.packageValue).
 * An outbound label insured above $500 also states `physicalSignatureRequired`, which the Labels spec says is
 * "required to include" 931 or 930 above $500 (BaseDomesticPackageDescription); false keeps what USPS does without it,
 * a signature either on paper or electronic, as nothing beyond insurance was asked. Return labels have no such field
 * (BaseReturnsPackageDescription).
 */
export function insuranceToLabel(parcel: Pick<ParcelSpec, 'insuredCents'>, outbound: boolean): Record<string, unknown> {
  const insured = uspsInsurance(parcel);
  if (!insured) return {};
  const signed = outbound && insured.code === uspsInsuranceCodes.above500 ? { physicalSignatureRequired: false } : {};
  return { extraServices: [insured.code], packageOptions: { packageValue: insured.packageValue }, ...signed };
}
