import pino, { type DestinationStream, type Logger } from 'pino';

/**
 * Structured JSON logs. Requests are logged by path only (query strings can carry label tokens) and
 * headers are never logged; the redact list is a second line of defence for anything logged by hand.
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
    destination,
  );
}
