import { parseArgs } from 'node:util';
import { AccountError } from '../domain/accounts/accounts.ts';

export type Options = Record<string, { type: 'string' | 'boolean'; short?: string }>;

/** A command's options, strictly: an unknown one is refused, and each of `required` must be there. */
export function parse(args: string[], options: Options, required: string[]) {
  const { values, positionals } = parseArgs({ args, options, allowPositionals: true, strict: true });
  for (const name of required) {
    if (values[name] === undefined) throw new AccountError(`--${name} is required`);
  }
  return { values: values as Record<string, string | boolean | undefined>, positionals };
}
