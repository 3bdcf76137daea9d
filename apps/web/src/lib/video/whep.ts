/**
 * WHEP-style signalling against the server: POST the offer with the grant as bearer; the answer
 * (or, with the Janus backend, the server's own offer) comes back as SDP with a Location for the
 * viewer resource, used for the Janus answer (PATCH), leaving (DELETE) and the pagehide beacon.
 */
interface SignalResult {
  kind: 'answer' | 'offer';
  sdp: string;
  /** Absolute or root-relative URL of the viewer resource. */
  resourceUrl: string | null;
}

export interface Signaller {
  offer(offerSdp: string): Promise<SignalResult>;
  answer(resourceUrl: string, answerSdp: string): Promise<void>;
  leave(resourceUrl: string): Promise<void>;
  /** Fire-and-forget close that survives the page going away. */
  beacon(resourceUrl: string): void;
}

/**
 * A refused or failed signalling call: the HTTP status, the server's catalogue code (0 when it sent
 * none) and its reason (`Params.reason`, e.g. `expired`), or what went wrong here.
 */
export class SignalError extends Error {
  constructor(
    readonly status: number,
    readonly reason: string,
    readonly code = 0,
  ) {
    super(`signalling failed: ${status} ${code || ''} ${reason}`.replace(/ +/g, ' '));
  }
}

async function refusal(res: Response, fallbackReason: string): Promise<SignalError> {
  try {
    const body = (await res.json()) as { code?: unknown; Params?: { reason?: unknown } };
    const code = typeof body.code === 'number' ? body.code : 0;
    const reason = typeof body.Params?.reason === 'string' ? body.Params.reason : fallbackReason;
    return new SignalError(res.status, reason, code);
  } catch {
    // No JSON body (a proxy's error page): the status says enough.
    return new SignalError(res.status, fallbackReason);
  }
}

/**
 * The viewer resource's Location is a root path of the server that answered: it lives beside the
 * WHEP endpoint, which may be another host than the page's.
 */
function resolveAgainst(location: string, whepUrl: string): string {
  try {
    return new URL(location, whepUrl).toString();
  } catch {
    // A root-relative WHEP URL (tests, the video harness) has no host to resolve against.
    return location;
  }
}

export function whepSignaller(
  whepUrl: string,
  grant: () => string,
  fetchImpl: typeof fetch = fetch.bind(globalThis),
): Signaller {
  return {
    async offer(offerSdp) {
      const res = await fetchImpl(whepUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/sdp', authorization: `Bearer ${grant()}` },
        body: offerSdp,
      });
      if (res.status !== 201 && res.status !== 200) throw await refusal(res, 'offer_refused');
      const kind = res.headers.get('x-sdp-kind') === 'offer' ? 'offer' : 'answer';
      const location = res.headers.get('location');
      return { kind, sdp: await res.text(), resourceUrl: location === null ? null : resolveAgainst(location, whepUrl) };
    },
    async answer(resourceUrl, answerSdp) {
      const res = await fetchImpl(resourceUrl, {
        method: 'PATCH',
        headers: { 'content-type': 'application/sdp' },
        body: answerSdp,
      });
      if (!res.ok) throw await refusal(res, 'answer_refused');
    },
    async leave(resourceUrl) {
      await fetchImpl(resourceUrl, { method: 'DELETE', keepalive: true }).catch(() => undefined);
    },
    beacon(resourceUrl) {
      const url = `${resourceUrl}/close`;
      const sent =
        typeof navigator !== 'undefined' &&
        typeof navigator.sendBeacon === 'function' &&
        navigator.sendBeacon(url);
      if (!sent) void fetchImpl(url, { method: 'POST', keepalive: true }).catch(() => undefined);
    },
  };
}
