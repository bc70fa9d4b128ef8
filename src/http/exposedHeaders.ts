/** The response headers a browser agent must be able to read (CORS `Access-Control-Expose-Headers`). */
export const EXPOSED_HEADERS = [
  'PAYMENT-REQUIRED',
  'PAYMENT-RESPONSE',
  'X-PAYMENT-RESPONSE',
  'X-Request-Id',
  'Retry-After',
  'Server-Timing',
]
