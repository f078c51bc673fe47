import type { TSchema } from '@sinclair/typebox';
import { Problem } from '../schemas/common.ts';
import { Address } from '../schemas/address.ts';
import { Carrier, CarrierIdSchema, CarrierList, CarrierLocation, CarrierLocationList } from '../schemas/carrier.ts';
import { Dimensions, LineItem, Metadata, Money, Order, OrderCreate, OrderList, OrderStatus, OrderUpdate, Parcel, RequestedService, Weight } from '../schemas/order.ts';
import { CurrencyAmount, Customs, CustomsInput, CustomsItem, CustomsItemInput } from '../schemas/customs.ts';
import { Event, EventList } from '../schemas/event.ts';
import { Rate, RateError, RateShop, RateShopRequest } from '../schemas/rate.ts';
import { Surcharge } from '../schemas/surcharge.ts';
import { ShipmentOptions } from '../schemas/options.ts';
import { Insurance } from '../schemas/insurance.ts';
import { AddressValidation, AddressValidationRequest } from '../schemas/address-validation.ts';
import { Location, LocationCreate, LocationList, LocationUpdate } from '../schemas/location.ts';
import { PackageCreate, PackageList, PackagePreset, PackageUpdate } from '../schemas/package.ts';
import { carrierOperations } from './carriers.ts';
import { orderOperations } from './orders.ts';
import { eventOperations } from './events.ts';
import { rateOperations } from './rates.ts';
import { addressOperations } from './addresses.ts';
import { accountResourceOperations } from './account-resources.ts';
import { shipmentOperations } from './shipments.ts';
import { LabelFormatSchema, LabelResolutionSchema, LabelSizeSchema, ReturnChargeSchema, ReturnChargeStatusSchema, ReturnCreate, ReturnStatusSchema, Shipment, ShipmentCreate, ShipmentDocument, ShipmentList, ShipmentPackage, ShipmentStatusSchema, VoidRequest } from '../schemas/shipment.ts';
import { DeletedWebhooks, DeliveryStatus, Webhook, WebhookCreate, WebhookDelivery, WebhookDeliveryList, WebhookEventType, WebhookList, WebhookUpdate, WebhookWithSecret } from '../schemas/webhook.ts';
import { Tracker, TrackerBatch, TrackerBatchCreate, TrackerCreate, TrackerList, TrackerOrigin, TrackingEvent, TrackingRequest, TrackingStatus } from '../schemas/tracker.ts';
import { webhookOperations } from './webhooks.ts';
import { batchOperations } from './batches.ts';
import { manifestOperations } from './manifests.ts';
import { Manifest, ManifestCreate, ManifestList } from '../schemas/manifest.ts';
import { Batch, BatchCreate, BatchList, BatchSelection, BatchStatus } from '../schemas/batch.ts';
import { trackingOperations } from './tracking.ts';
import { trackerOperations } from './trackers.ts';
import { pickupOperations } from './pickups.ts';
import { carrierAccountOperations } from './carrier-accounts.ts';
import { CarrierAccount, CarrierAccountCreate, CarrierAccountList, CarrierAccountStatus, CarrierAccountUpdate, CarrierCredentials } from '../schemas/carrier-account.ts';
import { Pickup, PickupAvailability, PickupAvailabilityQuery, PickupCreate, PickupList, PickupStatus, PickupWindow } from '../schemas/pickup.ts';
import type { AnyOperation } from './operation.ts';
import type { Feature } from '../config.ts';

export const operations: AnyOperation[] = [...carrierOperations, ...carrierAccountOperations, ...accountResourceOperations, ...addressOperations, ...orderOperations, ...rateOperations, ...shipmentOperations, ...trackingOperations, ...trackerOperations, ...webhookOperations, ...eventOperations, ...batchOperations, ...manifestOperations, ...pickupOperations];

/** Schemas with an $id: registered once, referenced everywhere, named components in OpenAPI. */
export const sharedSchemas: TSchema[] = [
  Problem,
  Address,
  CarrierIdSchema,
  Carrier,
  CarrierList,
  CarrierLocation,
  CarrierLocationList,
  Money,
  Weight,
  Dimensions,
  Parcel,
  LineItem,
  RequestedService,
  CurrencyAmount,
  CustomsItem,
  CustomsItemInput,
  Customs,
  CustomsInput,
  Metadata,
  OrderStatus,
  OrderCreate,
  OrderUpdate,
  Order,
  OrderList,
  Event,
  EventList,
  ShipmentOptions,
  Insurance,
  RateShopRequest,
  Surcharge,
  Rate,
  RateError,
  RateShop,
  AddressValidationRequest,
  AddressValidation,
  CarrierCredentials,
  CarrierAccountCreate,
  CarrierAccountUpdate,
  CarrierAccountStatus,
  CarrierAccount,
  CarrierAccountList,
  LocationCreate,
  LocationUpdate,
  Location,
  LocationList,
  PackageCreate,
  PackageUpdate,
  PackagePreset,
  PackageList,
  LabelFormatSchema,
  LabelSizeSchema,
  LabelResolutionSchema,
  ShipmentStatusSchema,
  ShipmentCreate,
  ReturnChargeSchema,
  ReturnStatusSchema,
  ReturnChargeStatusSchema,
  ReturnCreate,
  VoidRequest,
  ShipmentDocument,
  ShipmentPackage,
  Shipment,
  ShipmentList,
  TrackingStatus,
  TrackingEvent,
  TrackingRequest,
  TrackerOrigin,
  Tracker,
  TrackerCreate,
  TrackerBatchCreate,
  TrackerBatch,
  TrackerList,
  WebhookEventType,
  WebhookCreate,
  WebhookUpdate,
  Webhook,
  WebhookWithSecret,
  WebhookList,
  DeletedWebhooks,
  DeliveryStatus,
  WebhookDelivery,
  WebhookDeliveryList,
];

/** The named schemas of each ops helper: registered, and in the OpenAPI document, only while it is enabled. */
export const featureSchemas: Record<Feature, TSchema[]> = {
  batches: [BatchSelection, BatchCreate, BatchStatus, Batch, BatchList],
  manifests: [ManifestCreate, Manifest, ManifestList],
  pickups: [PickupStatus, PickupWindow, PickupCreate, Pickup, PickupList, PickupAvailabilityQuery, PickupAvailability],
};
