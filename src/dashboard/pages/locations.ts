import type { FastifyInstance, FastifyRequest } from 'fastify';
import { AccountError } from '../../domain/accounts/accounts.ts';
import { addLocation, getLocation, listLocations, setDefaultLocation, updateLocation } from '../../domain/locations/locations.ts';
import type { Address } from '../../schemas/address.ts';
import type { PageDeps } from '../page-deps.ts';
import { checked, field, formErrors } from '../forms.ts';
import { idParam, pathOf, redirectWith, routeOf, sendPage } from '../render.ts';
import { scopeOf } from '../scope.ts';

const addressFields = ['company', 'street1', 'street2', 'city', 'state', 'zip', 'phone'] as const;

function readLocation(request: FastifyRequest): { name: string; address: Address } {
  // Required fields stay, empty, so the domain names them; optional ones left empty are left out.
  const given = Object.fromEntries(addressFields.map((f): [string, string] => [f, field(request, f)]).filter(([f, v]) => v !== '' || ['street1', 'city', 'state', 'zip'].includes(f)));
  return { name: field(request, 'name'), address: given as unknown as Address };
}

/** What to say beside a field the domain refused, in words rather than its schema's pattern. */
const fieldHelp: Record<string, string> = {
  street1: 'Enter the street address',
  city: 'Enter the city',
  state: 'Enter a two-letter US state code, such as TX',
  zip: 'Enter a 5-digit ZIP code, or ZIP+4',
  phone: 'Enter a phone number of 7 to 20 digits',
  company: 'At most 100 characters',
  street2: 'At most 100 characters',
};

/** The domain names the address field it refuses ("address.zip must match…"); that field shows the error. */
function locationErrors(err: unknown): Record<string, string> {
  if (err instanceof AccountError) {
    const named = /^address\.(\w+) /.exec(err.message)?.[1];
    if (named) return { [named]: fieldHelp[named] ?? err.message };
    if (/name/.test(err.message)) return { name: 'Give the location a name' };
  }
  return formErrors(err, 'street1');
}

const flat = (location: { name: string; address: Address }) => ({ name: location.name, ...location.address });

export function registerLocations(app: FastifyInstance, { services, mode }: PageDeps): void {
  const db = services.database.db;
  const list = pathOf(mode, 'locations');
  const route = routeOf(mode, 'locations');
  const listPage = async (accountId: string, extra: Record<string, unknown> = {}) => ({
    title: 'Ship-from locations',
    section: 'locations' as const,
    locations: await listLocations(db, accountId),
    form: {},
    ...extra,
  });

  app.get(route, async (request, reply) => sendPage(request, reply, mode, 'locations', await listPage(scopeOf(request, mode).accountId)));

  app.post(route, async (request, reply) => {
    const { accountId } = scopeOf(request, mode);
    const input = readLocation(request);
    try {
      await addLocation(db, services.clock, accountId, { ...input, isDefault: checked(request, 'is_default') });
    } catch (err) {
      return sendPage(request, reply, mode, 'locations', await listPage(accountId, { form: flat(input), errors: locationErrors(err) }), 400);
    }
    return redirectWith(reply, list, 'location_saved');
  });

  app.get(`${route}/:id/edit`, async (request, reply) => {
    const location = await getLocation(db, scopeOf(request, mode).accountId, idParam(request));
    return sendPage(request, reply, mode, 'location-edit', { title: 'Edit location', section: 'locations', location, form: flat(location) });
  });

  app.post(`${route}/:id/edit`, async (request, reply) => {
    const { accountId } = scopeOf(request, mode);
    const location = await getLocation(db, accountId, idParam(request));
    const input = readLocation(request);
    try {
      await updateLocation(db, services.clock, accountId, location.id, input);
    } catch (err) {
      return sendPage(request, reply, mode, 'location-edit', { title: 'Edit location', section: 'locations', location, form: flat(input), errors: locationErrors(err) }, 400);
    }
    return redirectWith(reply, list, 'location_saved');
  });

  app.post(`${route}/:id/default`, async (request, reply) => {
    const { accountId } = scopeOf(request, mode);
    await setDefaultLocation(db, services.clock, accountId, (await getLocation(db, accountId, idParam(request))).id);
    return redirectWith(reply, list, 'location_default');
  });
}
