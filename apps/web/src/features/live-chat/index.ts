export { LiveChatLoader } from './components/live-chat-loader';
