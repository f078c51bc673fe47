import type { FoundLocation } from '../carrier.ts';
import type { AnyAddress } from '../../schemas/address.ts';
import { upsName } from './wire.ts';

// A parcel held for pickup at a UPS Access Point, as Shipping.yaml and Rating.yaml of UPS-API/api-documentation
// (commit e6f36df4da29ac1b448c898a79aac48f653bbb44, 2026-07-21, read 2026-11-28) write it: Shipment.ShipmentIndicationType
// (an array) with Code "01 - Hold for Pickup at UPS Access Point", and the Access Point as AlternateDeliveryAddress,
// "required if ShipmentIndicationType is 01 or 02". ShipTo stays the recipient, who collects the parcel there.

type Api = 'rating' | 'shipping';

const holdForPickup = [{ Code: '01' }];

/**
 * AlternateDeliveryAddress_Address: AddressLine up to 3 lines of 35, City 30, PostalCode 9; StateProvinceCode 5 in
 * Shipping, 2 in Rating. A longer line is clipped rather than refused: the ship request names the Access Point by its id.
 */
function accessPointAddress(a: FoundLocation['address'], api: Api): Record<string, unknown> {
  return {
    AddressLine: [a.street1, a.street2].filter((l): l is string => !!l).map((l) => l.slice(0, 35).trim()),
    City: a.city.slice(0, 30).trim(),
    StateProvinceCode: a.state.toUpperCase().slice(0, api === 'rating' ? 2 : 5),
    PostalCode: a.zip.replace('-', '').slice(0, 9),
    CountryCode: a.country,
  };
}

/**
 * The Shipment's hold fields. Shipping requires Name ("Retail Location Name"), AttentionName and Address, and takes
 * UPSAccessPointID of 9 characters; the recipient is the one attended to, whom the Access Point hands the parcel.
 * Rating's AlternateDeliveryAddress has only Name and Address.
 */
export function upsAccessPointHold(point: FoundLocation, recipient: AnyAddress, api: Api): Record<string, unknown> {
  const name = point.name.slice(0, 35).trim();
  const address = accessPointAddress(point.address, api);
  if (api === 'rating') return { ShipmentIndicationType: holdForPickup, AlternateDeliveryAddress: { Name: name, Address: address } };
  return {
    ShipmentIndicationType: holdForPickup,
    AlternateDeliveryAddress: { Name: name, AttentionName: (recipient.name ?? upsName(recipient)).slice(0, 35).trim(), UPSAccessPointID: point.id, Address: address },
  };
}
