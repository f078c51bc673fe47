import type { Migration } from 'kysely';
import * as foundation from './001_foundation.ts';
import * as ordersEventsJobs from './002_orders_events_jobs.ts';
import * as rateShops from './003_rates.ts';
import * as packages from './004_packages.ts';
import * as shipments from './005_shipments.ts';
import * as webhooksTracking from './006_webhooks_tracking.ts';
import * as carrierAccounts from './007_carrier_accounts.ts';
import * as opsBatchesManifests from './008_ops_batches_manifests.ts';
import * as pickups from './009_pickups.ts';
import * as pickupBookings from './031_pickup_bookings.ts';
import * as dashboard from './010_dashboard.ts';
import * as defaultPackage from './011_default_package.ts';
import * as partialShipmentIndexes from './012_partial_shipment_indexes.ts';
import * as shipmentsByOrder from './013_shipments_by_order.ts';
import * as loginFailuresByClient from './014_login_failures_by_client.ts';
import * as dashboardUserRoles from './015_dashboard_user_roles.ts';
import * as cardBilling from './016_card_billing.ts';
import * as orderCustoms from './017_order_customs.ts';
import * as shipDate from './018_ship_date.ts';
import * as batchLabelChoices from './019_batch_label_choices.ts';
import * as deliveryOptions from './020_delivery_options.ts';
import * as insurance from './021_insurance.ts';
import * as returnCharge from './022_return_charge.ts';
import * as severalBoxes from './023_several_boxes.ts';
import * as batchOptions from './024_batch_options.ts';
import * as cardBoxRefunds from './025_card_box_refunds.ts';
import * as trackers from './026_trackers.ts';
import * as carrierManifests from './027_carrier_manifests.ts';
import * as carrierSubscriptions from './028_carrier_subscriptions.ts';
import * as trackersByAccount from './029_trackers_by_account.ts';
import * as carrierAccountIds from './030_carrier_account_ids.ts';
import * as pickupCarrierData from './032_pickup_carrier_data.ts';
import * as manifestReconcile from './033_manifest_reconcile.ts';
import * as returnChargeRetries from './034_return_charge_retries.ts';
import * as trackerProofs from './035_tracker_proofs.ts';
import * as pickupPlaces from './036_pickup_places.ts';
import * as pickupPlacesBackfill from './037_pickup_places_backfill.ts';

/** Every migration in order. Names sort in the order they must run; never rename or edit one that has shipped. */
export const migrations: Record<string, Migration> = {
  '001_foundation': foundation,
  '002_orders_events_jobs': ordersEventsJobs,
  '003_rates': rateShops,
  '004_packages': packages,
  '005_shipments': shipments,
  '006_webhooks_tracking': webhooksTracking,
  '007_carrier_accounts': carrierAccounts,
  '008_ops_batches_manifests': opsBatchesManifests,
  '009_pickups': pickups,
  '010_dashboard': dashboard,
  '011_default_package': defaultPackage,
  '012_partial_shipment_indexes': partialShipmentIndexes,
  '013_shipments_by_order': shipmentsByOrder,
  '014_login_failures_by_client': loginFailuresByClient,
  '015_dashboard_user_roles': dashboardUserRoles,
  '016_card_billing': cardBilling,
  '017_order_customs': orderCustoms,
  '018_ship_date': shipDate,
  '019_batch_label_choices': batchLabelChoices,
  '020_delivery_options': deliveryOptions,
  '021_insurance': insurance,
  '022_return_charge': returnCharge,
  '023_several_boxes': severalBoxes,
  '024_batch_options': batchOptions,
  '025_card_box_refunds': cardBoxRefunds,
  '026_trackers': trackers,
  '027_carrier_manifests': carrierManifests,
  '028_carrier_subscriptions': carrierSubscriptions,
  '029_trackers_by_account': trackersByAccount,
  '030_carrier_account_ids': carrierAccountIds,
  '031_pickup_bookings': pickupBookings,
  '032_pickup_carrier_data': pickupCarrierData,
  '033_manifest_reconcile': manifestReconcile,
  '034_return_charge_retries': returnChargeRetries,
  '035_tracker_proofs': trackerProofs,
  '036_pickup_places': pickupPlaces,
  '037_pickup_places_backfill': pickupPlacesBackfill,
};
