import type { ParcelSpec } from '../carrier.ts';
import { dollars } from '../../kernel/dollars.ts';

/**
 * USPS insures a parcel as an extra service (ExtraService in domestic-labels.yaml 3.9.13 and shipping-options.yaml
 * 3.1.29, karrioapi/karrio modules/connectors/usps/vendor/ at deea10f8, the copies test/contracts/usps cites):
 * 930 "Insurance <= $500" and 931 "Insurance > $500", the value insured in US dollars as `packageValue`, which both
 * specs require with insurance ("Package value is required when an 'extraServiceCode' value of '930' is provided",
 * PackageOptions; "Required to receive prices for Insurance", the options search). The Labels API would turn a 930
 * above $500 into a 931 itself; the options search says no such thing, so the code is chosen from the amount for both.
 * The international APIs name the same two codes (InternationalPackageDescription.extraServices of
 * international-labels.yaml 3.2.2, "Only one … Insurance extra service may be selected per package", with
 * PackageOptions.packageValue "in US dollars. Used to calculate Insurance Fees"; TotalRatesQuery of
 * international-prices.yaml 3.3.5, whose itemValue is "Required for Insurance"), so a parcel abroad is insured alike.
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

/**
 * The most USPS insures a parcel for abroad. Priority Mail International and Priority Mail Express International take
 * merchandise insurance "up to the maximum amount allowed by the country … but never to exceed $5,000" (International
 * Mail Manual 322, Priority Mail International insurance, in USPS's archived IMM of 2021-06-20,
 * pe.usps.com/IMM_Archive/NHTML/IMM_Archive_20210620/immc3_006.htm; the same ceiling for Express Mail International,
 * now Priority Mail Express International, in the 2011 IMM, pe.usps.gov/IMM_Archive/HTML/IMM_Archive_2011/imm/
 * immc3_006.htm, 322.3, and "a limit of $5000.00" in USPS's Priority Mail Express International insurance terms,
 * cns.usps.com/modals/insuranceTermsAndConditions.html). Each country's own maximum (IMM Exhibit 322.2 and the
 * Individual Country Listings) is not in the material shipd draws on, so below $5,000 it is USPS's to refuse.
 */
export const uspsInsuranceAbroadLimitCents = 500_000;

/** Why a parcel abroad cannot be insured for what it asks, if it cannot: above the ceiling every country shares. */
export function uspsInsuranceAbroadRefusal(parcels: readonly Pick<ParcelSpec, 'insuredCents'>[]): string | undefined {
  const above = parcels.findIndex((p) => (p.insuredCents ?? 0) > uspsInsuranceAbroadLimitCents);
  if (above < 0) return undefined;
  const which = parcels.length > 1 ? `box ${above + 1} asks` : 'this parcel asks';
  return `USPS insures a parcel to another country for at most ${dollars(uspsInsuranceAbroadLimitCents)}, less where the country sets a lower limit; ${which} ${dollars(parcels[above]!.insuredCents!)}`;
}
