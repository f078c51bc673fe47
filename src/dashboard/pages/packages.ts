import type { FastifyInstance, FastifyRequest } from 'fastify';
import { AccountError } from '../../domain/accounts/accounts.ts';
import { addPackage, customPackages, findPackage, setDefaultPackage, updatePackage } from '../../domain/packages/packages.ts';
import { carrierBoxes } from '../../carriers/packages.ts';
import type { Dimensions, Weight } from '../../schemas/order.ts';
import type { PageDeps } from '../page-deps.ts';
import { field, FormCheck, formErrors } from '../forms.ts';
import { idParam, pathOf, redirectWith, routeOf, sendPage } from '../render.ts';
import { scopeOf } from '../scope.ts';

const lengthUnits = ['in', 'cm'] as const;
const weightUnits = ['lb', 'oz', 'kg', 'g'] as const;

type Form = Record<'name' | 'length' | 'width' | 'height' | 'unit' | 'max_weight' | 'weight_unit', string>;

function readForm(request: FastifyRequest): Form {
  const get = (name: keyof Form) => field(request, name);
  return { name: get('name'), length: get('length'), width: get('width'), height: get('height'), unit: get('unit'), max_weight: get('max_weight'), weight_unit: get('weight_unit') };
}

/** The box a form describes; each number is checked beside its own field before the domain checks the whole. */
function toInput(form: Form): { name: string; dimensions: Dimensions; maxWeight: Weight } {
  const check = new FormCheck();
  if (!form.name) check.fail('name', 'Give the box a name');
  const positive = (name: keyof Form) => {
    const n = Number(form[name]);
    if (!form[name] || !Number.isFinite(n) || n <= 0) check.fail(name, 'Enter a number above 0');
    return n;
  };
  const [length, width, height, maxWeight] = [positive('length'), positive('width'), positive('height'), positive('max_weight')];
  const unit = lengthUnits.find((u) => u === form.unit);
  if (!unit) check.fail('unit', 'Choose in or cm');
  const weightUnit = weightUnits.find((u) => u === form.weight_unit);
  if (!weightUnit) check.fail('weight_unit', 'Choose lb, oz, kg or g');
  check.done();
  return { name: form.name, dimensions: { length, width, height, unit: unit! }, maxWeight: { value: maxWeight, unit: weightUnit! } };
}

function packageErrors(err: unknown): Record<string, string> {
  if (err instanceof AccountError && /max weight/.test(err.message)) return { max_weight: `The ${err.message.replace(/^the /, '')}` };
  return formErrors(err, 'length');
}

const emptyForm: Form = { name: '', length: '', width: '', height: '', unit: 'in', max_weight: '', weight_unit: 'lb' };

export function registerPackages(app: FastifyInstance, { services, mode }: PageDeps): void {
  const db = services.database.db;
  const list = pathOf(mode, 'packages');
  const route = routeOf(mode, 'packages');

  async function listPage(request: FastifyRequest, extra: Record<string, unknown> = {}) {
    return {
      title: 'Packages',
      section: 'packages' as const,
      custom: await customPackages(db, scopeOf(request, mode).accountId),
      carrierBoxes: carrierBoxes.length,
      form: emptyForm,
      lengthUnits,
      weightUnits,
      ...extra,
    };
  }

  async function custom(request: FastifyRequest) {
    const found = await findPackage(db, scopeOf(request, mode).accountId, idParam(request));
    if (!found || found.preset.kind !== 'custom') throw new AccountError(`no package ${idParam(request)}`);
    return found.preset;
  }

  app.get(route, async (request, reply) => sendPage(request, reply, mode, 'packages', await listPage(request)));

  app.post(route, async (request, reply) => {
    const form = readForm(request);
    try {
      await addPackage(db, services.clock, scopeOf(request, mode).accountId, toInput(form));
    } catch (err) {
      return sendPage(request, reply, mode, 'packages', await listPage(request, { form, errors: packageErrors(err) }), 400);
    }
    return redirectWith(reply, list, 'package_saved');
  });

  const editPage = (preset: Awaited<ReturnType<typeof custom>>, form: Form, errors: Record<string, string> = {}) => ({
    title: 'Edit package',
    section: 'packages' as const,
    preset,
    form,
    errors,
    lengthUnits,
    weightUnits,
  });

  app.get(`${route}/:id/edit`, async (request, reply) => {
    const preset = await custom(request);
    const { length, width, height, unit } = preset.dimensions;
    const form: Form = { name: preset.name, length: String(length), width: String(width), height: String(height), unit, max_weight: String(preset.max_weight.value), weight_unit: preset.max_weight.unit };
    return sendPage(request, reply, mode, 'package-edit', editPage(preset, form));
  });

  app.post(`${route}/:id/edit`, async (request, reply) => {
    const preset = await custom(request);
    const form = readForm(request);
    try {
      await updatePackage(db, scopeOf(request, mode).accountId, preset.id, toInput(form));
    } catch (err) {
      return sendPage(request, reply, mode, 'package-edit', editPage(preset, form, packageErrors(err)), 400);
    }
    return redirectWith(reply, list, 'package_saved');
  });

  app.post(`${route}/:id/default`, async (request, reply) => {
    const preset = await custom(request);
    await setDefaultPackage(db, services.database.kind, scopeOf(request, mode).accountId, preset.id);
    return redirectWith(reply, list, 'package_default');
  });
}
