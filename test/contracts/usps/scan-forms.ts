import { Type } from '@sinclair/typebox';
import { UspsState, Zip4, Zip5 } from './common.ts';

// SCAN Forms v3 `POST /scan-forms/v3/scan-form`. Source: scan-forms.yaml version 3.1.14 (karrioapi/karrio
// modules/connectors/usps/vendor/, commit deea10f8568b2d48c71bbcc11ec11c62cdaf2a6a), components SCANFormRequest,
// LabelShipment, MIDShipment, ManifestMIDShipment, ImageInfo, DestinationEntryFacilityType, SCANFormAddress and
// DomesticAddress.

/** LabelShipment.trackingNumbers: `minItems: 1`, `maxItems: 40000`. */
export const scanFormMaxTrackingNumbers = 40_000;

const mid = Type.String({ pattern: '^(\\d{6}|\\d{9})$' });

const LabelShipment = Type.Object(
  { trackingNumbers: Type.Array(Type.String(), { minItems: 1, maxItems: scanFormMaxTrackingNumbers }) },
  { additionalProperties: false },
);
const MIDShipment = Type.Object({ MID: mid }, { additionalProperties: false });
const ManifestMIDShipment = Type.Object({ manifestMID: mid }, { additionalProperties: false });

export const DestinationEntryFacilityType = Type.Union(
  [
    'NONE',
    'DESTINATION_NETWORK_DISTRIBUTION_CENTER',
    'DESTINATION_REGIONAL_PROCESSING_DISTRIBUTION_CENTER',
    'DESTINATION_SECTIONAL_CENTER_FACILITY',
    'DESTINATION_DELIVERY_UNIT',
    'DESTINATION_SERVICE_HUB',
  ].map((v) => Type.Literal(v)),
);

/** SCANFormAddress: DomesticAddress with ZIPCode, city, state and streetAddress required; open to more fields. */
const SCANFormAddress = Type.Object(
  {
    firstName: Type.Optional(Type.String({ minLength: 1, maxLength: 50 })),
    lastName: Type.Optional(Type.String({ minLength: 1, maxLength: 50 })),
    firm: Type.Optional(Type.String({ minLength: 0, maxLength: 50 })),
    streetAddress: Type.String({ minLength: 1, maxLength: 50 }),
    secondaryAddress: Type.Optional(Type.String({ maxLength: 50 })),
    city: Type.String({ minLength: 1, maxLength: 28 }),
    state: UspsState,
    ZIPCode: Zip5,
    ZIPPlus4: Type.Optional(Zip4),
    urbanization: Type.Optional(Type.String({ maxLength: 96 })),
    ignoreBadAddress: Type.Optional(Type.Boolean()),
  },
  {
    additionalProperties: true,
    // "The `firstName` and `lastName` or `firm` are always required."
    anyOf: [{ required: ['firstName', 'lastName'] }, { required: ['firm'] }],
  },
);

const ImageInfo = Type.Object(
  {
    imageType: Type.Optional(Type.Union(['PDF', 'TIFF', 'JPG', 'PNG', 'GIF', 'SVG', 'ZPL203DPI', 'ZPL300DPI', 'NONE'].map((v) => Type.Literal(v)))),
    labelType: Type.Optional(Type.Union([Type.Literal('8.5X11LABEL'), Type.Literal('4X6LABEL')])),
  },
  { additionalProperties: true },
);

export const ScanFormRequest = Type.Object(
  {
    imageInfo: Type.Optional(ImageInfo),
    form: Type.Optional(Type.Literal('5630')),
    imageType: Type.Optional(Type.String()),
    labelType: Type.Optional(Type.Literal('8.5x11LABEL')),
    mailingDate: Type.String({ format: 'date' }),
    overwriteMailingDate: Type.Optional(Type.Boolean()),
    entryFacilityZIPCode: Zip5,
    destinationEntryFacilityType: DestinationEntryFacilityType,
    shipment: Type.Union([LabelShipment, MIDShipment, ManifestMIDShipment]),
    fromAddress: SCANFormAddress,
  },
  { additionalProperties: false },
);
