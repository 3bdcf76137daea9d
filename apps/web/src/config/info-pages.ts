import { paths } from './paths';

/**
 * The footer's information pages (spec section 2), in the spec's order. The first five are the
 * product's own static pages (apps/web/public/info/, English and Turkish; an operator may replace
 * them). Paytables is generated from the cabinets' math by its own route.
 */
export interface InfoPage {
  id: string;
  /** i18n key of the title. */
  title: string;
  src: (language: string) => string;
}

const staticPage = (id: string, title: string): InfoPage => ({
  id,
  title,
  src: (language) => `/info/${id}.html?lang=${language}`,
});

export const INFO_PAGES: readonly InfoPage[] = [
  staticPage('password-reset', 'footer.passwordReset'),
  staticPage('game-rules', 'footer.gameRules'),
  staticPage('player-protection', 'footer.playerProtection'),
  staticPage('terms', 'footer.terms'),
  staticPage('privacy', 'footer.privacy'),
  // Generated from the cabinets' own tables (GET /machine/paytable), not a static file.
  { id: 'paytables', title: 'footer.paytables', src: (language) => `${paths.paytables}?lang=${language}` },
];
