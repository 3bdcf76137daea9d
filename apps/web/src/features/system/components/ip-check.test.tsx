import { render, screen } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { mockFetch, setupI18n, setupSettings } from '@/testing/test-utils';
import { IpCheckGate } from './ip-check';

beforeAll(async () => {
  await setupI18n('en');
});

afterEach(() => vi.unstubAllGlobals());

const renderGate = () =>
  render(
    <IpCheckGate>
      <p>the app</p>
    </IpCheckGate>,
  );

describe('IpCheckGate', () => {
  it('with the country policy off, opens the app at once and never waits for /check', async () => {
    setupSettings({ IP_CHEKCING: false });
    const fetchSpy = mockFetch({ 'GET /check': () => ({ status: 502, body: {} }) });
    renderGate();
    // The very first render is the app: no "being checked" flash, no network alert.
    expect(screen.getByText('the app')).toBeInTheDocument();
    expect(screen.queryByText('Your IP address is being checked')).toBeNull();
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(screen.getByText('the app')).toBeInTheDocument();
    expect(screen.queryByRole('alert')).toBeNull();
    expect(fetchSpy).not.toHaveBeenCalled();
  });

  it('with the policy on, a failing /check keeps the network alert (today’s rule)', async () => {
    setupSettings({ IP_CHEKCING: true });
    mockFetch({ 'GET /check': () => ({ status: 502, body: {} }) });
    renderGate();
    expect(screen.getByText('Your IP address is being checked')).toBeInTheDocument();
    expect(await screen.findByRole('alert')).toHaveTextContent('error on network connection please reflesh your page');
    expect(screen.queryByText('the app')).toBeNull();
  });

  it('with the policy on, a refused country sees the blocked screen and an allowed one the app', async () => {
    setupSettings({ IP_CHEKCING: true });
    mockFetch({ 'GET /check': () => ({ body: { status: 0, code: 0, ip: '10.0.0.9', country: 'DE' } }) });
    const { unmount } = renderGate();
    expect(await screen.findByRole('alert')).toHaveTextContent('We see that you are connecting from DE with 10.0.0.9 address.');
    unmount();
    mockFetch({ 'GET /check': () => ({ body: { status: 1, code: 1, ip: '10.0.0.9', country: 'TR' } }) });
    renderGate();
    expect(await screen.findByText('the app')).toBeInTheDocument();
  });
});
