import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createRef } from 'react';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { setupI18n } from '@/testing/test-utils';
import { VideoStatus } from '@/lib/video';
import type { LiveVideo } from '../hooks/use-live-video';
import { VideoStage } from './video-stage';

beforeAll(() => setupI18n('en'));

function renderStage(over: Partial<Parameters<typeof VideoStage>[0]> = {}) {
  const props = {
    videoRef: createRef<HTMLVideoElement>(),
    video: {
      status: VideoStatus.Connecting,
      latencyMs: null,
      framesPerSecond: 0,
      firstFrameMs: null,
      rttMs: null,
      jitterMs: null,
      lossPercent: null,
      frozen: false,
      degraded: false,
    } as LiveVideo,
    name: 'Golden Reels 1',
    muted: true,
    cutScreen: false,
    onUnmute: vi.fn(),
    winCents: null,
    money: (cents: number) => String(cents),
    channelNotice: null,
    ...over,
  };
  return { props, ...render(<VideoStage {...props} />) };
}

describe('video stage', () => {
  it('waits for the video with a spinner while it connects', () => {
    const { container } = renderStage();
    expect(screen.getAllByText('Connecting video...').length).toBeGreaterThan(0);
    expect(container.querySelector('.spinner')).not.toBeNull();
    expect(screen.queryByTestId('video-unavailable')).toBeNull();
  });

  it('says the video is unavailable, with the code and a way back to the lobby, instead of a spinner', async () => {
    const onBackToLobby = vi.fn();
    const { container } = renderStage({ unavailableCode: 70000, onBackToLobby });
    const notice = screen.getByRole('alert');
    expect(notice).toHaveTextContent('Video unavailable');
    expect(notice).toHaveTextContent('Failed to start pipeline. Please contact the technical team.');
    expect(screen.getByTestId('video-unavailable-code')).toHaveTextContent('Code 70000');
    expect(screen.getByTestId('video-state')).toHaveTextContent('Video unavailable');
    expect(container.querySelector('.spinner')).toBeNull();
    expect(container.querySelector('[data-video-status]')!.getAttribute('data-video-status')).toBe(
      'unavailable',
    );
    await userEvent.click(screen.getByRole('button', { name: 'Back to lobby' }));
    expect(onBackToLobby).toHaveBeenCalledTimes(1);
  });

  it('shows the Turkish texts from the catalogue', async () => {
    await setupI18n('tr');
    renderStage({ unavailableCode: 70000 });
    expect(screen.getByRole('alert')).toHaveTextContent(
      'Yayın başlatılamadı. Lütfen teknik ekip ile iletişime geçin.',
    );
    expect(screen.getByTestId('video-unavailable-code')).toHaveTextContent('Kod 70000');
    await setupI18n('en');
  });
  it('says a frozen picture and a degraded link in words, and never shows a degraded link as good', () => {
    const base = { status: VideoStatus.Connected, latencyMs: 40, framesPerSecond: 30, firstFrameMs: 200, rttMs: 20, jitterMs: 3, lossPercent: 0 };
    const { rerender, props } = renderStage({ video: { ...base, frozen: false, degraded: false } });
    expect(screen.getByTestId('latency').getAttribute('data-quality')).toBe('good');
    expect(screen.getByTestId('latency').getAttribute('title')).toBe('Round trip 20 ms, jitter 3 ms');
    expect(screen.queryByTestId('link-warning')).toBeNull();
    rerender(<VideoStage {...props} video={{ ...base, lossPercent: 8, frozen: false, degraded: true }} />);
    expect(screen.getByTestId('latency').getAttribute('data-quality')).toBe('poor');
    expect(screen.getByTestId('link-warning').textContent).toBe('Weak connection');
    rerender(<VideoStage {...props} video={{ ...base, frozen: true, degraded: true }} />);
    expect(screen.getByTestId('link-warning').textContent).toBe('Picture frozen: play waits');
  });
});
