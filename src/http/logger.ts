import pino, { type DestinationStream, type Logger } from 'pino';

/** How long a log line may wait in the buffer before it is written, when lines come too slowly to fill it. */
const flushEveryMs = 1_000;

/**
 * The most the buffer holds while standard output is not taking lines (a full pipe, a stalled log collector).
 * Beyond it lines are dropped, and counted on standard error, rather than held in memory without end: unbounded,
 * the buffer took 90 MB of the process's heap under load when the reader of the pipe fell behind.
 */
const maxBufferedBytes = 4 * 1_048_576;

/** Lines are handed to the writer in batches of about this many characters. */
const batchCharacters = 4096;

/**
 * Lines gathered into batches before sonic-boom (pino's asynchronous writer) takes them. sonic-boom measures the
 * text it is still holding at every write (Buffer.byteLength, which copies a string built by concatenation whole),
 * so handed line by line it copied up to 16 KB for each line: under load, the request log's writes were a sixth
 * of the time of an authenticated GET (issue 31). Handed 4 KB at a time, it measures once a batch.
 */
class LineBatches implements DestinationStream {
  private lines: string[] = [];
  private characters = 0;

  constructor(private readonly writer: SonicBoomLike) {}

  write(line: string): void {
    this.lines.push(line);
    this.characters += line.length;
    if (this.characters >= batchCharacters) this.pass();
  }

  private pass(): void {
    if (this.lines.length === 0) return;
    const batch = this.lines.join('');
    this.lines = [];
    this.characters = 0;
    this.writer.write(batch);
  }

  /** pino's logger.flush(cb) hands its callback here: it is called once the writer has written what it held. */
  flush(done?: (err?: Error) => void): void {
    this.pass();
    this.writer.flush(done);
  }

  flushSync(): void {
    this.pass();
    this.writer.flushSync();
  }
}

type SonicBoomLike = ReturnType<typeof pino.destination>;

/**
 * Standard output, written asynchronously in batches of 4 KB or more. pino's default writes every line to the
 * file descriptor synchronously: one write system call per request, on the event loop's thread. A batch is
 * written whenever 4 KB of lines are waiting, at most a second after a line, and synchronously when the process
 * exits, on an error as well: a process killed outright (SIGKILL, the kernel's out-of-memory killer) loses at most
 * that last second of lines.
 */
function bufferedStdout(): DestinationStream {
  const writer = pino.destination({ dest: 1, sync: false, minLength: 0, maxLength: maxBufferedBytes });
  let dropped = 0;
  writer.on('drop', (batch: string) => {
    for (let at = batch.indexOf('\n'); at !== -1; at = batch.indexOf('\n', at + 1)) dropped++;
  });
  const stream = new LineBatches(writer);
  setInterval(() => {
    stream.flush();
    if (dropped === 0) return;
    process.stderr.write(`${JSON.stringify({ level: 40, time: new Date().toISOString(), service: 'shipd', dropped, msg: 'log lines dropped: standard output did not take them fast enough' })}\n`);
    dropped = 0;
  }, flushEveryMs).unref();
  process.on('exit', () => {
    try {
      stream.flushSync();
    } catch {
      // stdout is gone (a closed pipe): nothing can be written any more
    }
  });
  return stream;
}

let stdout: DestinationStream | undefined;

/**
 * pino's isoTime, formatted once a millisecond: a busy process writes several lines in one, and formatting the
 * time for each was 4 % of an authenticated GET (a CPU profile, issue 31).
 */
function isoTimeOncePerMillisecond(): () => string {
  let at = Number.NaN;
  let field = '';
  return () => {
    const now = Date.now();
    if (now !== at) {
      at = now;
      field = `,"time":"${new Date(now).toISOString()}"`;
    }
    return field;
  };
}

/**
 * Structured JSON logs, to standard output unless given a destination. Requests are logged by path only (query
 * strings can carry label tokens) and headers are never logged; the redact list is a second line of defence for
 * anything logged by hand.
 */
export function createLogger(level: string, destination?: DestinationStream): Logger {
  return pino(
    {
      level,
      base: { service: 'shipd' },
      timestamp: isoTimeOncePerMillisecond(),
      redact: {
        paths: [
          'req.headers.authorization',
          'req.headers["x-api-key"]',
          'headers.authorization',
          'headers["x-api-key"]',
          '*.secret',
          '*.api_key',
          '*.payment_method',
          '*.card',
        ],
        censor: '[redacted]',
      },
    },
    destination ?? (stdout ??= bufferedStdout()),
  );
}
