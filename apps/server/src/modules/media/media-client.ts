import {
  MEDIA_SECRET_HEADER,
  mediaPath,
  type CreateViewerResponse,
  type IngestInfo,
  type MediaStats,
  type ViewerCloseReason,
} from '@reel/protocol';

export class MediaControlError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
  ) {
    super(`media control ${status} ${code}`);
  }
}

/** Typed client of the media process' control API (loopback HTTP). */
export class MediaClient {
  constructor(
    private readonly baseUrl: () => string | null,
    private readonly secret: string,
  ) {}

  private async call<T>(method: string, path: string, body?: unknown): Promise<T> {
    const base = this.baseUrl();
    if (!base) throw new MediaControlError(503, 'media_not_ready');
    const res = await fetch(base + path, {
      method,
      headers: {
        [MEDIA_SECRET_HEADER]: this.secret,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      signal: AbortSignal.timeout(10_000),
    });
    const text = await res.text();
    if (!res.ok) {
      let code = 'error';
      try {
        code = (JSON.parse(text) as { error?: string }).error ?? code;
      } catch {
        // not JSON
      }
      throw new MediaControlError(res.status, code);
    }
    return (text ? JSON.parse(text) : undefined) as T;
  }

  createIngest(machineId: number): Promise<IngestInfo> {
    return this.call('POST', mediaPath('Ingests'), { machineId });
  }
  deleteIngest(machineId: number): Promise<void> {
    return this.call('DELETE', mediaPath('Ingest', { machineId }));
  }
  createViewer(grant: string, machineId: number, offerSdp: string): Promise<CreateViewerResponse> {
    return this.call('POST', mediaPath('Viewers'), { grant, machineId, offerSdp });
  }
  answerViewer(viewerId: string, answerSdp: string): Promise<void> {
    return this.call('PATCH', mediaPath('Viewer', { viewerId }), { answerSdp });
  }
  deleteViewer(viewerId: string, reason: ViewerCloseReason = 'leave'): Promise<void> {
    return this.call('DELETE', `${mediaPath('Viewer', { viewerId })}?reason=${reason}`);
  }
  stats(): Promise<MediaStats> {
    return this.call('GET', mediaPath('Stats'));
  }
}
