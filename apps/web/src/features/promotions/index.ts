export { PromotionButtons } from './components/promotion-buttons';
