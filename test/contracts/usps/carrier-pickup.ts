import { Type } from '@sinclair/typebox';
import { UspsState, Zip4, Zip5 } from './common.ts';

// Carrier Pickup v3 (`/pickup/v3`). Source: carrier-pickup.yaml version 3.1.8 (karrioapi/karrio
// modules/connectors/usps/vendor/, commit e1754707ebcba368deb2be62c72eabbcd4d31723): components
// SchedulePickupRequest, PickupAddress, Addressee, DomesticAddress, Address, NotificationMethod,
// SchedulePickupRequest_packages, SchedulePickupRequest_pickupLocation and PickupConfirmation; the parameters of
// get-carrier-pickup-eligibility; If-Match of the DELETE. The state is held to the two-letter codes shipd sends,
// a subset of the spec's pattern (which also takes state names).

export const pickupPackageTypes = ['FIRST-CLASS_PACKAGE_SERVICE', 'PRIORITY_MAIL_EXPRESS', 'PRIORITY_MAIL', 'RETURNS', 'USPS_GROUND_ADVANTAGE', 'INTERNATIONAL', 'OTHER'] as const;
export const pickupPackageLocations = ['FRONT_DOOR', 'BACK_DOOR', 'SIDE_DOOR', 'KNOCK_ON_DOOR', 'MAIL_ROOM', 'OFFICE', 'PORCH', 'RECEPTION', 'MAILBOX', 'OTHER'] as const;

/** DomesticAddress (Address + its own fields): streetAddress required; open to more fields as the spec says. */
const PickupDomesticAddress = Type.Object(
  {
    streetAddress: Type.String({ minLength: 1, maxLength: 50 }),
    secondaryAddress: Type.Optional(Type.String({ maxLength: 50 })),
    city: Type.Optional(Type.String({ minLength: 1, maxLength: 28 })),
    state: Type.Optional(UspsState),
    ZIPCode: Type.Optional(Zip5),
    ZIPPlus4: Type.Optional(Zip4),
    urbanization: Type.Optional(Type.String({ maxLength: 96 })),
  },
  { additionalProperties: true },
);

/** NotificationMethod: oneOf EmailNotification and SMSNotification. */
const NotificationMethod = Type.Union([
  Type.Object({ email: Type.String({ maxLength: 50, format: 'email' }) }),
  Type.Object({ cellNumber: Type.String({ pattern: '^\\d{10}$' }) }),
]);

/** PickupAddress: Addressee (firstName and lastName required) with address and one or two contact methods. */
export const PickupAddress = Type.Object(
  {
    firstName: Type.String({ minLength: 1, maxLength: 50 }),
    lastName: Type.String({ minLength: 1, maxLength: 50 }),
    firm: Type.Optional(Type.String({ minLength: 0, maxLength: 50 })),
    address: PickupDomesticAddress,
    contact: Type.Array(NotificationMethod, { minItems: 1, maxItems: 2 }),
  },
  { additionalProperties: false },
);

export const SchedulePickupRequest = Type.Object(
  {
    pickupDate: Type.String({ format: 'date' }),
    pickupAddress: PickupAddress,
    packages: Type.Array(
      Type.Object(
        { packageType: Type.Union(pickupPackageTypes.map((t) => Type.Literal(t))), packageCount: Type.Integer() },
        { additionalProperties: false },
      ),
      { minItems: 1 },
    ),
    estimatedWeight: Type.Number(),
    pickupLocation: Type.Object(
      {
        packageLocation: Type.Union(pickupPackageLocations.map((t) => Type.Literal(t))),
        specialInstructions: Type.Optional(Type.String()),
        dogPresent: Type.Optional(Type.Boolean()),
      },
      { additionalProperties: false },
    ),
    nextAvailablePickup: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
);

/** specialInstructions "is required when the package location is 'OTHER'": a rule across fields the schema cannot say. */
export function pickupLocationFaults(body: unknown): string[] {
  const location = (body as { pickupLocation?: { packageLocation?: string; specialInstructions?: string } }).pickupLocation;
  return location?.packageLocation === 'OTHER' && !location.specialInstructions?.trim() ? ['/pickupLocation/specialInstructions is required when packageLocation is OTHER'] : [];
}

/** The eligibility query: streetAddress required, the rest optional; either city and state or the ZIP Code besides. */
export const PickupEligibilityQuery = Type.Object(
  {
    streetAddress: Type.String({ minLength: 1 }),
    secondaryAddress: Type.Optional(Type.String()),
    city: Type.Optional(Type.String()),
    state: Type.Optional(UspsState),
    ZIPCode: Type.Optional(Zip5),
    ZIPPlus4: Type.Optional(Zip4),
    urbanization: Type.Optional(Type.String()),
  },
  { additionalProperties: false },
);

export function eligibilityQueryFaults(query: Record<string, unknown>): string[] {
  return query.ZIPCode || (query.city && query.state) ? [] : ['either the city and state or the ZIPCode is required with streetAddress'];
}

/** PUT and DELETE of a pickup: `If-Match`, the ETag from the GET, is required. */
export const PickupChangeHeaders = Type.Object({ 'if-match': Type.String({ minLength: 1 }) }, { additionalProperties: true });

/** PickupConfirmation, as the POST answers it (and the GET, in an array). */
export const PickupConfirmation = Type.Object(
  { confirmationNumber: Type.String({ minLength: 1 }), pickupDate: Type.String({ format: 'date' }), carrierPickupRequest: SchedulePickupRequest },
  { additionalProperties: false },
);
