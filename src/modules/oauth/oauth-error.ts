// Errors of the authorization server in the flat RFC 6749 §5.2 shape. They are kept apart from
// the API's AppError envelope because standard OAuth clients understand only this shape.

export type OAuthErrorCode =
  | 'invalid_request'
  | 'invalid_client'
  | 'invalid_grant'
  | 'unauthorized_client'
  | 'unsupported_grant_type'
  | 'invalid_scope'
  | 'access_denied'
  | 'unsupported_response_type'
  | 'server_error'
  | 'temporarily_unavailable';

export class OAuthError extends Error {
  readonly error: OAuthErrorCode;

  constructor(error: OAuthErrorCode, description: string) {
    super(description);
    this.name = 'OAuthError';
    this.error = error;
  }

  /**
   * invalid_client is 401 (RFC 6749 §5.2); a server failure 500; the database out of reach or
   * the server shutting down 503 (with Retry-After, so that HTTP clients retry); the rest 400.
   */
  get status(): number {
    if (this.error === 'invalid_client') return 401;
    if (this.error === 'server_error') return 500;
    if (this.error === 'temporarily_unavailable') return 503;
    return 400;
  }

  toBody(): { error: OAuthErrorCode; error_description: string } {
    return { error: this.error, error_description: this.message };
  }
}
