import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { Webhook } from 'standardwebhooks';

export interface Received {
  headers: IncomingHttpHeaders;
  body: string;
  /** Date.now() when it arrived. */
  at: number;
  /** The answer the receiver gave. */
  status: number;
}

export type Answer = { status: number; headers?: Record<string, string> } | 'hang';

/** A real HTTP receiver for webhook deliveries: records each one and answers as told. */
export interface Receiver {
  url: string;
  received: Received[];
  /** How to answer the next deliveries (default 204). */
  answer: (r: Omit<Received, 'status'>) => Answer;
  waitFor(predicate: (received: Received[]) => boolean, timeoutMs?: number): Promise<void>;
  close(): Promise<void>;
}

export async function startReceiver(path = '/hooks'): Promise<Receiver> {
  const hanging: (() => void)[] = [];
  const receiver: Receiver = {
    url: '',
    received: [],
    answer: () => ({ status: 204 }),
    async waitFor(predicate, timeoutMs = 15_000) {
      const until = Date.now() + timeoutMs;
      while (!predicate(receiver.received)) {
        if (Date.now() > until) throw new Error(`receiver did not get what was expected within ${timeoutMs} ms; got ${receiver.received.length} deliveries`);
        await new Promise((r) => setTimeout(r, 20));
      }
    },
    close: () =>
      new Promise((resolve) => {
        for (const release of hanging) release();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const got = { headers: req.headers, body: Buffer.concat(chunks).toString('utf8'), at: Date.now() };
      const answer = receiver.answer(got);
      if (answer === 'hang') {
        receiver.received.push({ ...got, status: 0 });
        hanging.push(() => res.destroy());
        return;
      }
      receiver.received.push({ ...got, status: answer.status });
      res.writeHead(answer.status, answer.headers);
      res.end(answer.status >= 400 ? 'not now' : '');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (!address || typeof address === 'string') throw new Error('no address');
  receiver.url = `http://127.0.0.1:${address.port}${path}`;
  return receiver;
}

/** Verifies a delivery exactly as a receiver using the public standardwebhooks library would; throws when it does not verify. */
export function verify(secret: string, r: Pick<Received, 'headers' | 'body'>): { type: string; timestamp: string; data: Record<string, unknown> } {
  return new Webhook(secret).verify(r.body, {
    'webhook-id': String(r.headers['webhook-id']),
    'webhook-timestamp': String(r.headers['webhook-timestamp']),
    'webhook-signature': String(r.headers['webhook-signature']),
  }) as { type: string; timestamp: string; data: Record<string, unknown> };
}
