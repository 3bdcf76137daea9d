/**
 * Which browsers may play (spec section 1): Chrome or Safari-family browsers that support WebRTC.
 * Families are told apart by engine, since that is what decides whether live video works:
 * Chromium-based browsers carry a `Chrome/` (or iOS `CriOS/`) token; the Safari family is WebKit
 * with a `Safari/` token and no Chrome token (every iOS browser is WebKit). Gecko (Firefox on
 * desktop and Android), old Edge (EdgeHTML), Internet Explorer and anything unknown are refused
 * (docs/spec-decisions.md).
 */
type BrowserFamily = 'chrome' | 'safari' | 'other';

export function browserFamily(userAgent: string): BrowserFamily {
  if (/Trident|MSIE|Edge\/\d/i.test(userAgent)) return 'other';
  if (/Gecko\/\d/i.test(userAgent) && /Firefox\//i.test(userAgent)) return 'other';
  if (/Chrome\/|Chromium\/|CriOS\/|HeadlessChrome/i.test(userAgent)) return 'chrome';
  if (/AppleWebKit\//i.test(userAgent) && /Safari\//i.test(userAgent)) return 'safari';
  return 'other';
}

function supportsWebRtc(scope: { RTCPeerConnection?: unknown; webkitRTCPeerConnection?: unknown }): boolean {
  return typeof scope.RTCPeerConnection === 'function' || typeof scope.webkitRTCPeerConnection === 'function';
}

export function isSupportedBrowser(
  userAgent: string,
  scope: { RTCPeerConnection?: unknown; webkitRTCPeerConnection?: unknown },
): boolean {
  return browserFamily(userAgent) !== 'other' && supportsWebRtc(scope);
}

/**
 * Chrome and Safari themselves; other browsers of their families (Edge, Opera, Samsung Internet,
 * Firefox or Edge on iOS) may play but see the banner recommending Chrome or Safari.
 */
export function isRecommendedBrowser(userAgent: string): boolean {
  if (/Edg(e|A|iOS)?\/|OPR\/|Opera|SamsungBrowser|FxiOS|YaBrowser|Vivaldi/i.test(userAgent)) return false;
  return browserFamily(userAgent) !== 'other';
}
