import { Type } from '@sinclair/typebox';
import { listLocations } from '../domain/locations/locations.ts';
import { createShipFrom, deleteShipFrom, getShipFrom, updateShipFrom } from '../domain/locations/location-changes.ts';
import { listPackages } from '../domain/packages/packages.ts';
import { changePackage, createPackage, deletePackage } from '../domain/packages/package-changes.ts';
import { Location, LocationCreate, LocationIdParams, LocationList, LocationUpdate } from '../schemas/location.ts';
import { PackageCreate, PackageIdParams, PackageList, PackageListQuery, PackagePreset, PackageUpdate } from '../schemas/package.ts';
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
      '(added with POST /packages, or `shipd packages add` on the server). Use an id as `package_id` in an order or a rate request; filter by `carrier` or `kind`. Changes nothing.',
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
      'The addresses the account ships from, the default first. Locations are added with POST /ship-from (or `shipd locations add` on the server). Use an id as `ship_from_id`; ' +
      'the default is used when an order, a rate request or a pickup gives no ship-from. Changes nothing.',
    query: Type.Object({}, { additionalProperties: false }),
    response: Type.Ref(LocationList),
    responseDescription: 'The locations',
    errors: [],
    readOnly: true,
    handler: async (ctx) => all(await listLocations(ctx.db, ctx.principal.accountId)),
  }),
  defineOperation({
    id: 'createShipFrom',
    method: 'POST',
    path: '/ship-from',
    tag: 'Ship-from locations',
    summary: 'Add a ship-from location',
    description:
      'Adds an address the account ships from. It is checked as POST /addresses/validate checks it (with a carrier\'s street-level answer for live keys) ' +
      'and kept normalized; one carriers cannot deliver to is a 400 at the field at fault, and one outside the US a 400 at `/address/country`. ' +
      "The account's first location, or one sent with `is_default: true`, becomes the default. Locations are the account's: every key of it sees and changes them.",
    body: LocationCreate,
    response: Type.Ref(Location),
    responseDescription: 'The location',
    successStatus: 201,
    errors: [],
    idempotent: true,
    ownTransactions: true,
    handler: (ctx, { body }) => createShipFrom(ctx, body),
  }),
  defineOperation({
    id: 'getShipFrom',
    method: 'GET',
    path: '/ship-from/:id',
    tag: 'Ship-from locations',
    summary: 'Get a ship-from location',
    description: "One of the account's locations. 404 for an id that is not the account's. Changes nothing.",
    params: LocationIdParams,
    response: Type.Ref(Location),
    responseDescription: 'The location',
    errors: ['not_found'],
    readOnly: true,
    handler: (ctx, { params }) => getShipFrom(ctx, params.id),
  }),
  defineOperation({
    id: 'updateShipFrom',
    method: 'PATCH',
    path: '/ship-from/:id',
    tag: 'Ship-from locations',
    summary: 'Change a ship-from location',
    description:
      'Renames it, moves it (the new address checked as on creation; orders already made keep theirs), or makes it the default with `is_default: true`. ' +
      'The default cannot be unset on its own: make another location the default instead.',
    params: LocationIdParams,
    body: LocationUpdate,
    response: Type.Ref(Location),
    responseDescription: 'The location',
    errors: ['not_found'],
    handler: (ctx, { params, body }) => updateShipFrom(ctx, params.id, body),
  }),
  defineOperation({
    id: 'deleteShipFrom',
    method: 'DELETE',
    path: '/ship-from/:id',
    tag: 'Ship-from locations',
    summary: 'Remove a ship-from location',
    description:
      'Removes it. While orders not yet shipped from it or scheduled pickups there still use it, 409 `resource_in_use` names them. ' +
      'Removing the default makes the oldest location left the default.',
    params: LocationIdParams,
    response: Type.Ref(Location),
    responseDescription: 'The location removed',
    errors: ['not_found', 'resource_in_use'],
    handler: (ctx, { params }) => deleteShipFrom(ctx, params.id),
  }),
  defineOperation({
    id: 'createPackage',
    method: 'POST',
    path: '/packages',
    tag: 'Packages',
    summary: 'Add a custom box',
    description:
      "Adds one of the account's own boxes, within the carriers' limits (length plus girth 165 in, 150 lb). With `is_default: true` it becomes the box orders and rates use " +
      "when they give neither package_id nor parcel dimensions. Boxes are the account's: every key of it sees and changes them.",
    body: PackageCreate,
    response: Type.Ref(PackagePreset),
    responseDescription: 'The box',
    successStatus: 201,
    errors: [],
    idempotent: true,
    handler: (ctx, { body }) => createPackage(ctx, body),
  }),
  defineOperation({
    id: 'updatePackage',
    method: 'PATCH',
    path: '/packages/:id',
    tag: 'Packages',
    summary: 'Change a custom box',
    description:
      "Changes one of the account's own boxes; orders not yet shipped that name it are rated with its new size from then on. A carrier's box cannot be changed (404).",
    params: PackageIdParams,
    body: PackageUpdate,
    response: Type.Ref(PackagePreset),
    responseDescription: 'The box',
    errors: ['not_found'],
    handler: (ctx, { params, body }) => changePackage(ctx, params.id, body),
  }),
  defineOperation({
    id: 'deletePackage',
    method: 'DELETE',
    path: '/packages/:id',
    tag: 'Packages',
    summary: 'Remove a custom box',
    description: "Removes one of the account's own boxes. While orders not yet shipped name it, 409 `resource_in_use` names them; labels already bought keep their size.",
    params: PackageIdParams,
    response: Type.Ref(PackagePreset),
    responseDescription: 'The box removed',
    errors: ['not_found', 'resource_in_use'],
    handler: (ctx, { params }) => deletePackage(ctx, params.id),
  }),
];
