import { GamePage } from '@/features/game';
import { PromotionButtons } from '@/features/promotions';
import { WalletBalance } from '@/features/wallet';
import { QueryRoot } from '@/lib/query-client';

/** The game screen wears no chrome, so the app hands it the toolbar's wallet and promotion buttons. */
export function GameRoute() {
  // The session panel's game recall asks the server through the query client.
  return (
    <QueryRoot>
      <GamePage wallet={<WalletBalance />} promotions={<PromotionButtons />} />
    </QueryRoot>
  );
}
