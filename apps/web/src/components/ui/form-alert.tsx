import type { ReactNode } from 'react';

/** A form-level message (a refused sign-in, a server error), read out by screen readers. */
export function FormAlert({ children }: { children: ReactNode }) {
  if (children === null || children === undefined || children === '' || children === false) return null;
  return (
    <div className="form__alert" role="alert">
      {children}
    </div>
  );
}
