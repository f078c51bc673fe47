import { Type, type Static } from '@sinclair/typebox';
import { StringEnum } from './common.ts';
import { CarrierIdSchema } from './carrier.ts';
import { Weight } from './order.ts';

/**
 * What the recipient's end of a shipment asks beyond transport, the same names for every carrier (DESIGN.md §14).
 * Each maps to the carrier's own code (carriers/options.ts); a carrier or service that cannot do one is left out of
 * a rate shop with an `option_not_supported` entry in its `errors`, never quietly ignored.
 */
export const ShipmentOptions = Type.Object(
  {
    signature: Type.Optional(
      StringEnum(['standard', 'adult', 'indirect'], {
        description:
          "A signature on delivery: `standard` anyone at the address, `adult` someone 21 or older with photo ID, `indirect` (FedEx only) a neighbour or a signature release left at the door, to a home only. UPS Delivery Confirmation (DCISType), USPS Signature Confirmation or Adult Signature, FedEx Delivery Signature Options",
      }),
    ),
    saturday_delivery: Type.Optional(Type.Boolean({ description: 'Deliver on Saturday where the service reaches the address that day: UPS and FedEx air and overnight services only' })),
    delivery_confirmation: Type.Optional(
      Type.Boolean({ description: 'USPS only: electronic confirmation of delivery without a signature (USPS Tracking). A signature confirms delivery already, so not with `signature`' }),
    ),
    hold_for_pickup: Type.Optional(
      Type.Boolean({
        description:
          'Hold the parcel at a carrier location for the recipient to collect, instead of delivering it: a UPS Access Point, a Post Office, a FedEx location. Needs `hold_location`, one of the locations GET /carrier-locations finds; only the carrier of that location is rated. UPS ShipmentIndicationType 01 with AlternateDeliveryAddress, USPS toAddress.holdForPickup with facilityId (USPS then needs the recipient\'s email and phone), FedEx HOLD_AT_LOCATION',
      }),
    ),
    hold_location: Type.Optional(
      Type.Object(
        {
          carrier: Type.Ref(CarrierIdSchema, { description: 'Whose location it is; only this carrier is rated' }),
          id: Type.String({ minLength: 1, maxLength: 20, pattern: '^[A-Za-z0-9-]+$', description: "The carrier's own id of the location, as GET /carrier-locations gives it" }),
        },
        { description: 'Where `hold_for_pickup` holds the parcel: a location GET /carrier-locations found', additionalProperties: false, examples: [{ carrier: 'fedex', id: 'YBZA' }] },
      ),
    ),
    additional_handling: Type.Optional(
      Type.Boolean({ description: 'The parcel needs handling by hand whatever its size (not boxed in cardboard, round, banded…): UPS AdditionalHandlingIndicator, FedEx NON_STANDARD_CONTAINER' }),
    ),
    non_machinable: Type.Optional(Type.Boolean({ description: 'USPS only: the parcel cannot go through USPS sorting machines (processingCategory NONSTANDARD)' })),
    dry_ice: Type.Optional(
      Type.Object(
        { weight: Type.Ref(Weight, { description: 'How much dry ice the parcel holds; at most the parcel\'s own weight' }) },
        { description: 'The parcel holds dry ice (UN 1845): UPS DryIce, USPS HAZMAT Class 9 Dry Ice, FedEx DRY_ICE', additionalProperties: false },
      ),
    ),
    alcohol: Type.Optional(
      Type.Object(
        {
          recipient: StringEnum(['consumer', 'licensee'], {
            description: 'Who receives it: `consumer` a person (needs `signature: "adult"`), `licensee` a licensed business. The shipper needs the carrier\'s alcohol agreement',
          }),
        },
        { description: 'The parcel holds alcohol: UPS AlcoholicBeveragesIndicator, FedEx ALCOHOL; USPS carries none', additionalProperties: false },
      ),
    ),
    hazmat: Type.Optional(
      StringEnum(['limited_quantity', 'lithium_ion_in_equipment', 'lithium_metal_in_equipment'], {
        description:
          'Dangerous goods the parcel holds, as the carriers name them: hazardous materials in limited quantity (ground only), or lithium-ion or lithium-metal batteries packed in the equipment they power',
      }),
    ),
    carbon_neutral: Type.Optional(Type.Boolean({ description: 'Offset the shipment\'s carbon where the carrier sells it: UPS carbon neutral only' })),
  },
  {
    $id: 'ShipmentOptions',
    title: 'ShipmentOptions',
    description:
      "Delivery options, each priced by the carrier and shown in the rate's `surcharges`. A carrier or service that cannot do one drops out of the rate shop with an `option_not_supported` entry in `errors`; options that contradict each other are a 400 pointing to the field. Abroad: FedEx takes `signature` on its international services and `saturday_delivery` on FedEx International Priority, UPS takes `signature` (`standard`, `adult`, sent on the shipment), USPS takes none; every other option is refused abroad",
    additionalProperties: false,
    examples: [{ signature: 'adult' }, { saturday_delivery: true, signature: 'standard' }, { dry_ice: { weight: { value: 2, unit: 'lb' } } }, { hold_for_pickup: true, hold_location: { carrier: 'fedex', id: 'YBZA' } }],
  },
);
export type ShipmentOptions = Static<typeof ShipmentOptions>;

/** The option names, in the schema's order: how errors and tables name them. */
export type OptionName = keyof ShipmentOptions;
export const optionNames = Object.keys(ShipmentOptions.properties) as OptionName[];
