export { PromotionButtons } from './components/promotion-buttons';
export { checkPromotion, markUsed, readUsedAt } from './promotion-rules';
