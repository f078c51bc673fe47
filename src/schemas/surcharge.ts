import { Type, type Static } from '@sinclair/typebox';
import { StringEnum } from './common.ts';
import { CurrencyAmount } from './customs.ts';

/**
 * The kinds of surcharge shipd names on a rate, the same for every carrier: each carrier's own codes map onto these
 * (test mode's pricing, and a table per live adapter), and a charge that maps to none is `other`. Each is already included
 * in the rate's amount; what is left of the amount is transport.
 */
export const surchargeTypes = {
  fuel: 'Fuel surcharge on transport and the fuel-bearing surcharges',
  residential: 'Delivery to a home',
  delivery_area: 'Delivery to a ZIP code on the carrier’s delivery area list',
  extended_delivery_area: 'Delivery to a ZIP code on the extended part of that list',
  remote_area: 'Delivery to a remote area (Alaska, Hawaii, remote ZIP codes)',
  additional_handling: 'A package over the carrier’s size or weight limits for regular handling',
  oversize: 'A package over the carrier’s large-package limits (UPS Large Package, FedEx Oversize)',
  nonstandard: 'USPS nonstandard length or volume fee',
  northern_canada: 'Delivery to northern Canada (FedEx)',
  peak: 'Peak season or demand surcharge',
  signature: 'A signature on delivery (options.signature)',
  saturday_delivery: 'Saturday delivery (options.saturday_delivery)',
  delivery_confirmation: 'Delivery confirmation (options.delivery_confirmation)',
  hold_for_pickup: 'Holding at a carrier location (options.hold_for_pickup)',
  non_machinable: 'A parcel the machines cannot sort (options.non_machinable)',
  dry_ice: 'Dry ice in the parcel (options.dry_ice)',
  alcohol: 'Alcohol in the parcel (options.alcohol)',
  hazmat: 'Dangerous goods in the parcel (options.hazmat)',
  carbon_neutral: 'Carbon-neutral shipping (options.carbon_neutral)',
  insurance: 'The carrier’s charge for the declared value or insurance asked (`insurance`)',
  other: 'Any other charge the carrier itemizes',
} as const;

export type SurchargeType = keyof typeof surchargeTypes;

export const surchargeTypeNames = Object.keys(surchargeTypes) as SurchargeType[];

export const Surcharge = Type.Object(
  {
    type: StringEnum(surchargeTypeNames, {
      description: `What the surcharge is for, named the same for every carrier: ${Object.entries(surchargeTypes).map(([type, meaning]) => `\`${type}\` ${meaning.charAt(0).toLowerCase()}${meaning.slice(1)}`).join('; ')}`,
    }),
    amount: Type.Ref(CurrencyAmount, { description: 'What you pay for it, already included in the rate\'s amount' }),
  },
  { $id: 'Surcharge', title: 'Surcharge', description: 'One surcharge a rate includes', additionalProperties: false, examples: [{ type: 'residential', amount: { amount: '6.50', currency: 'USD' } }] },
);
export type Surcharge = Static<typeof Surcharge>;

