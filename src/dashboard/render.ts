import { join } from 'node:path';
import { Eta } from 'eta';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Mode } from '../kernel/mode.ts';
import type { DashboardSession } from '../domain/dashboard/sessions.ts';
import type { Feature } from '../config.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** The ops helpers this shipd runs (SHIPD_FEATURES): their pages are linked only when they are on. */
    dashboardFeatures: ReadonlySet<Feature>;
  }
}

// Templates are compiled once; <%= %> escapes for HTML, so only <%~ %> (used for nested templates) writes raw.
const eta = new Eta({ views: join(import.meta.dirname, 'views'), cache: true, autoEscape: true });

export const sections = [
  { id: 'keys', name: 'API keys' },
  { id: 'webhooks', name: 'Webhooks' },
  { id: 'orders', name: 'Orders' },
  { id: 'shipments', name: 'Shipments' },
  { id: 'trackers', name: 'Trackers' },
  { id: 'manifests', name: 'Manifests', feature: 'manifests' },
  { id: 'pickups', name: 'Pickups', feature: 'pickups' },
  { id: 'billing', name: 'Billing' },
  { id: 'locations', name: 'Locations' },
  { id: 'packages', name: 'Packages' },
  { id: 'carriers', name: 'Carrier accounts' },
  { id: 'users', name: 'Users' },
] as const satisfies readonly { id: string; name: string; feature?: Feature }[];
export type Section = (typeof sections)[number]['id'];

/** Where a page of one mode lives: its route inside the dashboard's scope, and the link to it. */
export const routeOf = (mode: Mode, rest: string) => `/${mode}/${rest}`;
export const pathOf = (mode: Mode, rest: string) => `/dashboard${routeOf(mode, rest)}`;
/** The `:id` of a page's route. */
export const idParam = (request: FastifyRequest) => (request.params as { id: string }).id;

/** Messages a redirect after a change may show, named in its `notice` query so no page echoes text it was sent. */
const notices: Record<string, string> = {
  key_revoked: 'The key was revoked. Requests with it are refused from now on, and its webhooks are disabled.',
  webhook_deleted: 'The webhook was removed.',
  webhook_test_sent: 'A webhook.test event is on its way; it appears in the delivery log below.',
  delivery_replayed: 'The delivery was queued to be sent again now.',
  webhook_updated: 'The webhook was updated.',
  shipment_voided: 'The label was voided and its postage refunded.',
  tracking_checked: 'Tracking was checked with the carrier just now.',
  billing_saved: 'The payment method was saved.',
  billing_cleared: 'The payment method was removed.',
  location_saved: 'The location was saved.',
  location_default: 'The default location was changed.',
  package_saved: 'The package was saved.',
  package_default: 'The default package was changed.',
  carrier_connected: 'The carrier account was connected.',
  carrier_disconnected: 'The carrier account was disconnected.',
  user_disabled: 'The user was disabled and signed out everywhere.',
  user_enabled: 'The user was enabled: they can sign in again.',
  user_removed: 'The user was removed and signed out everywhere.',
  user_role_changed: "The user's role was changed.",
};

/** Formatting the templates share. */
const helpers = {
  /** 2026-11-22 18:11 UTC: exact, and the same for everyone looking at it. */
  time: (iso: string | null | undefined) => (iso ? `${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC` : '—'),
  /** Dollars as $12.34; any other currency by its code (customs values, carriers' prices abroad), never as dollars. */
  money: (m: { amount: string; currency: string } | null | undefined) => (!m ? '—' : m.currency === 'USD' ? `$${m.amount}` : `${m.amount} ${m.currency}`),
  /**
   * A scan's time on the clock of where it happened, as the carrier wrote it: 2026-11-27 06:00 (-08:00,
   * America/Los_Angeles). Without an offset, the UTC time.
   */
  localTime: (iso: string, offset: string | null, zone: string | null) => {
    const m = offset?.match(/^([+-])(\d{2}):(\d{2})$/);
    if (!m) return `${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC`;
    const local = new Date(Date.parse(iso) + (m[1] === '-' ? -1 : 1) * (Number(m[2]) * 60 + Number(m[3])) * 60_000).toISOString();
    return `${local.slice(0, 10)} ${local.slice(11, 16)} (${offset}${zone ? `, ${zone}` : ''})`;
  },
  json: (value: unknown) => JSON.stringify(value, null, 2),
  /**
   * One delivery option as a line (ShipmentOptions' names, spaced): a flag by its name alone, a choice or a
   * recipient after a colon, dry ice with its weight, the location a parcel is held at by its carrier and id.
   */
  option: (name: string, value: unknown) => {
    const label = name.replace(/_/g, ' ');
    if (value === true) return label;
    const weight = (value as { weight?: { value: number; unit: string } }).weight;
    if (weight) return `${label} ${weight.value} ${weight.unit}`;
    const held = value as { carrier?: string; id?: string };
    if (held.carrier && held.id) return `${label}: ${held.carrier.toUpperCase()} ${held.id}`;
    const recipient = (value as { recipient?: string }).recipient;
    return `${label}: ${String(recipient ?? value).replace(/_/g, ' ')}`;
  },
};

export function render(view: string, data: object): string {
  return eta.render(`./${view}`, { ...data, h: helpers });
}

export interface PageData {
  title: string;
  section: Section;
  /** Field name → the error shown beside that field. */
  errors?: Record<string, string>;
  [key: string]: unknown;
}

/** Sends a signed-in page: the view inside the layout with its header, mode switch and section links. */
export function sendPage(request: FastifyRequest, reply: FastifyReply, mode: Mode, view: string, data: PageData, status = 200): FastifyReply {
  const session = request.dashboard as DashboardSession;
  const notice = (request.query as Record<string, unknown> | undefined)?.notice;
  const html = render(view, {
    errors: {},
    ...data,
    mode,
    // Members are not shown the Users page, which would refuse them; an ops helper that is off has no page.
    sections: sections.filter((s) => (s.id !== 'users' || session.user.role === 'owner') && (!('feature' in s) || request.server.dashboardFeatures.has(s.feature))),
    account: session.account.name,
    email: session.user.email,
    csrf: session.csrfToken,
    notice: typeof notice === 'string' && Object.hasOwn(notices, notice) ? notices[notice] : undefined,
    switchTo: { test: pathOf('test', data.section), live: pathOf('live', data.section) },
    base: `/dashboard/${mode}`,
  });
  return reply.code(status).type('text/html; charset=utf-8').send(html);
}

/** After a change: back to a page (303, so a reload does not post again), with a notice. */
export function redirectWith(reply: FastifyReply, path: string, notice?: keyof typeof notices | string): FastifyReply {
  return reply.redirect(notice ? `${path}${path.includes('?') ? '&' : '?'}notice=${notice}` : path, 303);
}
