import { ChatAction, Code, type InfoNotification } from '@reel/protocol/client';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { Toaster } from '@/components/ui/toaster';
import { notificationSocket } from '@/lib/notification-socket';
import { handleInfo } from '@/lib/session-info';
import { clearToastsForTest } from '@/lib/toast-store';
import { mockFetch, setupI18n, setupSettings } from '@/testing/test-utils';
import { useChatStore } from '../stores/chat-store';
import { ChatPanel } from './chat-panel';

beforeAll(async () => {
  // jsdom lays nothing out; the panel scrolls its messages to the end.
  Element.prototype.scrollTo ??= () => undefined;
  setupSettings();
  await setupI18n('en');
});

afterEach(() => {
  clearToastsForTest();
  vi.unstubAllGlobals();
  useChatStore.getState().closePanel();
});

const chatInfo: InfoNotification = { code: Code.Success, params: {}, message: 'chat', action: ChatAction.Message };
const agent = { id: 'support', name: 'Support Desk', avatar: '', status: 'online' as const, unread: 0 };
const message = (who: string, text: string) => ({ who, message: text, time: '2026-11-26T10:00:00.000Z' });

describe('support chat pushes', () => {
  it("an agent's answer refreshes the open conversation and makes no 'Request Successfull' toast", async () => {
    let dialog = [message('7', 'Hello?')];
    mockFetch({
      'GET /api/chat/contacts': () => ({ body: [agent] }),
      'GET /api/chat/user': () => ({ body: { id: '7', name: 'Demo', avatar: '', status: 'online', mood: '', chatList: [] } }),
      'GET /api/chat/get-chat': () => ({ body: { chat: { id: 'c1', dialog }, userChatList: [] } }),
    });
    // The notification channel delivers the push to every listener, as it does in the app.
    const listeners: ((info: InfoNotification, seq: number) => void)[] = [];
    vi.spyOn(notificationSocket, 'on').mockImplementation(((event: string, handler: (info: InfoNotification, seq: number) => void) => {
      if (event === 'info') listeners.push(handler);
      return () => undefined;
    }) as typeof notificationSocket.on);
    listeners.push((info) => handleInfo(info, () => undefined));
    render(
      <>
        <ChatPanel />
        <Toaster />
      </>,
    );
    useChatStore.getState().openPanel();
    await userEvent.setup().click(await screen.findByRole('button', { name: /Support Desk/ }));
    expect(await screen.findByText('Hello?')).toBeInTheDocument();

    dialog = [...dialog, message('support', 'Hi Demo, how can we help?')];
    for (const listener of listeners) listener(chatInfo, 1);
    expect(await screen.findByText('Hi Demo, how can we help?')).toBeInTheDocument();
    // A later plain notice with the same code does make that toast: once it shows, the chat push
    // before it has had its turn, and it made none.
    for (const listener of listeners) listener({ ...chatInfo, action: '' }, 2);
    expect(await screen.findAllByText('Request Successfull')).toHaveLength(1);
  });
});
