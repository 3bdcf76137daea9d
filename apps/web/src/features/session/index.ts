export { SessionNotices, handleInfo, reconnectVariant } from './components/session-notices';
