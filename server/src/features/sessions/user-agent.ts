/**
 * A small, honest reading of a User-Agent header for the "Signed-in devices" list: the common
 * browsers and systems by name (with the major version where the header still tells it), and
 * "Unknown" for anything else rather than a guess. It labels a list for the person; it is never
 * used to decide anything (a User-Agent is whatever the client says).
 */
export interface DeviceLabel {
  browser: string;
  os: string;
}

const BROWSERS: Array<[RegExp, string]> = [
  [/\bEdg(?:e|A|iOS)?\/(\d+)/, 'Edge'],
  [/\bOPR\/(\d+)/, 'Opera'],
  [/\bSamsungBrowser\/(\d+)/, 'Samsung Internet'],
  [/\bFirefox\/(\d+)/, 'Firefox'],
  [/\bFxiOS\/(\d+)/, 'Firefox'],
  [/\bCriOS\/(\d+)/, 'Chrome'],
  [/\bHeadlessChrome\/(\d+)/, 'Headless Chrome'],
  [/\bChrome\/(\d+)/, 'Chrome'],
  [/\bVersion\/(\d+)[\d.]* (?:Mobile\/\S+ )?Safari\//, 'Safari'],
  [/\bcurl\/(\d+)/, 'curl'],
];

function browserOf(ua: string): string {
  for (const [pattern, name] of BROWSERS) {
    const match = pattern.exec(ua);
    if (match) return `${name} ${match[1]}`;
  }
  return 'Unknown browser';
}

function osOf(ua: string): string {
  let m: RegExpExecArray | null;
  if ((m = /\bAndroid (\d+)/.exec(ua))) return `Android ${m[1]}`;
  if ((m = /\biPad\b.*? OS (\d+)/.exec(ua))) return `iPadOS ${m[1]}`;
  if ((m = /\biPhone OS (\d+)/.exec(ua))) return `iOS ${m[1]}`;
  if (/\bCrOS\b/.test(ua)) return 'ChromeOS';
  // Windows 11 still says "Windows NT 10.0", so no version is claimed.
  if (/\bWindows\b/.test(ua)) return 'Windows';
  // Browsers freeze the macOS version at 10_15, so none is claimed.
  if (/\bMac OS X\b|\bMacintosh\b/.test(ua)) return 'macOS';
  if (/\bLinux\b/.test(ua)) return 'Linux';
  return 'Unknown system';
}

export function describeUserAgent(userAgent: string | null | undefined): DeviceLabel {
  const ua = (userAgent ?? '').slice(0, 512);
  if (!ua) return { browser: 'Unknown browser', os: 'Unknown system' };
  return { browser: browserOf(ua), os: osOf(ua) };
}
