import { createServer, request, type IncomingHttpHeaders, type Server } from 'node:http';

/** What the proxy does with one request: pass it on, answer it itself, or pass it on and lose the answer. */
export type Decision = 'forward' | 'forward-and-drop' | { status: number; headers?: Record<string, string>; body?: string };

export interface Seen {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  at: number;
}

/** A real HTTP proxy in front of shipd that fails requests as a test tells it to, and records each one it got. */
export interface Proxy {
  url: string;
  seen: Seen[];
  decide: (request: Seen, index: number) => Decision;
  close(): Promise<void>;
}

/** Listens on `port`, or on one of the system's choosing. */
export async function startProxy(target: string, port = 0): Promise<Proxy> {
  const proxy: Proxy = {
    url: '',
    seen: [],
    decide: () => 'forward',
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const seen = { method: req.method ?? '', path: req.url ?? '', headers: req.headers, at: Date.now() };
      proxy.seen.push(seen);
      const decision = proxy.decide(seen, proxy.seen.length - 1);
      if (typeof decision === 'object') {
        res.writeHead(decision.status, { 'content-type': 'application/problem+json', ...decision.headers });
        res.end(decision.body ?? '');
        return;
      }
      const upstream = request(target + seen.path, { method: seen.method, headers: { ...req.headers, host: new URL(target).host } }, (answer) => {
        const body: Buffer[] = [];
        answer.on('data', (c: Buffer) => body.push(c));
        answer.on('end', () => {
          // The answer is read to its end, so shipd has done the work, and then the client's connection is cut.
          if (decision === 'forward-and-drop') return res.socket?.destroy();
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          res.end(Buffer.concat(body));
        });
      });
      upstream.on('error', () => res.socket?.destroy());
      upstream.end(Buffer.concat(chunks));
    });
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  const address = server.address();
  if (!address || typeof address === 'string') throw new Error('no address');
  proxy.url = `http://127.0.0.1:${address.port}`;
  return proxy;
}
