import type { ParcelSpec, DomesticPurchaseRequest } from '../../src/carriers/carrier.ts';
import type { LabelFormat } from '../../src/labels/label-data.ts';
import type { Address } from '../../src/schemas/address.ts';
import type { ShipmentOptions } from '../../src/schemas/options.ts';

export interface PurchaseCase {
  request: DomesticPurchaseRequest;
  /** What the case is, for a failure message: direction, service, format, parcel and the two addresses. */
  what: string;
}

/**
 * Every purchase a contract test checks: each service in each label format, each parcel, between every two of the
 * addresses, outbound and return; every other case carries an order reference. `boxSets` adds shipments of several
 * boxes, each set in the same way. Where `options` lists the delivery options a service does, its cases take them in
 * turn, one set each.
 */
export function* purchaseCases(o: {
  services: readonly string[];
  parcels: Readonly<Record<string, ParcelSpec>>;
  addresses: Readonly<Record<string, Address>>;
  shipDate: Date;
  reference: string;
  boxSets?: Readonly<Record<string, readonly ParcelSpec[]>>;
  options?: (service: string) => readonly ShipmentOptions[];
}): Generator<PurchaseCase> {
  const formats: LabelFormat[] = ['pdf', 'png', 'zpl'];
  let n = 0;
  const shipments: [string, ParcelSpec[]][] = [
    ...Object.entries(o.parcels).map(([name, parcel]): [string, ParcelSpec[]] => [name, [parcel]]),
    ...Object.entries(o.boxSets ?? {}).map(([name, boxes]): [string, ParcelSpec[]] => [name, [...boxes]]),
  ];
  for (const service of o.services) {
    const optionSets = o.options?.(service) ?? [];
    for (const labelFormat of formats)
      for (const [parcelName, parcels] of shipments)
        for (const [fromName, from] of Object.entries(o.addresses))
          for (const [toName, to] of Object.entries(o.addresses))
            for (const isReturn of [false, true]) {
              // A set for each outbound and return pair, so every set goes both ways.
              const options = optionSets.length > 0 ? optionSets[Math.floor(n / 2) % optionSets.length] : undefined;
              const request: DomesticPurchaseRequest = {
                from, to, parcels, shipDate: o.shipDate, service, labelFormat, isReturn, quotedCents: 1000, idempotencyKey: `k-${n}`,
                ...(n % 2 ? { reference: o.reference } : {}),
                ...(options && Object.keys(options).length > 0 && { options }),
              };
              n++;
              const asked = options && Object.keys(options).length > 0 ? ` with ${JSON.stringify(options)}` : '';
              yield { request, what: `${isReturn ? 'return' : 'outbound'} ${service} ${labelFormat} ${parcelName} from ${fromName} to ${toName}${asked}` };
            }
  }
}
