export { BrowserBanner, BrowserSupportGate, UnsupportedBrowserScreen, isRecommendedBrowser, supportsWebRtc } from './components/browser-support';
export { IpCheckGate, IpCheckScreen, isCheckAllowed } from './components/ip-check';
export { ConnectionLostNotice } from './components/connection-lost';
