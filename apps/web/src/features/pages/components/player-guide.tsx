import { usePageTexts } from '../page-texts';

/** The player guide's sections, in reading order; the documentation and the layout pages show them. */
export const GUIDE_SECTIONS = ['lobby', 'join', 'credits', 'spin', 'cashout', 'reconnect', 'account'] as const;
export type GuideSection = (typeof GUIDE_SECTIONS)[number];

export function GuideSectionText({ section, headingLevel = 2 }: { section: GuideSection; headingLevel?: 2 | 3 }) {
  const { t } = usePageTexts();
  const Heading = headingLevel === 2 ? 'h2' : 'h3';
  return (
    <section className="guide__section" id={`guide-${section}`} aria-labelledby={`guide-${section}-title`}>
      <Heading id={`guide-${section}-title`} className="guide__title">
        {t(`guide.${section}.title`)}
      </Heading>
      <p>{t(`guide.${section}.body`)}</p>
    </section>
  );
}
