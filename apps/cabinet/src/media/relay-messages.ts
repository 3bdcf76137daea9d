/** What the cabinet's main thread and the video relays' worker thread (relay-thread.ts) say to each other. */
export interface RelayTarget {
  host: string;
  port: number;
}

export type RelayRequest =
  | { op: 'open'; id: number; target: RelayTarget }
  | { op: 'retarget'; id: number; target: RelayTarget }
  | { op: 'count'; id: number }
  | { op: 'close'; id: number };

export type RelayReply =
  | { op: 'opened'; id: number; port: number }
  | { op: 'failed'; id: number; message: string }
  | { op: 'count'; id: number; packets: number };
