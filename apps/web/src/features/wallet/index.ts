export {
  BalanceSummary,
  WalletBalance,
  WalletToggle,
  useWalletVisibility,
  WALLET_PARTS,
} from './components/wallet';
