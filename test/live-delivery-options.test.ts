import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { TestServer } from './harness.ts';
import { austin, orderBody } from './fixtures.ts';
import type { CarrierFakes } from './fakes/carriers.ts';
import { startLiveShop, type LiveShop } from './live-billing.ts';
import { contractViolations } from './contracts/check.ts';
import { fedexRateRequest } from './contracts/fedex/rate.ts';
import { fedexShipRequest } from './contracts/fedex/ship.ts';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- tests read whatever JSON came back

/** FedEx labels need the shipper's phone live. */
const anOrder = (overrides: Record<string, unknown> = {}) => orderBody({ ship_from: { ...austin, phone: '512-555-0100' }, ...overrides });

describe('delivery options with live keys (fake carrier servers)', () => {
  let fakes: CarrierFakes;
  let server: TestServer;
  let key: string;
  let live: LiveShop;
  before(async () => {
    live = await startLiveShop();
    ({ server, fakes, key } = live);
  });
  after(() => live.close());

  const lastCall = (calls: { path: string; body: unknown }[], path: RegExp): Json => calls.findLast((c) => path.test(c.path))!.body as Json;

  /** A rate shop with the options, and the label bought from the carrier's first rate (its service pinned, if given). */
  async function shopAndBuy(carrier: string, options: Json, order: Json = {}, service?: string): Promise<{ shop: Json; label: Json }> {
    const o = await server.request('POST', '/orders', { key, body: anOrder(order) });
    assert.equal(o.status, 201, o.text);
    const shop = await server.request('POST', '/rates', { key, body: { order_id: o.body.id, carriers: [carrier], options, ...(service && { services: [service] }) } });
    assert.equal(shop.status, 200, shop.text);
    const rate = (shop.body.rates as Json[]).find((r) => r.carrier === carrier);
    assert.ok(rate, shop.text);
    const label = await server.request('POST', '/shipments', { key, body: { order_id: o.body.id, rate_id: rate.id } });
    assert.equal(label.status, 201, label.text);
    return { shop: shop.body, label: label.body };
  }

  describe('FedEx', () => {
    const ratePath = /^\/rate\/v1\/rates\/quotes$/;
    const shipPath = /^\/ship\/v1\/shipments$/;

    test('a signature, alcohol, additional handling, dry ice and batteries go as package special services in the rate and the ship request', async () => {
      const options = { signature: 'adult', alcohol: { recipient: 'consumer' }, additional_handling: true, dry_ice: { weight: { value: 11, unit: 'oz' } }, hazmat: 'lithium_ion_in_equipment' };
      const { label } = await shopAndBuy('fedex', options);
      assert.deepEqual(label.options, options);
      const rated = lastCall(fakes.fedex.calls, ratePath).requestedShipment;
      assert.deepEqual(rated.requestedPackageLineItems[0].packageSpecialServices, {
        specialServiceTypes: ['SIGNATURE_OPTION', 'ALCOHOL', 'NON_STANDARD_CONTAINER', 'DRY_ICE', 'BATTERY'],
        signatureOptionType: 'ADULT',
        alcoholDetail: { alcoholRecipientType: 'CONSUMER' },
        dryIceWeight: { units: 'KG', value: 0.3 },
        batteryDetails: [{ material: 'LITHIUM_ION', packing: 'CONTAINED_IN_EQUIPMENT' }],
      });
      assert.deepEqual(rated.shipmentSpecialServices, { specialServiceTypes: ['DRY_ICE'], shipmentDryIceDetail: { totalWeight: { units: 'KG', value: 0.3 }, packageCount: 1 } });
      const shipped = lastCall(fakes.fedex.calls, shipPath).requestedShipment;
      assert.deepEqual(shipped.requestedPackageLineItems[0].packageSpecialServices.batteryDetails, [{ batteryMaterialType: 'LITHIUM_ION', batteryPackingType: 'CONTAINED_IN_EQUIPMENT' }]);
      assert.deepEqual(shipped.requestedPackageLineItems[0].packageSpecialServices.specialServiceTypes, ['SIGNATURE_OPTION', 'ALCOHOL', 'NON_STANDARD_CONTAINER', 'DRY_ICE', 'BATTERY']);
      assert.deepEqual(shipped.shipmentSpecialServices, rated.shipmentSpecialServices);
    });

    test('Saturday delivery is a shipment special service, an indirect signature and limited quantities a package one', async () => {
      const { label } = await shopAndBuy('fedex', { saturday_delivery: true, signature: 'indirect' }, {}, 'PRIORITY_OVERNIGHT');
      assert.equal(label.service, 'PRIORITY_OVERNIGHT');
      let shipped = lastCall(fakes.fedex.calls, shipPath).requestedShipment;
      assert.deepEqual(shipped.shipmentSpecialServices, { specialServiceTypes: ['SATURDAY_DELIVERY'] });
      assert.deepEqual(shipped.requestedPackageLineItems[0].packageSpecialServices, { specialServiceTypes: ['SIGNATURE_OPTION'], signatureOptionType: 'INDIRECT' });
      assert.deepEqual(lastCall(fakes.fedex.calls, ratePath).requestedShipment.shipmentSpecialServices, { specialServiceTypes: ['SATURDAY_DELIVERY'] });

      await shopAndBuy('fedex', { hazmat: 'limited_quantity' });
      shipped = lastCall(fakes.fedex.calls, shipPath).requestedShipment;
      assert.match(shipped.serviceType, /^(FEDEX_GROUND|GROUND_HOME_DELIVERY)$/);
      assert.deepEqual(shipped.requestedPackageLineItems[0].packageSpecialServices, { specialServiceTypes: ['DANGEROUS_GOODS'], dangerousGoodsDetail: { options: ['LIMITED_QUANTITIES_COMMODITIES'] } });
    });

    test("FedEx's published contract refuses a wrong signature type, dry ice without its weight or in pounds, and alcohol without its recipient", () => {
      const rate = (pkg: Json, shipment?: Json) => ({
        accountNumber: { value: '740561073' },
        requestedShipment: {
          shipper: { address: { postalCode: '78701', countryCode: 'US' } },
          recipient: { address: { postalCode: '94105', countryCode: 'US' } },
          pickupType: 'DROPOFF_AT_FEDEX_LOCATION',
          ...(shipment && { shipmentSpecialServices: shipment }),
          requestedPackageLineItems: [{ weight: { units: 'LB', value: 2 }, packageSpecialServices: pkg }],
        },
      });
      assert.deepEqual(contractViolations(fedexRateRequest, rate({ specialServiceTypes: ['SIGNATURE_OPTION'], signatureOptionType: 'ADULT' })), []);
      assert.notDeepEqual(contractViolations(fedexRateRequest, rate({ specialServiceTypes: ['SIGNATURE_OPTION'], signatureOptionType: 'ADULT_SIGNATURE' })), []);
      assert.notDeepEqual(contractViolations(fedexRateRequest, rate({ specialServiceTypes: ['SIGNATURE_OPTION'] })), []);
      assert.notDeepEqual(contractViolations(fedexRateRequest, rate({ specialServiceTypes: ['DRY_ICE'] })), []);
      assert.notDeepEqual(contractViolations(fedexRateRequest, rate({ specialServiceTypes: ['DRY_ICE'], dryIceWeight: { units: 'LB', value: 1 } })), []);
      assert.notDeepEqual(contractViolations(fedexRateRequest, rate({ specialServiceTypes: ['ALCOHOL'], alcoholDetail: {} })), []);
      assert.notDeepEqual(contractViolations(fedexRateRequest, rate({ specialServiceTypes: ['BATTERY'], batteryDetails: [{ batteryMaterialType: 'LITHIUM_ION' }] })), []);
      assert.notDeepEqual(contractViolations(fedexRateRequest, rate({ specialServiceTypes: ['SIGNATURE_OPTION'], signatureOptionType: 'ADULT' }, { specialServiceTypes: ['DRY_ICE'] })), []);
      const ship = { requestedShipment: { requestedPackageLineItems: [{ weight: { units: 'LB', value: 2 }, packageSpecialServices: { specialServiceTypes: ['BATTERY'], batteryDetails: [{ material: 'LITHIUM_ION' }] } }] } };
      assert.ok(contractViolations(fedexShipRequest, ship).some((v) => /batteryDetails/.test(v)), contractViolations(fedexShipRequest, ship).join('\n'));
    });

    test('carbon neutral, which FedEx has no special service for, is refused with option_not_supported and FedEx is not asked', async () => {
      const o = await server.request('POST', '/orders', { key, body: anOrder() });
      const before = fakes.fedex.calls.length;
      const shop = await server.request('POST', '/rates', { key, body: { order_id: o.body.id, carriers: ['fedex'], options: { carbon_neutral: true } } });
      assert.equal(shop.status, 200, shop.text);
      assert.deepEqual(shop.body.rates, []);
      assert.equal(shop.body.errors[0].code, 'option_not_supported');
      assert.equal(fakes.fedex.calls.slice(before).filter((c) => ratePath.test(c.path)).length, 0);
    });
  });
});
