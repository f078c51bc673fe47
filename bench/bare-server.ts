// The baselines: a bare Fastify route that validates the same body with the same schema and compiler as shipd's
// POST /rates, and answers a fixed rate shop (BARE_ANSWER, a real answer of shipd's) through the same response
// schema; and a bare GET route that answers a fixed body (BARE_CARRIERS, shipd's GET /carriers answer) with no
// authentication. What shipd adds on top of parsing, validating and writing those answers is what is measured.
import Fastify from 'fastify';
import { Type } from '@sinclair/typebox';
import { sharedSchemas } from '../src/operations/index.ts';
import { RateShop, RateShopRequest } from '../src/schemas/rate.ts';
import { validatorCompiler } from '../src/http/validation.ts';

const app = Fastify({ logger: false, bodyLimit: 1_048_576 });
app.setValidatorCompiler(validatorCompiler(sharedSchemas));
for (const schema of sharedSchemas) app.addSchema(schema);
const fixed: unknown = JSON.parse(process.env.BARE_ANSWER ?? '{"object":"rate_shop","rates":[],"errors":[]}');
app.post('/rates', { schema: { body: Type.Ref(RateShopRequest), response: { 200: Type.Ref(RateShop) } } }, async () => fixed);
const carriers: unknown = JSON.parse(process.env.BARE_CARRIERS ?? '{"object":"list","data":[]}');
app.get('/carriers', async () => carriers);
await app.listen({ port: Number(process.env.PORT ?? 0), host: '127.0.0.1' });
const address = app.server.address();
process.stdout.write(`listening ${typeof address === 'object' && address ? address.port : ''}\n`);
