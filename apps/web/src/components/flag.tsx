import type { ReactNode } from 'react';
import type { FlagId } from '@/config/languages';

/** Small inline flags (no image requests, crisp at any size); decorative next to the language code. */
const FLAGS: Record<FlagId, ReactNode> = {
  gb: (
    <>
      <rect width="60" height="40" fill="#012169" />
      <path d="M0 0 60 40M60 0 0 40" stroke="#fff" strokeWidth="8" />
      <path d="M0 0 60 40M60 0 0 40" stroke="#c8102e" strokeWidth="3" />
      <path d="M30 0v40M0 20h60" stroke="#fff" strokeWidth="12" />
      <path d="M30 0v40M0 20h60" stroke="#c8102e" strokeWidth="7" />
    </>
  ),
  tr: (
    <>
      <rect width="60" height="40" fill="#e30a17" />
      <circle cx="22" cy="20" r="10" fill="#fff" />
      <circle cx="24.5" cy="20" r="8" fill="#e30a17" />
      <path d="M31 20l8.6-2.8-5.3 7.3V15.5l5.3 7.3z" fill="#fff" />
    </>
  ),
  sa: (
    <>
      <rect width="60" height="40" fill="#006c35" />
      <path d="M14 16h32M16 20h28" stroke="#fff" strokeWidth="2" strokeLinecap="round" />
      <path d="M16 28h26l3-2" stroke="#fff" strokeWidth="2" fill="none" strokeLinecap="round" />
    </>
  ),
};

export function Flag({ id, size = 18 }: { id: FlagId; size?: number }) {
  return (
    <svg className="flag" data-flag={id} width={size} height={(size * 2) / 3} viewBox="0 0 60 40" aria-hidden="true" focusable="false">
      {FLAGS[id]}
    </svg>
  );
}
