export { JoinQueueButton } from './components/join-queue-button';
export { QueueReadyCheck } from './components/queue-ready-check';
