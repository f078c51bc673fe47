import { Type } from '@sinclair/typebox';
import { listLocations } from '../domain/locations/locations.ts';
import { listPackages } from '../domain/packages/packages.ts';
import { LocationList } from '../schemas/location.ts';
import { PackageList, PackageListQuery } from '../schemas/package.ts';
import { defineOperation } from './operation.ts';

const all = <T>(data: T[]) => ({ object: 'list' as const, data, has_more: false, next_cursor: null });

export const accountResourceOperations = [
  defineOperation({
    id: 'listPackages',
    method: 'GET',
    path: '/packages',
    tag: 'Packages',
    summary: 'List package presets',
    description:
      "The carriers' own boxes (flat rate boxes, Paks, Tubes…) with their sizes and weight limits, then the account's custom boxes " +
      '(added with `shipd packages add`). Use an id as `package_id` in an order or a rate request; filter by `carrier` or `kind`. Changes nothing.',
    query: PackageListQuery,
    response: Type.Ref(PackageList),
    responseDescription: 'The packages',
    errors: [],
    readOnly: true,
    handler: async (ctx, { query }) => all(await listPackages(ctx, query)),
  }),
  defineOperation({
    id: 'listShipFrom',
    method: 'GET',
    path: '/ship-from',
    tag: 'Ship-from locations',
    summary: "List the account's ship-from locations",
    description:
      'The addresses the account ships from, the default first. Locations are added with `shipd locations add`. Use an id as `ship_from_id`; ' +
      'the default is used when an order, a rate request or a pickup gives no ship-from. Changes nothing.',
    query: Type.Object({}, { additionalProperties: false }),
    response: Type.Ref(LocationList),
    responseDescription: 'The locations',
    errors: [],
    readOnly: true,
    handler: async (ctx) => all(await listLocations(ctx.db, ctx.principal.accountId)),
  }),
];
