/**
 * The closed table of error codes a client can see. Each code is stable: clients branch on it.
 * Statuses live here, not at throw sites, so one code always means one status.
 */
export const errorCodes = {
  validation_failed: { status: 400, title: 'The request is not valid' },
  malformed_json: { status: 400, title: 'The request body is not valid JSON' },
  bad_request: { status: 400, title: 'The request cannot be processed' },
  customs_required: { status: 400, title: 'The shipment crosses a customs border and needs a customs declaration' },
  customs_invalid: { status: 400, title: 'The customs declaration is not valid' },
  ship_date_out_of_range: { status: 400, title: 'The ship date is in the past or too far ahead' },
  insurance_above_limit: { status: 400, title: 'The insured value is more than the carriers insure a parcel for' },
  tracking_number_ambiguous: { status: 400, title: "The tracking number is in more than one carrier's format; say which carrier" },
  missing_api_key: { status: 401, title: 'No API key was sent' },
  malformed_api_key: { status: 401, title: 'The API key is not of the form svc_test_… or svc_live_…' },
  invalid_api_key_checksum: { status: 401, title: 'The API key has a typo: its checksum does not match' },
  unknown_api_key: { status: 401, title: 'The API key is not known' },
  revoked_api_key: { status: 401, title: 'The API key has been revoked' },
  expired_api_key: { status: 401, title: 'The API key secret has expired' },
  carrier_event_unverified: { status: 401, title: "The carrier event does not carry the credential or signature shipd's subscription set" },
  plan_without_api_access: { status: 403, title: "The account's plan does not include API access" },
  invalid_idempotency_key: { status: 400, title: 'The Idempotency-Key header is not valid' },
  invalid_stripe_signature: { status: 400, title: 'The Stripe event is not signed with this endpoint\'s secret' },
  webhook_url_not_allowed: { status: 400, title: 'The webhook URL is not one shipd may deliver to' },
  payment_method_required: { status: 402, title: 'Platform postage needs a payment method on the account' },
  payment_declined: { status: 402, title: "The account's payment method was declined" },
  payment_authentication_required: { status: 402, title: "The card's bank asks its holder to authenticate the charge" },
  billing_not_configured: { status: 402, title: 'Live platform postage needs billing, which this server has not set up' },
  invalid_label_token: { status: 403, title: 'The label link is not valid or has expired' },
  metrics_not_allowed: { status: 403, title: 'Metrics need the metrics token, or a request made on the same machine' },
  owner_required: { status: 403, title: "Only an owner of the account may manage its dashboard users" },
  not_found: { status: 404, title: 'The resource does not exist' },
  tracker_not_found: { status: 404, title: 'The tracker does not exist' },
  route_not_found: { status: 404, title: 'There is no such route' },
  method_not_allowed: { status: 405, title: 'The route does not accept this method' },
  request_timeout: { status: 408, title: 'The request did not arrive in time' },
  order_not_editable: { status: 409, title: 'Only incomplete orders can be changed' },
  order_not_cancellable: { status: 409, title: 'Only incomplete orders can be cancelled' },
  order_already_shipped: { status: 409, title: 'The order already has an active label' },
  order_not_purchasable: { status: 409, title: 'Only incomplete orders can be bought a label' },
  order_not_shipped: { status: 409, title: 'The order has no active label' },
  rate_expired: { status: 409, title: 'The rate has expired; shop rates again' },
  rate_not_for_order: { status: 409, title: "The rate was quoted for other addresses or another parcel than the order's" },
  label_in_transit: { status: 409, title: 'The carrier has scanned the label; it can no longer be voided' },
  label_manifested: { status: 409, title: 'The label is on an end-of-day manifest; it can no longer be voided' },
  label_format_unavailable: { status: 409, title: 'The carrier sold this label in another format' },
  shipment_already_voided: { status: 409, title: "The order's label is already voided" },
  webhook_disabled: { status: 409, title: 'The webhook is disabled; enable it first' },
  idempotency_key_in_use: { status: 409, title: 'A request with this Idempotency-Key is still running' },
  labels_changed: { status: 409, title: 'The labels changed while the manifest was being made; try again' },
  pickup_already_cancelled: { status: 409, title: 'The pickup is already cancelled' },
  pickup_not_cancellable: { status: 409, title: 'The pickup window has begun; the pickup can no longer be cancelled' },
  pickup_already_scheduled: { status: 409, title: 'The carrier already has a pickup at this address on this day' },
  api_key_limit_reached: { status: 409, title: 'The account has as many active API keys as it may; revoke one first' },
  resource_in_use: { status: 409, title: 'The resource is in use and cannot be removed' },
  carrier_account_exists: { status: 409, title: 'The account already has an account with this carrier in this mode' },
  last_owner: { status: 409, title: 'An account keeps at least one enabled owner' },
  label_voided: { status: 410, title: 'The label was voided and must not be printed' },
  payload_too_large: { status: 413, title: 'The request body is larger than 1 MiB' },
  uri_too_long: { status: 414, title: 'A part of the URL is too long' },
  unsupported_media_type: { status: 415, title: 'The request body must be application/json' },
  expectation_failed: { status: 417, title: 'The Expect header asks for something shipd does not do' },
  idempotency_key_reused: { status: 422, title: 'This Idempotency-Key was used with a different request' },
  no_rate_available: { status: 422, title: 'No carrier offers a rate for this order' },
  nothing_to_manifest: { status: 422, title: 'No label fits this manifest' },
  carrier_account_failing: { status: 422, title: 'The carrier refused the carrier account\'s credentials' },
  manifest_rejected: { status: 422, title: 'The carrier refused the end-of-day form for these labels' },
  pickup_unavailable: { status: 422, title: 'The carrier cannot send a driver to this address on this day' },
  outside_pickup_window: { status: 422, title: "The pickup window is outside the carrier's hours, or past its booking cut-off" },
  not_supported_by_carrier: { status: 422, title: 'The carrier does not offer this through shipd' },
  option_not_supported: { status: 422, title: 'The carrier or service does not offer a delivery option asked for' },
  country_not_served: { status: 422, title: 'shipd does not ship to or from this country yet' },
  rate_limited: { status: 429, title: 'Too many requests for this API key' },
  address_rate_limited: { status: 429, title: 'Too many requests without a valid API key from this address' },
  headers_too_large: { status: 431, title: 'The request line and headers are larger than 16 KB' },
  internal_error: { status: 500, title: 'Something went wrong on our side' },
  carrier_error: { status: 502, title: 'The carrier refused or failed the request' },
  service_unavailable: { status: 503, title: 'The service is temporarily unavailable' },
  billing_unavailable: { status: 503, title: 'The payment processor did not answer; nothing was bought' },
  carrier_timeout: { status: 504, title: 'The carrier did not answer in time' },
} as const satisfies Record<string, { status: number; title: string }>;

export type ErrorCode = keyof typeof errorCodes;

export interface FieldError {
  /** Which part of the request the pointer is into. */
  in: 'body' | 'query' | 'path' | 'header';
  /** JSON Pointer (RFC 6901) into that part. */
  pointer: string;
  detail: string;
}

export class ApiError extends Error {
  readonly status: number;
  readonly title: string;

  constructor(
    readonly code: ErrorCode,
    readonly detail: string,
    readonly errors?: FieldError[],
    readonly headers?: Record<string, string>,
    /** A payment decline's reason as the card's issuer gave it, for clients to branch on. */
    readonly declineCode?: string,
  ) {
    super(detail);
    this.status = errorCodes[code].status;
    this.title = errorCodes[code].title;
  }
}

/** The RFC 9457 document of a problem, as the API answers it and the idempotency store keeps it. */
export function problemDocument(problem: ApiError, requestId: string, publicUrl: string): Record<string, unknown> {
  const body: Record<string, unknown> = {
    type: `${publicUrl}/problems/${problem.code}`,
    title: problem.title,
    status: problem.status,
    detail: problem.detail,
    code: problem.code,
    request_id: requestId,
  };
  if (problem.errors) body.errors = problem.errors;
  if (problem.declineCode) body.decline_code = problem.declineCode;
  return body;
}
