import { Type } from '@sinclair/typebox';
import { timestamp } from './common.ts';

/** The query every list takes, plus its own filters. */
export const listQueryFields = {
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 20, description: 'How many to return, 1 to 100' })),
  cursor: Type.Optional(Type.String({ minLength: 1, maxLength: 200, description: 'next_cursor of the previous page' })),
  created_after: Type.Optional(timestamp('Only those created at or after this time')),
  created_before: Type.Optional(timestamp('Only those created before this time')),
};
