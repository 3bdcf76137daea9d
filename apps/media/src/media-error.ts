/** A refusal of either backend (werift forwarder, Janus adapter) that the control API answers with its status. */
import type { GrantError } from '@reel/media-control';

export class MediaError extends Error {
  constructor(
    readonly status: number,
    readonly code: GrantError | 'no_ingest' | 'no_viewer' | 'bad_request',
  ) {
    super(code);
  }
}
