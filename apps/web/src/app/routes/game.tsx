import { GamePage } from '@/features/game';
import { PromotionButtons } from '@/features/promotions';
import { WalletBalance } from '@/features/wallet';

/** The game screen wears no chrome, so the app hands it the toolbar's wallet and promotion buttons. */
export function GameRoute() {
  return <GamePage wallet={<WalletBalance />} promotions={<PromotionButtons />} />;
}
