import { errorHelp } from '../kernel/error-help.ts';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { STATUS_CODES, type Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { randomFillSync } from 'node:crypto';
import type { ErrorObject } from 'ajv';
import { ApiError, errorCodes, problemDocument, type ErrorCode, type FieldError } from '../kernel/errors.ts';
import { isDatabaseUnavailable } from '../db/unavailable.ts';

export function escapePointer(token: string): string {
  return token.replace(/~/g, '~0').replace(/\//g, '~1');
}

const parts: Record<string, FieldError['in']> = { body: 'body', querystring: 'query', params: 'path', headers: 'header' };

/** A body can be wrong in thousands of places; an answer lists this many and counts the rest in `detail`. */
export const maxFieldErrors = 100;

/** The offending fields a problem lists, and how many there are in all. */
export interface FieldErrors {
  list: FieldError[];
  total: number;
}

/**
 * Turns ajv's errors into one entry per offending field, each named by JSON Pointer. Past `maxFieldErrors` they are
 * only counted (not told apart, so a repeated one counts twice): a hostile body can hold 100,000 of them.
 */
export function fieldErrors(errors: ErrorObject[], context: string | undefined): FieldErrors {
  const where = parts[context ?? 'body'] ?? 'body';
  const list: FieldError[] = [];
  let total = 0;
  const seen = new Set<string>();
  // Where a nullable field failed, "must be null" only restates that the value was not null.
  const unions = new Set(errors.filter((e) => e.keyword === 'anyOf').map((e) => e.instancePath));
  for (const e of errors) {
    if (e.keyword === 'type' && (e.params as { type: string }).type === 'null' && unions.has(e.instancePath)) continue;
    // The branches of a union each report why they failed; the summary line says it better.
    if (e.keyword === 'anyOf' || e.keyword === 'oneOf' || e.keyword === 'if' || e.keyword === 'propertyNames') continue;
    if (list.length === maxFieldErrors) {
      total++;
      continue;
    }
    let pointer = e.instancePath;
    let detail = e.message ?? 'is invalid';
    if (e.propertyName !== undefined) {
      // A key that breaks propertyNames: the pointer names the key, and the detail says it is the key at fault.
      pointer += '/' + escapePointer(e.propertyName);
      detail = `is a key that ${detail}`;
    } else if (e.keyword === 'required') {
      pointer += '/' + escapePointer(String((e.params as { missingProperty: string }).missingProperty));
      detail = 'is required';
    } else if (e.keyword === 'additionalProperties') {
      pointer += '/' + escapePointer(String((e.params as { additionalProperty: string }).additionalProperty));
      detail = 'is not a known field';
    } else if (e.keyword === 'const') {
      detail = `must be ${JSON.stringify((e.params as { allowedValue: unknown }).allowedValue)}`;
    } else if (e.keyword === 'enum') {
      detail = `must be one of ${(e.params as { allowedValues: unknown[] }).allowedValues.map((v) => JSON.stringify(v)).join(', ')}`;
    }
    const id = `${pointer} ${detail}`;
    if (seen.has(id)) continue;
    seen.add(id);
    list.push({ in: where, pointer: pointer || '', detail });
    total++;
  }
  if (list.length === 0) {
    const first = errors[0];
    list.push({ in: where, pointer: first?.instancePath ?? '', detail: first?.message ?? 'is invalid' });
    total = 1;
  }
  return { list, total };
}

/** A 400 listing the first `maxFieldErrors` of the fields at fault, its detail naming three and counting the rest. */
export function validationError(errors: FieldError[], total = errors.length): ApiError {
  const summary = errors
    .slice(0, 3)
    .map((e) => `${e.in === 'body' ? '' : e.in + ' '}${e.pointer || '(the whole ' + e.in + ')'} ${e.detail}`)
    .join('; ');
  const more = total > 3 ? ` and ${total - 3} more` : '';
  return new ApiError('validation_failed', `${summary}${more}`, errors.slice(0, maxFieldErrors));
}

function problemFor(error: FastifyError): ApiError {
  if (error instanceof ApiError) return error;
  if (error.validation) {
    const { list, total } = fieldErrors(error.validation as ErrorObject[], error.validationContext);
    // The header's schema documents its bounds; a key out of them is the same fault, with the same code, as one the
    // idempotency plugin refuses.
    if (list.length > 0 && list.every((e) => e.in === 'header' && e.pointer === '/idempotency-key')) {
      return new ApiError('invalid_idempotency_key', `Idempotency-Key must be 1 to 255 printable ASCII characters, bare or in double quotes: it ${list[0]!.detail}`);
    }
    return validationError(list, total);
  }
  switch (error.code) {
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return new ApiError('unsupported_media_type', 'Send request bodies as JSON with Content-Type: application/json');
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return new ApiError('payload_too_large', 'Request bodies may be at most 1 MiB (1,048,576 bytes)');
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return new ApiError('malformed_json', 'The body is empty but Content-Type says it is JSON');
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return new ApiError('bad_request', 'Content-Length does not match the body that was sent');
  }
  if (error instanceof SyntaxError || error.code === 'FST_ERR_CTP_INVALID_JSON_BODY') {
    return new ApiError('malformed_json', `The body is not valid JSON: ${error.message}`);
  }
  const status = error.statusCode ?? 500;
  // A client that hangs up while sending its body leaves Fastify an ECONNRESET marked 400: the client's doing,
  // not the database's, whose lost connections carry the same code.
  if (error.message === 'aborted' && status === 400) return new ApiError('bad_request', 'The client closed the connection before the body arrived');
  if (isDatabaseUnavailable(error)) {
    return new ApiError('service_unavailable', 'The database cannot be reached right now; retry shortly', undefined, { 'Retry-After': '5' });
  }
  if (status >= 400 && status < 500) {
    const code = (Object.keys(errorCodes) as ErrorCode[]).find((c) => errorCodes[c].status === status) ?? 'bad_request';
    return new ApiError(code, errorCodes[code].title);
  }
  return new ApiError('internal_error', 'The request failed on our side. Quote the request_id if you contact us.');
}

export function sendProblem(request: FastifyRequest, reply: FastifyReply, problem: ApiError, publicUrl: string): FastifyReply {
  if (problem.headers) reply.headers(problem.headers);
  return reply
    .header('X-Request-Id', request.id)
    .code(problem.status)
    .type('application/problem+json')
    .serializer(JSON.stringify)
    .send(problemDocument(problem, request.id, publicUrl));
}

/**
 * Random bytes for request ids, drawn from the system a page at a time: every request without an id of its client's
 * gets one, and a UUID made and stripped of its dashes for each was a few per cent of an authenticated GET (issue 31).
 */
const idBytes = Buffer.alloc(4096);
let idAt = idBytes.length;

/** `req_` and 128 random bits in hex. */
export function newRequestId(): string {
  if (idAt + 16 > idBytes.length) {
    randomFillSync(idBytes);
    idAt = 0;
  }
  idAt += 16;
  return `req_${idBytes.toString('hex', idAt - 16, idAt)}`;
}

/** A problem's headers and body, for the few answers written before Fastify has a request. */
function problemAnswer(problem: ApiError, publicUrl: string): { headers: Record<string, string>; body: string } {
  const requestId = newRequestId();
  const body = JSON.stringify(problemDocument(problem, requestId, publicUrl));
  return {
    headers: { 'Content-Type': 'application/problem+json', 'Content-Length': String(Buffer.byteLength(body)), 'X-Request-Id': requestId, Connection: 'close' },
    body,
  };
}

/**
 * Node's HTTP parser refuses some requests before Fastify sees them: broken framing or header syntax, headers over
 * its 16 KB limit, a request too slow to arrive. Fastify's own answer to them is plain JSON; ours is the problem
 * document every other error is.
 */
export function clientErrorHandler(publicUrl: string): (error: NodeJS.ErrnoException, socket: Duplex) => void {
  return (error, socket) => {
    // A client that hung up cannot be answered.
    if (error.code === 'ECONNRESET' || socket.destroyed) return;
    const problem =
      error.code === 'HPE_HEADER_OVERFLOW'
        ? new ApiError('headers_too_large', 'The request line and headers may be at most 16 KB together')
        : error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
          ? new ApiError('request_timeout', 'The request did not arrive in time')
          : new ApiError('bad_request', 'The request is not well-formed HTTP/1.1: its request line, a header or its body framing is broken');
    const { headers, body } = problemAnswer(problem, publicUrl);
    const head = Object.entries(headers).map(([name, value]) => `${name}: ${value}\r\n`).join('');
    if (socket.writable) socket.write(`HTTP/1.1 ${problem.status} ${STATUS_CODES[problem.status]}\r\n${head}\r\n${body}`);
    socket.destroy(error);
  };
}

/** Node answers an Expect other than 100-continue with a bare 417 unless someone listens; we answer with a problem. */
export function refuseExpectations(server: Server, publicUrl: string): void {
  server.on('checkExpectation', (request, response) => {
    const problem = new ApiError('expectation_failed', `Expect: ${String(request.headers.expect).slice(0, 100)} is not supported; only 100-continue is`);
    const { headers, body } = problemAnswer(problem, publicUrl);
    response.writeHead(problem.status, headers).end(body);
  });
}

export function registerProblemHandlers(app: FastifyInstance, publicUrl: string): void {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    const problem = problemFor(error);
    if (problem.status >= 500) request.log.error({ err: error, code: problem.code }, 'request failed');
    return sendProblem(request, reply, problem, publicUrl);
  });
  app.setNotFoundHandler((request, reply) =>
    sendProblem(request, reply, new ApiError('route_not_found', `There is no route ${request.method} ${request.url.split('?')[0]}`), publicUrl),
  );
  // A page per code, so the `type` URL of every problem leads somewhere useful.
  app.get('/problems/:code', { schema: { hide: true } }, async (request, reply) => {
    const code = (request.params as { code: string }).code;
    if (!Object.hasOwn(errorCodes, code)) {
      return sendProblem(request, reply, new ApiError('not_found', `There is no problem type ${code}`), publicUrl);
    }
    const entry = errorCodes[code as ErrorCode];
    return { code, status: entry.status, title: entry.title, ...errorHelp[code as ErrorCode] };
  });
}
