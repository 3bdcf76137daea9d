/** Masks secrets that may travel in a query string (WebSocket tokens, grants) before logging. */
export function redactUrl(url: string): string {
  return url.replace(/([?&](?:token|access_token|grant|ticket)=)[^&]*/gi, '$1[redacted]');
}
