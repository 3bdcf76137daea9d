export { ChatPanel } from './components/chat-panel';
export { useChatStore } from './stores/chat-store';
