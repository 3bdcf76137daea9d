import { describe, expect, it } from 'vitest';
import { browserFamily, isRecommendedBrowser, isSupportedBrowser } from './browser-rules';

const UA = {
  chrome: 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
  edge: 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36 Edg/131.0.0.0',
  safari: 'Mozilla/5.0 (Macintosh; Intel Mac OS X 14_1) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.1 Safari/605.1.15',
  iphone: 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.1 Mobile/15E148 Safari/604.1',
  firefoxIos: 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) FxiOS/120.0 Mobile/15E148 Safari/605.1.15',
  firefox: 'Mozilla/5.0 (X11; Linux x86_64; rv:121.0) Gecko/20100101 Firefox/121.0',
  oldEdge: 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/70.0.3538.102 Safari/537.36 Edge/18.19582',
  ie: 'Mozilla/5.0 (Windows NT 10.0; Trident/7.0; rv:11.0) like Gecko',
};
const withRtc = { RTCPeerConnection: function RTCPeerConnection() {} };

describe('browser rules (spec section 1)', () => {
  it('tells the families apart by engine', () => {
    expect(browserFamily(UA.chrome)).toBe('chrome');
    expect(browserFamily(UA.edge)).toBe('chrome');
    expect(browserFamily(UA.safari)).toBe('safari');
    expect(browserFamily(UA.iphone)).toBe('safari');
    expect(browserFamily(UA.firefoxIos)).toBe('safari');
    expect(browserFamily(UA.firefox)).toBe('other');
    expect(browserFamily(UA.oldEdge)).toBe('other');
    expect(browserFamily(UA.ie)).toBe('other');
  });

  it('supports only Chrome or Safari-family browsers with WebRTC', () => {
    expect(isSupportedBrowser(UA.chrome, withRtc)).toBe(true);
    expect(isSupportedBrowser(UA.safari, withRtc)).toBe(true);
    expect(isSupportedBrowser(UA.firefox, withRtc)).toBe(false);
    expect(isSupportedBrowser(UA.chrome, {})).toBe(false);
  });

  it('recommends Chrome or Safari to the rest of their families', () => {
    expect(isRecommendedBrowser(UA.chrome)).toBe(true);
    expect(isRecommendedBrowser(UA.iphone)).toBe(true);
    expect(isRecommendedBrowser(UA.edge)).toBe(false);
    expect(isRecommendedBrowser(UA.firefoxIos)).toBe(false);
  });
});
