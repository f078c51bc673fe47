import type { TSchema } from '@sinclair/typebox';
import { Problem } from '../schemas/common.ts';
import { Address } from '../schemas/address.ts';
import { Carrier, CarrierIdSchema, CarrierList } from '../schemas/carrier.ts';
import { carrierOperations } from './carriers.ts';
import type { AnyOperation } from './operation.ts';

export const operations: AnyOperation[] = [...carrierOperations];

/** Schemas with an $id: registered once, referenced everywhere, named components in OpenAPI. */
export const sharedSchemas: TSchema[] = [Problem, Address, CarrierIdSchema, Carrier, CarrierList];
