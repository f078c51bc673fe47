import { Type } from '@sinclair/typebox';
import { carrierAccess } from '../domain/carrier-accounts/carrier-access.ts';
import { shopRates } from '../domain/rating/rating.ts';
import { RateShop, RateShopRequest } from '../schemas/rate.ts';
import { defineOperation } from './operation.ts';

export const rateOperations = [
  defineOperation({
    id: 'shopRates',
    method: 'POST',
    path: '/rates',
    tag: 'Rates',
    summary: 'Shop rates across carriers',
    description:
      'Asks UPS, USPS and FedEx at once (simulators for test keys) and answers every rate, cheapest first. Nothing is bought. ' +
      'Each rate can be bought by id for 24 hours. A carrier that fails or times out adds an entry to `errors`; the others still answer. ' +
      'Rate an order by `order_id` (404 if it is not this key\'s), or give `ship_to` and `parcel`; an address or parcel at fault is a 400 naming the field. ' +
      'A parcel that crosses a customs border (abroad, or to or from a US territory, freely associated state or military post office where USPS asks for a form) ' +
      'needs a `customs` declaration (the order\'s, or one sent with every item complete): without one 400 `customs_required`, a wrong one 400 `customs_invalid`; ' +
      'a recipient abroad needs a phone. Test keys rate abroad (UPS answers in `errors` for now; rates abroad have no delivery estimate); live keys rate abroad through the carriers\' international APIs, a carrier that does not serve the destination answering in `errors`.',
    body: RateShopRequest,
    response: Type.Ref(RateShop),
    responseDescription: 'The rates, and the carriers that could not rate',
    errors: ['not_found', 'customs_required', 'customs_invalid', 'country_not_served'],
    handler: async (ctx, { body }) => shopRates(ctx, (await carrierAccess(ctx, ctx.principal.accountId, ctx.principal.mode)).carriers, body),
  }),
];
