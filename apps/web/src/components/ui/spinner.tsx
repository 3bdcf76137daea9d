export function Spinner({ label }: { label: string }) {
  return (
    <div className="spinner-wrap" role="status" aria-live="polite">
      <span className="spinner" aria-hidden="true" />
      <span className="visually-hidden">{label}</span>
    </div>
  );
}

/** Full-screen splash while the app checks the stored token or loads a route. */
export function Splash({ label }: { label: string }) {
  return (
    <div className="splash" role="status" aria-live="polite">
      <div className="splash__logo" aria-hidden="true">
        <span className="logo-mark">7</span>
      </div>
      <span className="spinner" aria-hidden="true" />
      <span className="visually-hidden">{label}</span>
    </div>
  );
}
