export { BalanceSummary, WalletBalance, WalletToggle } from './components/wallet';
