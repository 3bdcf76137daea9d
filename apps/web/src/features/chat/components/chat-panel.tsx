import { lazy, Suspense } from 'react';
import { useChatStore } from '../stores/chat-store';

const ChatConversations = lazy(() => import('./chat-conversations').then((m) => ({ default: m.ChatConversations })));

/**
 * The support chat side panel. Closed, it is nothing; open, its conversations load as a chunk of
 * their own (with the query library), so the app's first bundle does not carry them.
 */
export function ChatPanel() {
  const open = useChatStore((state) => state.open);
  if (!open) return null;
  return (
    <Suspense fallback={null}>
      <ChatConversations />
    </Suspense>
  );
}
