export { WatchPage } from './components/watch-page';
export { useWatcherCount } from './hooks/use-watcher-count';
