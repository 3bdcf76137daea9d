import { useTranslation } from 'react-i18next';
import { Spinner } from '@/components/ui/spinner';
import { messageForError } from '@/lib/auth';
import { useMoney } from '@/lib/use-money';
import { usePaytable } from '../api/get-paytable';

const percent = (fraction: number, language: string) =>
  new Intl.NumberFormat(language, {
    style: 'percent',
    minimumFractionDigits: 2,
    maximumFractionDigits: 2,
  }).format(fraction);

/** One payline drawn as a 5×3 grid of cells, the line's row marked on each reel. */
function Payline({ rows, index, label }: { rows: number[]; index: number; label: string }) {
  return (
    <figure className="payline" aria-label={label}>
      <div className="payline__grid" aria-hidden="true">
        {[0, 1, 2].map((row) =>
          rows.map((lineRow, reel) => (
            <span
              key={`${row}-${reel}`}
              className={lineRow === row ? 'payline__cell payline__cell--on' : 'payline__cell'}
            />
          )),
        )}
      </div>
      <figcaption>{index + 1}</figcaption>
    </figure>
  );
}

/**
 * The paytable of the slot the cabinets play, generated from the server's `GET /machine/paytable`
 * (the cabinets' own tables and the exact design RTP). Shown in the footer's Paytables dialog.
 */
export function PaytablesPage() {
  const { t, i18n } = useTranslation();
  const money = useMoney();
  const { isPending, data, error } = usePaytable();
  if (isPending) return <Spinner label={t('common.loading')} />;
  if (error || !data) return <p role="alert">{messageForError(error)}</p>;
  const symbolName = (symbol: string) => t(`paytables.symbols.${symbol}`, { defaultValue: symbol });
  const scatter = data.symbols.find((s) => s.kind === 'scatter');
  const wild = data.symbols.find((s) => s.kind === 'wild');
  return (
    <main className="paytables">
      <h1>{t('paytables.title')}</h1>
      <p>{t('paytables.intro', { reels: data.reels, rows: data.rows, lines: data.lines })}</p>
      <p>
        <strong>{t('paytables.rtp', { rtp: percent(data.rtp.total, i18n.language) })}</strong>{' '}
        {t('paytables.rtpParts', {
          lines: percent(data.rtp.lines, i18n.language),
          scatter: percent(data.rtp.scatter, i18n.language),
          freeSpins: percent(data.rtp.freeSpins, i18n.language),
        })}
      </p>
      <h2>{t('paytables.linePays')}</h2>
      <table className="paytables__table">
        <caption>{t('paytables.linePaysCaption')}</caption>
        <thead>
          <tr>
            <th scope="col">{t('paytables.symbol')}</th>
            <th scope="col">3×</th>
            <th scope="col">4×</th>
            <th scope="col">5×</th>
          </tr>
        </thead>
        <tbody>
          {data.symbols
            .filter((s) => s.kind !== 'scatter')
            .map((s) => (
              <tr key={s.symbol}>
                <th scope="row">{symbolName(s.symbol)}</th>
                {s.pays.map((pay, k) => (
                  <td key={k}>{pay}</td>
                ))}
              </tr>
            ))}
        </tbody>
      </table>
      {wild ? <p>{t('paytables.wild', { wild: symbolName(wild.symbol) })}</p> : null}
      {scatter ? (
        <>
          <h2>{t('paytables.scatterAndFreeSpins')}</h2>
          <ul>
            {data.scatterPays.map((p) => (
              <li key={p.count}>
                {t('paytables.scatterPay', {
                  count: p.count,
                  scatter: symbolName(scatter.symbol),
                  multiplier: p.multiplier,
                })}
              </li>
            ))}
            <li>
              {t('paytables.freeSpins', {
                trigger: data.freeSpins.trigger,
                scatter: symbolName(scatter.symbol),
                award: data.freeSpins.award,
                multiplier: data.freeSpins.multiplier,
              })}
            </li>
          </ul>
        </>
      ) : null}
      <h2>{t('paytables.betLevels')}</h2>
      <p>{data.betLevelsCents.map((cents) => money(cents)).join(' · ')}</p>
      <h2>{t('paytables.paylines', { count: data.lines })}</h2>
      <div className="paytables__lines">
        {data.paylines.map((rows, index) => (
          <Payline
            key={index}
            rows={rows}
            index={index}
            label={t('paytables.payline', { number: index + 1 })}
          />
        ))}
      </div>
      <p className="muted">
        {t('paytables.jackpot', { odds: data.jackpotOdds.toLocaleString(i18n.language) })}
      </p>
    </main>
  );
}
