import { Type } from '@sinclair/typebox';
import { createManifest, getManifest, listManifests } from '../domain/ops/manifests.ts';
import { Manifest, ManifestCreate, ManifestIdParams, ManifestList, ManifestListQuery } from '../schemas/manifest.ts';
import { defineOperation } from './operation.ts';

const tag = 'Manifests';
const feature = 'manifests';

export const manifestOperations = [
  defineOperation({
    id: 'createManifest',
    method: 'POST',
    path: '/manifests',
    tag,
    feature,
    summary: 'Close the day: an end-of-day manifest',
    description:
      "The end-of-day form for a carrier and ship date (USPS SCAN Form, UPS End of Day Summary, FedEx Ground Close Manifest) as a PDF at `form_url`. Without `shipment_ids` it lists all of the key's purchased outbound labels of that carrier bought that day (UTC) that are on no manifest yet. Labels on a manifest have been handed over: voiding one answers 409 `label_manifested`. With a live key the carrier is told (`carrier_manifest`): USPS makes SCAN forms (one per origin, at most 40,000 labels each; `form_url` then serves USPS's own forms), FedEx closes the day's Ground shipments (its reports follow the summary), UPS needs nothing (`not_required`). A carrier that refuses answers 422 `manifest_rejected`, and one that does not answer in time 504 `carrier_timeout`; either way the labels stay off any manifest, and a retry asks again. If shipd stops while a carrier makes its forms, the manifest stays `pending` until the worker, or a retry with the same Idempotency-Key, finishes it: the carrier is asked again, which puts no label on a second form (USPS refuses labels already on a SCAN form); if it refuses, the manifest becomes `failed`, with `carrier_error` saying what to do. No label to put on it answers 422 `nothing_to_manifest`; a `shipment_ids` entry that cannot go on it (not yours, voided, another carrier or day, already manifested) is a 400 naming it. Send an Idempotency-Key.",
    body: ManifestCreate,
    response: Type.Ref(Manifest),
    responseDescription: 'The manifest',
    successStatus: 201,
    errors: ['nothing_to_manifest', 'labels_changed', 'manifest_rejected', 'carrier_error', 'carrier_timeout'],
    idempotent: true,
    // A live manifest is recorded pending before its carrier is asked, so that a crash leaves it to be finished.
    ownTransactions: true,
    handler: (ctx, { body }) => createManifest(ctx, body),
  }),
  defineOperation({
    id: 'listManifests',
    method: 'GET',
    path: '/manifests',
    tag,
    feature,
    summary: 'List manifests',
    description: "The calling key's manifests, newest first, a page at a time; filter by `carrier` and `ship_date`. Changes nothing.",
    query: ManifestListQuery,
    response: Type.Ref(ManifestList),
    responseDescription: 'A page of manifests',
    errors: [],
    readOnly: true,
    handler: (ctx, { query }) => listManifests(ctx, query),
  }),
  defineOperation({
    id: 'getManifest',
    method: 'GET',
    path: '/manifests/:id',
    tag,
    feature,
    summary: 'Get a manifest',
    description: 'One manifest, with a fresh `form_url` to the end-of-day form. 404 for an id that is not this key\'s.',
    params: ManifestIdParams,
    response: Type.Ref(Manifest),
    responseDescription: 'The manifest',
    errors: ['not_found'],
    readOnly: true,
    handler: (ctx, { params }) => getManifest(ctx, params.id),
  }),
];
