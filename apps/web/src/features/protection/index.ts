export { ProtectionPage } from './components/protection-page';
export { RealityCheckDialog } from './components/reality-check-dialog';
export { closedSessionState, SessionSummary } from './components/session-summary';
