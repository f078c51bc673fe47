import type { FastifyInstance } from 'fastify';
import { Type } from '@sinclair/typebox';
import type { Services } from '../services.ts';
import { ApiError } from '../kernel/errors.ts';
import { labelFile } from '../domain/label-files/label-files.ts';
import type { ProofFormat } from '../domain/label-files/label-store.ts';
import { proofFile } from '../domain/tracking/proofs.ts';
import type { LabelFormat } from '../labels/label-data.ts';
import type { CustomsDocumentType } from '../labels/customs-data.ts';
import { apiBase } from '../kernel/paths.ts';
import { limitAddress, type AddressLimits } from './address-limit.ts';
import { problemResponses } from './routes.ts';
import { answerHeaders, fileSecurityPolicy } from './response-headers.ts';
import { ids } from '../schemas/examples.ts';

const filePattern = /^((shp|bat|man)_[0-9a-z]{26})(?:\.box([1-9][0-9]?))?(?:\.(commercial_invoice|cn22|cn23))?\.(pdf|zpl|png)$/;
/** A tracker's proof of delivery: `{trk_id}.pod{n}.{format}`. */
const proofPattern = /^(trk_[0-9a-z]{26})\.pod([1-9])\.(pdf|png|gif|bin)$/;

/** A file answer carries what keeps a browser from running it, and its name; problems are JSON like any other. */
function fileAnswerHeaders(statuses: number[]) {
  const headers = answerHeaders(statuses, { authenticated: false });
  headers[200]!.push('X-Content-Type-Options', 'Content-Security-Policy', 'Content-Disposition');
  return headers;
}

/**
 * GET /labels/{shp_id}.{pdf|zpl|png}?token=…: the label file itself. It takes no API key, so that a label_url can
 * go straight to a printer; the signed, expiring token in the URL is what authorizes it.
 */
export function registerLabelFiles(app: FastifyInstance, services: Services, addresses: AddressLimits): void {
  const responses = {
    200: {
      description: 'The label: application/pdf, image/png, or ZPL II text; a customs document: application/pdf; a proof of delivery: as its carrier sent it',
      content: {
        'application/pdf': { schema: Type.String({ format: 'binary' }) },
        'image/png': { schema: Type.String({ format: 'binary' }) },
        'application/zpl': { schema: Type.String() },
        'image/gif': { schema: Type.String({ format: 'binary' }) },
        'application/octet-stream': { schema: Type.String({ format: 'binary' }) },
      },
    },
    ...problemResponses(['validation_failed', 'invalid_label_token', 'not_found', 'uri_too_long', 'label_format_unavailable', 'label_voided', 'address_rate_limited', 'internal_error', 'service_unavailable']),
  };
  app.get(
    `${apiBase}/labels/:file`,
    {
      schema: {
        operationId: 'getLabelFile',
        summary: 'Download a label file',
        description:
          "The URL comes from a shipment's `label_url` (any of the three formats can be asked for; with several boxes, every box's label in one file), one of its `packages[].label_url` (`{shp_id}.box{n}.{format}`, box n's own label) or `documents[].url` (`{shp_id}.{type}.pdf`, or a box's own customs form `{shp_id}.box{n}.{type}.pdf`; PDF only), or from a batch's `label_url`, a manifest's `form_url`, or a tracker's `proof_of_delivery[].url` (`{trk_id}.pod{n}.{pdf|png|gif|bin}`, the carrier's proof as it sent it; `bin`, bytes of a kind shipd does not know, is served as a download); its token signs it for 7 days. " +
          'Changes nothing. An expired or altered token answers 403 `invalid_label_token`, a voided label 410 `label_voided`, and a format the carrier did not sell the label in 409 `label_format_unavailable`.',
        tags: ['Shipments'],
        security: [],
        params: Type.Object({
          file: Type.String({
            description: '`{shp_id}.{pdf|zpl|png}`, one box\'s label `{shp_id}.box{n}.{pdf|zpl|png}`, a customs document `{shp_id}.{commercial_invoice|cn22|cn23}.pdf` or a box\'s own `{shp_id}.box{n}.{cn22|cn23}.pdf`, a batch or manifest file, or a tracker\'s proof of delivery `{trk_id}.pod{n}.{format}`',
            examples: [`${ids.shipment}.pdf`, `${ids.shipment}.box2.pdf`, `${ids.shipment}.cn23.pdf`, `${ids.shipment}.box2.cn23.pdf`, `trk_${ids.shipment.slice(4)}.pod1.pdf`],
          }),
        }),
        querystring: Type.Object({ token: Type.String({ minLength: 1, maxLength: 200, description: 'From label_url' }) }, { additionalProperties: false }),
        response: responses,
      },
      // A link the token signs is as good as a key: a printing station fetching a wave of labels is not held back by
      // its address. A refused link counts against the address, as a refused key does.
      config: { responseHeaders: fileAnswerHeaders(Object.keys(responses).map(Number)), ownRateLimit: true },
    },
    async (request, reply) => {
      const { file } = request.params as { file: string };
      const { token } = request.query as { token: string };
      const proof = proofPattern.exec(file);
      if (proof) {
        const [, id, n, format] = proof as unknown as [string, string, string, ProofFormat];
        const ctx = { db: services.database.db, labels: services.labels, config: services.config, clock: services.clock };
        const { bytes, contentType } = await proofFile(ctx, id, Number(n), format, token).catch(async (err: unknown) => {
          if (err instanceof ApiError && err.code === 'invalid_label_token') await limitAddress(addresses, request);
          throw err;
        });
        // Bytes of a kind shipd does not know are handed over as a download, never shown.
        return reply
          .type(contentType)
          .header('Cache-Control', 'private, no-store')
          .header('Content-Disposition', `${format === 'bin' ? 'attachment' : 'inline'}; filename="${file}"`)
          .header('X-Content-Type-Options', 'nosniff')
          .header('Content-Security-Policy', fileSecurityPolicy)
          .send(bytes);
      }
      const match = filePattern.exec(file);
      if (!match) {
        await limitAddress(addresses, request);
        throw new ApiError('not_found', `No label ${file}; label files are named {shp_id}.pdf, .zpl or .png, a box's {shp_id}.box{n}.pdf, .zpl or .png, customs documents {shp_id}.{type}.pdf or a box's {shp_id}.box{n}.{type}.pdf, and proofs of delivery {trk_id}.pod{n}.{format}`);
      }
      const [, id, , box, document, format] = match as unknown as [string, string, string, string | undefined, CustomsDocumentType | undefined, LabelFormat];
      const ctx = { db: services.database.db, labels: services.labels, renderer: services.renderer, config: services.config, clock: services.clock };
      const { bytes, contentType } = await labelFile(ctx, id, format, token, { document, ...(box !== undefined && { box: Number(box) - 1 }) }).catch(async (err: unknown) => {
        if (err instanceof ApiError && err.code === 'invalid_label_token') await limitAddress(addresses, request);
        throw err;
      });
      return reply
        .type(contentType)
        .header('Cache-Control', 'private, no-store')
        .header('Content-Disposition', `inline; filename="${file}"`)
        .header('X-Content-Type-Options', 'nosniff')
        .header('Content-Security-Policy', fileSecurityPolicy)
        .send(bytes);
    },
  );
}
