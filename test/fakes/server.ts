import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A request as a fake carrier received it, for tests to check what the adapter sent. */
export interface RecordedCall {
  method: string;
  path: string;
  /** The query string's parameters. */
  query: Record<string, string>;
  headers: Record<string, unknown>;
  body: unknown;
}

export function recordedCall(req: IncomingMessage, path: string, body: unknown): RecordedCall {
  return { method: req.method ?? '', path, query: Object.fromEntries(new URL(req.url ?? '/', 'http://fake').searchParams), headers: { ...req.headers }, body };
}

export async function readText(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

/** A body read as JSON where it is JSON; anything else (a form) stays text, and no body is undefined. */
export function jsonOrText(raw: string): unknown {
  if (raw === '') return undefined;
  try {
    return JSON.parse(raw);
  } catch {
    return raw;
  }
}

export function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text), ...headers });
  res.end(text);
}

/** Serves a fake carrier on a free port of 127.0.0.1; close() cuts the connections still open (a slow answer pending, a pool kept alive) instead of waiting on them. */
export async function serve(handler: (req: IncomingMessage, res: ServerResponse) => void): Promise<{ url: string; close(): Promise<void> }> {
  const server = createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
