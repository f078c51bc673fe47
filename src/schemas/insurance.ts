import { Type, type Static } from '@sinclair/typebox';
import { Money } from './money.ts';

/** The value a shipment or one box is declared or insured at with its carrier: rate requests, POST /shipments and each Parcel take it, a Shipment and each of its packages show it. */
export const Insurance = Type.Object(
  {
    amount: Type.Ref(Money, {
      description: 'What the contents are worth, in US dollars, more than zero: the most the carrier pays if the parcel is lost or damaged',
      examples: [{ amount: '450.00', currency: 'USD' }],
    }),
  },
  {
    $id: 'Insurance',
    title: 'Insurance',
    description:
      "The carrier's own cover, at its published price: UPS and FedEx declared value (free to $100, at most $50,000 a package), USPS insured mail (the first $100 included with Ground Advantage, " +
      'Priority Mail and Priority Mail Express, at most $5,000). Its cost is the rate\'s `insurance` surcharge, part of `amount` and of the postage charged, and comes back with a void. ' +
      'For the whole shipment (`insurance` of the rate request or POST /shipments) it is split evenly among the boxes; for one box (`parcels[].insurance`) it insures that box alone, and the other boxes are not insured. ' +
      'A carrier that cannot cover the amount drops out of the rate shop with `insurance_above_limit` in `errors`; when none can, the request is a 400 `insurance_above_limit`. ' +
      'Abroad, UPS and FedEx declare each box\'s value live as at home, and live USPS labels carry insurance 930 or 931 with the value, priced by USPS, at most $5,000 a box (less where the country sets a lower limit); test mode prices FedEx\'s international declared value ($1.65 per $100 above the greater of $100 or $9.07 a pound) and USPS\'s international insurance for Priority Mail International and Priority Mail Express International (Notice 123, up to $900; none for First-Class Package International Service), and nothing of UPS abroad. ' +
      'Test mode insures USPS parcels within the US up to $700, the most its stored price list prices',
    additionalProperties: false,
    examples: [{ amount: { amount: '450.00', currency: 'USD' } }],
  },
);
export type Insurance = Static<typeof Insurance>;
