export { GamePage, canUseFullscreen, type GamePageProps } from './components/game-page';
