import type { OperatorView } from '@reel/protocol';
import { render } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { Toaster } from '@/components/ui/toaster';
import { setupI18n, setupSettings } from '@/testing/test-utils';
import { AdminApp } from '../admin-app';
import { loadAdminTexts } from '../lib/admin-texts';
import { signInOperator, signOutOperator } from '../lib/operator-session';

export async function setupAdminTests(language: 'en' | 'tr' = 'en') {
  setupSettings();
  await setupI18n(language);
  await loadAdminTexts();
}

export const adminOperator: OperatorView = {
  id: 1,
  username: 'boss',
  role: 'admin',
  status: 'active',
  created_at: '2026-11-27T10:00:00.000Z',
  last_login_at: null,
};

export const staffOperator: OperatorView = { ...adminOperator, id: 2, username: 'sam', role: 'staff' };

/** The whole console at `path`, signed in as `operator` (null: signed out), against the mocked fetch. */
export function renderAdmin(path: string, operator: OperatorView | null = adminOperator) {
  if (operator) signInOperator('operator-token', operator);
  else signOutOperator();
  const router = createMemoryRouter([{ path: '/admin/*', element: <AdminApp /> }], { initialEntries: [path] });
  return {
    router,
    ...render(
      <>
        <RouterProvider router={router} />
        <Toaster />
      </>,
    ),
  };
}

/** The JSON body a mocked fetch was called with. */
export function bodyOf(init: RequestInit | undefined): Record<string, unknown> {
  return JSON.parse(String(init?.body ?? '{}')) as Record<string, unknown>;
}
