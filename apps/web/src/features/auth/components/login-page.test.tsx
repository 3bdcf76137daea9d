import { render, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { beforeAll, describe, expect, it } from 'vitest';
import { setupI18n, setupSettings } from '@/testing/test-utils';
import { LoginPage } from './login-page';

beforeAll(async () => {
  await setupI18n('en');
});

function renderPage() {
  return render(
    <MemoryRouter>
      <LoginPage />
    </MemoryRouter>,
  );
}

describe('the login page logo (SHOW_LOGIN_LOGO, LOGIN_LOGO_URL)', () => {
  it("shows the product's logo by default", () => {
    setupSettings();
    renderPage();
    expect(screen.getByRole('img', { name: 'Reel Live logo' })).toBeInTheDocument();
  });

  it("shows the operator's logo when Settings.json names one", () => {
    setupSettings({ LOGIN_LOGO_URL: '/brand/casino-logo.svg' });
    renderPage();
    expect(screen.getByRole('img', { name: 'Reel Live logo' })).toHaveAttribute('src', '/brand/casino-logo.svg');
  });

  it('shows none when switched off', () => {
    setupSettings({ SHOW_LOGIN_LOGO: false, LOGIN_LOGO_URL: '/brand/casino-logo.svg' });
    renderPage();
    expect(screen.queryByRole('img', { name: 'Reel Live logo' })).toBeNull();
    expect(screen.getByRole('heading', { name: 'Sign in to your account' })).toBeInTheDocument();
  });
});
