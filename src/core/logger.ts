import type { FastifyServerOptions } from 'fastify';

/** pino settings: secrets never reach the log, whatever a request carries. */
export function loggerOptions(level: string): FastifyServerOptions['logger'] {
  return {
    level,
    redact: {
      paths: [
        'req.headers.authorization',
        'req.headers.cookie',
        'req.headers["idempotency-key"]',
        'res.headers["set-cookie"]',
        '*.password',
        '*.client_secret',
        '*.refresh_token',
        '*.access_token',
        '*.card.number',
        '*.card.cvc',
        '*.secret',
      ],
      censor: '[redacted]',
    },
  };
}
