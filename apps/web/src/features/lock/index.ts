export { IdleLock } from './components/idle-lock';
export { useLockStore, shouldRestoreLock } from './stores/lock-store';
export { useIdleTimer } from './hooks/use-idle-timer';
