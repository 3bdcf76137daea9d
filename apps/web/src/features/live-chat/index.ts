export { LiveChatLoader, scheduleLiveChat, LIVE_CHAT_SOURCES } from './components/live-chat-loader';
