import { LIVE_CHAT_RETRY_MS, LIVE_CHAT_START_DELAY_MS } from '@reel/protocol/client';
import { useEffect } from 'react';
import { useRuntimeSettings } from '@/config/runtime-settings';

const LIVE_CHAT_SOURCES = {
  tawk: (id: string) => `https://embed.tawk.to/${id}`,
  jivo: (id: string) => `https://code.jivosite.com/widget/${id}`,
} as const;
type LiveChatProvider = keyof typeof LIVE_CHAT_SOURCES;

const SCRIPT_ID = 'live-chat-script';

/**
 * Injects the configured provider's script 700 ms after start (so it never competes with the first
 * paint) and tries once more after 5000 ms when it has not loaded. Returns a cancel function.
 */
function scheduleLiveChat(provider: string, id: string, doc: Document = document): () => void {
  if (!(provider in LIVE_CHAT_SOURCES) || !id) return () => {};
  const src = LIVE_CHAT_SOURCES[provider as LiveChatProvider](id);
  let loaded = false;
  const inject = () => {
    doc.getElementById(SCRIPT_ID)?.remove();
    const script = doc.createElement('script');
    script.id = SCRIPT_ID;
    script.src = src;
    script.async = true;
    script.onload = () => {
      loaded = true;
    };
    doc.body.appendChild(script);
  };
  const start = setTimeout(inject, LIVE_CHAT_START_DELAY_MS);
  const retry = setTimeout(() => {
    if (!loaded) inject();
  }, LIVE_CHAT_START_DELAY_MS + LIVE_CHAT_RETRY_MS);
  return () => {
    clearTimeout(start);
    clearTimeout(retry);
  };
}

export function LiveChatLoader() {
  const provider = useRuntimeSettings((state) => state.settings.LIVE_CHAT_PROVIDER);
  const id = useRuntimeSettings((state) => state.settings.LIVE_CHAT_ID);
  useEffect(() => scheduleLiveChat(provider, id), [provider, id]);
  return null;
}
