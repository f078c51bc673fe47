import pino, { type DestinationStream, type Logger } from 'pino';

/** How long a log line may wait in the buffer before it is written, when lines come too slowly to fill it. */
const flushEveryMs = 1_000;

/**
 * The most the buffer holds while standard output is not taking lines (a full pipe, a stalled log collector).
 * Beyond it lines are dropped, and counted on standard error, rather than held in memory without end: unbounded,
 * the buffer took 90 MB of the process's heap under load when the reader of the pipe fell behind.
 */
const maxBufferedBytes = 4 * 1_048_576;

/**
 * Standard output, written asynchronously from a buffer of 4 KB or more. pino's default writes every line to the
 * file descriptor synchronously: one write system call per request, on the event loop's thread. The buffer is
 * written whenever it holds 4 KB, at most a second after a line, and synchronously when the process exits, on an
 * error as well: a process killed outright (SIGKILL, the kernel's out-of-memory killer) loses at most that last
 * second of lines.
 */
function bufferedStdout(): DestinationStream {
  const stream = pino.destination({ dest: 1, sync: false, minLength: 4096, maxLength: maxBufferedBytes });
  let dropped = 0;
  stream.on('drop', () => dropped++);
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
 * Structured JSON logs, to standard output unless given a destination. Requests are logged by path only (query
 * strings can carry label tokens) and headers are never logged; the redact list is a second line of defence for
 * anything logged by hand.
 */
export function createLogger(level: string, destination?: DestinationStream): Logger {
  return pino(
    {
      level,
      base: { service: 'shipd' },
      timestamp: pino.stdTimeFunctions.isoTime,
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
