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
