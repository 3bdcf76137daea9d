export { BrowserBanner, BrowserSupportGate } from './components/browser-support';
export { IpCheckGate } from './components/ip-check';
export { startIpCheck } from './api/get-ip-check';
export { ConnectionLostNotice } from './components/connection-lost';
