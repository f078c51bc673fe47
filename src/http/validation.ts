import { Ajv, type Options, type ValidateFunction } from 'ajv';
import * as ajvFormats from 'ajv-formats';
import type { FastifySchemaCompiler } from 'fastify';
import type { TSchema } from '@sinclair/typebox';

// ajv-formats is CommonJS; under NodeNext its function arrives as the namespace's default.
const addFormats = ajvFormats.default as unknown as (ajv: Ajv) => Ajv;

/**
 * ajv's code adds the errors of a referenced schema to those found so far with `concat`, a copy of them all, once
 * per element of an array of that schema: with every error reported, validating grows with the square of a wrong
 * array (50,000 wrong line items took 35 s of the event loop). Appending them in place keeps it linear.
 */
const concatErrors = /vErrors = vErrors === null \? ([\w$.]+) : vErrors\.concat\(\1\);/g;
export const appendErrorsInPlace = (code: string) => code.replace(concatErrors, 'if (vErrors === null) vErrors = $1; else for (const vError of $1) vErrors.push(vError);');

/** An ajv with the project's formats and shared schemas, as every request is validated with. */
export function makeAjv(options: Options, shared: TSchema[]): Ajv {
  const ajv = new Ajv({
    allErrors: true,
    // Unknown fields are errors, never silently dropped.
    removeAdditional: false,
    useDefaults: true,
    strict: false,
    code: { process: appendErrorsInPlace },
    ...options,
  });
  addFormats(ajv);
  for (const schema of shared) ajv.addSchema(schema);
  return ajv;
}

/**
 * JSON bodies are validated as sent: "2" is not a number. Query strings and path parameters are text by
 * nature, so they are coerced to the declared types.
 *
 * Each schema is compiled on its route's first request rather than before the server listens: compiling every
 * route's took a quarter of shipd's start-up. Fastify gives a compiled ajv validator the request too, for replacing a
 * whole part (a query string that is one value); every part here is an object, coerced and defaulted in place.
 */
export function validatorCompiler(shared: TSchema[]): FastifySchemaCompiler<TSchema> {
  // Made with the first validator too: each checks the shared schemas against the JSON Schema meta-schema.
  let strict: Ajv | undefined;
  let coercing: Ajv | undefined;
  const ajvFor = (httpPart: string | undefined) =>
    httpPart === 'body' ? (strict ??= makeAjv({ coerceTypes: false }, shared)) : (coercing ??= makeAjv({ coerceTypes: 'array' }, shared));
  return ({ schema, httpPart }) => {
    let validate: ValidateFunction | undefined;
    const lazy: ReturnType<FastifySchemaCompiler<TSchema>> = (data: unknown) => {
      validate ??= ajvFor(httpPart).compile(schema);
      const valid = validate(data);
      lazy.errors = validate.errors;
      return valid;
    };
    return lazy;
  };
}
