// Every failure the API reports is an AppError with a code from CONTRACT §2; one table maps a
// code to its HTTP status and type, so no service ever deals in HTTP.
import { isDatabaseUnavailable } from './db.ts';

export const ERRORS = {
  missing_required_field: { status: 400, type: 'invalid_request_error' },
  parameter_invalid: { status: 400, type: 'invalid_request_error' },
  parameter_unknown: { status: 400, type: 'invalid_request_error' },
  invalid_json: { status: 400, type: 'invalid_request_error' },
  invalid_coupon: { status: 400, type: 'invalid_request_error' },
  refund_exceeds_amount_paid: { status: 400, type: 'invalid_request_error' },
  processor_not_configured: { status: 400, type: 'invalid_request_error' },
  authentication_required: { status: 401, type: 'authentication_error' },
  invalid_credentials: { status: 401, type: 'authentication_error' },
  token_expired: { status: 401, type: 'authentication_error' },
  card_declined: { status: 402, type: 'card_error' },
  insufficient_funds: { status: 402, type: 'card_error' },
  insufficient_scope: { status: 403, type: 'permission_error' },
  resource_not_found: { status: 404, type: 'invalid_request_error' },
  route_not_found: { status: 404, type: 'invalid_request_error' },
  invalid_state_transition: { status: 409, type: 'invalid_request_error' },
  slot_unavailable: { status: 409, type: 'invalid_request_error' },
  resource_already_exists: { status: 409, type: 'invalid_request_error' },
  invoice_already_paid: { status: 409, type: 'invalid_request_error' },
  invoice_not_paid: { status: 409, type: 'invalid_request_error' },
  customer_deactivated: { status: 409, type: 'invalid_request_error' },
  address_required: { status: 409, type: 'invalid_request_error' },
  // something still needs the resource (CONTRACT §11): the message names what, up to 5 ids
  resource_in_use: { status: 409, type: 'invalid_request_error' },
  idempotency_key_in_use: { status: 409, type: 'idempotency_error' },
  idempotency_key_reused: { status: 422, type: 'idempotency_error' },
  request_too_large: { status: 413, type: 'invalid_request_error' },
  unsupported_media_type: { status: 415, type: 'invalid_request_error' },
  rate_limit_exceeded: { status: 429, type: 'rate_limit_error' },
  server_error: { status: 500, type: 'api_error' },
  service_unavailable: { status: 503, type: 'api_error' },
} as const satisfies Record<string, { status: number; type: string }>;

export type ErrorCode = keyof typeof ERRORS;

export class AppError extends Error {
  readonly code: ErrorCode;
  readonly param: string | undefined;
  /** Extra response headers (Retry-After, WWW-Authenticate). */
  readonly headers: Record<string, string>;

  constructor(code: ErrorCode, message: string, options: { param?: string; headers?: Record<string, string> } = {}) {
    super(message);
    this.name = 'AppError';
    this.code = code;
    this.param = options.param;
    this.headers = options.headers ?? {};
  }

  get status(): number {
    // An unknown id in the body (param set) is a bad request; in the path it is a 404 (CONTRACT §2).
    if (this.code === 'resource_not_found' && this.param !== undefined) return 400;
    return ERRORS[this.code].status;
  }

  get type(): string {
    return ERRORS[this.code].type;
  }

  toBody(): { error: { type: string; code: string; message: string; param?: string } } {
    return {
      error: {
        type: this.type,
        code: this.code,
        message: this.message,
        ...(this.param === undefined ? {} : { param: this.param }),
      },
    };
  }
}

export function notFound(kind: string, id: string, param?: string): AppError {
  return new AppError('resource_not_found', `No such ${kind}: '${id}'`, { param });
}

/**
 * `row` when there is one, else the 404 for the `kind` with that id: a service's find-or-404. Rows
 * only (`T extends object`): a `false` from an update that matched nothing is not "missing" here.
 */
export function found<T extends object>(row: T | null | undefined, kind: string, id: string, param?: string): T {
  if (row === null || row === undefined) throw notFound(kind, id, param);
  return row;
}

/** 503 with Retry-After: the database is unreachable, or the server is shutting down, for a moment. */
export function serviceUnavailable(
  message = 'The service is temporarily unavailable; retry the request in a moment.',
): AppError {
  return new AppError('service_unavailable', message, { headers: { 'retry-after': '1' } });
}

/** A 503 of ours, or the database out of reach: each part of the app answers it in its own shape. */
export function isServiceUnavailable(error: unknown): boolean {
  return error instanceof AppError ? error.code === 'service_unavailable' : isDatabaseUnavailable(error);
}

export function invalidParameter(param: string, message: string): AppError {
  return new AppError('parameter_invalid', message, { param });
}
