export { BalanceSummary, WalletBalance, WalletToggle, useMoneyFormatter, useWalletVisibility, WALLET_PARTS } from './components/wallet';
