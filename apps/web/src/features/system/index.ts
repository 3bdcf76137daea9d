export { BrowserBanner, BrowserSupportGate, UnsupportedBrowserScreen } from './components/browser-support';
export { browserFamily, isRecommendedBrowser, isSupportedBrowser, supportsWebRtc } from './browser-rules';
export { IpCheckGate, IpCheckScreen, isCheckAllowed } from './components/ip-check';
export { ConnectionLostNotice } from './components/connection-lost';
