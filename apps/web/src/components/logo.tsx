export function Logo({ label, compact }: { label: string; compact?: boolean }) {
  return (
    <span className={compact ? 'logo logo--compact' : 'logo'} role="img" aria-label={label}>
      <span className="logo-mark" aria-hidden="true">
        7
      </span>
      {compact ? null : (
        <span className="logo-text" aria-hidden="true">
          Reel<strong>Live</strong>
        </span>
      )}
    </span>
  );
}
