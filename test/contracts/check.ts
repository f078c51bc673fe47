import type { TSchema } from '@sinclair/typebox';
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import * as ajvFormats from 'ajv-formats';

// The carriers' published request contracts, as our own schemas (test/contracts/<carrier>/): the contract tests
// check every request an adapter builds against them, and the fake carrier servers refuse whatever breaks them, as
// the real carrier would. One compiler for both, so a fake can never be laxer than a test.
const ajv = new Ajv({ allErrors: true, strict: false });
(ajvFormats.default as unknown as (a: Ajv) => Ajv)(ajv);
const compiled = new WeakMap<TSchema, ValidateFunction>();

function validator(schema: TSchema): ValidateFunction {
  let v = compiled.get(schema);
  if (!v) {
    v = ajv.compile(schema);
    compiled.set(schema, v);
  }
  return v;
}

/**
 * Compiles the schemas now. Compiling one takes up to a few hundred milliseconds, so a fake carrier compiles its
 * contracts when it starts: a compile never lands inside a client's time-out.
 */
export function compileContracts(schemas: TSchema[]): void {
  for (const schema of schemas) validator(schema);
}

/** What breaks the contract as the compiler reports it, for a fake that answers each fault in its API's own words. */
export function contractFaults(schema: TSchema, value: unknown): ErrorObject[] {
  const v = validator(schema);
  return v(value) ? [] : (v.errors ?? []);
}

/** What breaks the contract, one line per fault naming the JSON pointer, or [] when the value keeps it. */
export function contractViolations(schema: TSchema, value: unknown): string[] {
  return contractFaults(schema, value).map((e) => {
    const extra = e.keyword === 'additionalProperties' ? ` (${String((e.params as { additionalProperty: string }).additionalProperty)})` : '';
    return `${e.instancePath || '/'} ${e.message ?? e.keyword}${extra}`;
  });
}

/** Throws with every violation listed, for tests that check a built request. */
export function assertContract(schema: TSchema, value: unknown, what: string): void {
  const faults = contractViolations(schema, value);
  if (faults.length > 0) throw new Error(`${what} breaks the carrier's published contract:\n  ${faults.join('\n  ')}\n${JSON.stringify(value, null, 2)}`);
}
