export { SessionNotices } from './components/session-notices';
export { cancelSession } from './api/cancel-session';
export { getOpenSession } from './api/get-open-session';
export { kickSession } from './api/kick-session';
