// A minimal HTTP/1.1 keep-alive client for load generators that share the server's cores. undici's Pool spends
// about 0.35 ms of CPU per request here, so on two cores the load generator took a tenth of what a flow costs, and
// so of the flows/s measured; this one writes a request as one string and reads only the status line and the
// framing headers. It speaks just enough HTTP for shipd's answers: Content-Length or chunked bodies, no upgrades.
import { connect, type Socket } from 'node:net';

export interface Response {
  status: number;
  body: Buffer;
}

const headerEnd = Buffer.from('\r\n\r\n');

/** One connection, one request at a time. */
export class Connection {
  private socket: Socket | undefined;
  private buffered: Buffer = Buffer.alloc(0);
  private waiting: { resolve: (r: Response) => void; reject: (e: Error) => void } | undefined;

  constructor(
    private readonly host: string,
    private readonly port: number,
  ) {}

  private open(): Socket {
    const socket = connect({ host: this.host, port: this.port, noDelay: true });
    socket.on('data', (chunk: Buffer) => {
      this.buffered = this.buffered.length === 0 ? chunk : Buffer.concat([this.buffered, chunk]);
      this.parse();
    });
    const fail = (err: Error) => {
      this.socket = undefined;
      this.buffered = Buffer.alloc(0);
      const waiting = this.waiting;
      this.waiting = undefined;
      waiting?.reject(err);
    };
    socket.on('error', fail);
    socket.on('close', () => fail(new Error('the server closed the connection')));
    return socket;
  }

  /** Completes the waiting request once its whole answer has arrived. */
  private parse(): void {
    const end = this.buffered.indexOf(headerEnd);
    if (end < 0 || !this.waiting) return;
    const head = this.buffered.subarray(0, end).toString('latin1');
    const status = Number(head.slice(9, 12));
    const length = /\r\ncontent-length:\s*(\d+)/i.exec(head);
    let body: Buffer;
    let rest: Buffer;
    if (length) {
      const bodyEnd = end + 4 + Number(length[1]);
      if (this.buffered.length < bodyEnd) return;
      body = this.buffered.subarray(end + 4, bodyEnd);
      rest = this.buffered.subarray(bodyEnd);
    } else if (/\r\ntransfer-encoding:\s*chunked/i.test(head)) {
      const parts: Buffer[] = [];
      let at = end + 4;
      for (;;) {
        const lineEnd = this.buffered.indexOf('\r\n', at);
        if (lineEnd < 0) return;
        const size = parseInt(this.buffered.subarray(at, lineEnd).toString('latin1'), 16);
        if (this.buffered.length < lineEnd + 2 + size + 2) return;
        if (size === 0) {
          at = lineEnd + 4;
          break;
        }
        parts.push(this.buffered.subarray(lineEnd + 2, lineEnd + 2 + size));
        at = lineEnd + 2 + size + 2;
      }
      body = Buffer.concat(parts);
      rest = this.buffered.subarray(at);
    } else {
      body = Buffer.alloc(0);
      rest = this.buffered.subarray(end + 4);
    }
    this.buffered = rest;
    const waiting = this.waiting;
    this.waiting = undefined;
    waiting.resolve({ status, body });
  }

  request(method: 'GET' | 'POST', path: string, headers: string, body?: string): Promise<Response> {
    if (this.waiting) return Promise.reject(new Error('one request at a time on a connection'));
    this.socket ??= this.open();
    const payload = body === undefined ? '' : `content-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\n`;
    this.socket.write(`${method} ${path} HTTP/1.1\r\nhost: ${this.host}:${this.port}\r\n${headers}${payload}\r\n${body ?? ''}`);
    return new Promise((resolve, reject) => (this.waiting = { resolve, reject }));
  }

  close(): void {
    this.socket?.removeAllListeners('close');
    this.socket?.end();
    this.socket = undefined;
  }
}
