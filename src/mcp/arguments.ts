import type { ValidateFunction } from 'ajv';
import type { TSchema } from '@sinclair/typebox';
import type { FieldError } from '../kernel/errors.ts';
import { parseIdempotencyHeader } from '../domain/core/idempotency.ts';
import { makeAjv } from '../http/validation.ts';
import { fieldErrors, validationError } from '../http/problems.ts';
import { findOversized, findUnstorable } from '../http/json-faults.ts';
import { sharedSchemas } from '../operations/index.ts';
import type { AnyOperation } from '../operations/operation.ts';
import type { OperationInput } from '../operations/run.ts';
import { IdempotencyKey } from '../schemas/common.ts';

// Tool arguments are JSON, as request bodies are: validated as sent, never coerced, with the schemas' defaults filled in.
const ajv = makeAjv({ coerceTypes: false }, sharedSchemas);
const compiled = new WeakMap<TSchema, ValidateFunction>();

function validator(schema: TSchema): ValidateFunction {
  let validate = compiled.get(schema);
  if (!validate) {
    validate = ajv.compile(schema);
    compiled.set(schema, validate);
  }
  return validate;
}

type Part = 'params' | 'query' | 'body';
/** Where the REST API takes each part, so a field error names the same place through either transport. */
const parts: { part: Part; in: FieldError['in']; ajvContext: string }[] = [
  { part: 'params', in: 'path', ajvContext: 'params' },
  { part: 'query', in: 'query', ajvContext: 'querystring' },
  { part: 'body', in: 'body', ajvContext: 'body' },
];

const idempotencyField = 'idempotency_key';

export interface ToolArguments {
  input: OperationInput;
  idempotencyKey?: string;
}

const fieldsOf = (schema: TSchema | undefined) => Object.keys((schema as { properties?: object } | undefined)?.properties ?? {});

/**
 * Sorts a tool call's arguments back into the operation's path, query and body, and validates each with the
 * operation's own schema, as the REST API does. Fields of no part go to the last part the operation has, whose
 * schema refuses them as unknown.
 */
export function parseArguments(op: AnyOperation, args: Record<string, unknown>): ToolArguments {
  const input: OperationInput = { params: {}, query: {}, body: {} };
  const last = op.body ? 'body' : op.query ? 'query' : 'params';
  const home = new Map<string, Part>();
  for (const { part } of parts) for (const field of fieldsOf(op[part])) home.set(field, part);
  let idempotencyKey: unknown;
  for (const [field, value] of Object.entries(args)) {
    if (op.idempotent && field === idempotencyField) idempotencyKey = value;
    else (input[home.get(field) ?? last] as Record<string, unknown>)[field] = value;
  }

  const errors: FieldError[] = [];
  let uncounted = 0;
  for (const { part, in: where, ajvContext } of parts) {
    const unstorable = findUnstorable(input[part]);
    if (unstorable !== undefined) {
      errors.push({ in: where, ...unstorable });
      continue;
    }
    const oversized = findOversized(input[part]);
    if (oversized) {
      errors.push({ in: where, ...oversized });
      continue;
    }
    const schema = op[part];
    if (!schema) continue;
    const validate = validator(schema);
    if (validate(input[part])) continue;
    const found = fieldErrors(validate.errors ?? [], ajvContext);
    errors.push(...found.list);
    uncounted += found.total - found.list.length;
  }
  if (idempotencyKey !== undefined && !validator(IdempotencyKey)(idempotencyKey)) {
    errors.push({ in: 'header', pointer: `/${idempotencyField}`, detail: 'must be a string of 1 to 255 characters' });
  }
  if (errors.length > 0) throw validationError(errors, errors.length + uncounted);
  return { input, ...(idempotencyKey !== undefined && { idempotencyKey: parseIdempotencyHeader(idempotencyKey as string) }) };
}
