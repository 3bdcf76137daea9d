export { IdleLock } from './components/idle-lock';
