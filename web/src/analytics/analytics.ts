// Product analytics events. The default implementation sends nothing anywhere; a
// deployment that wants analytics installs its own with setAnalytics().
export type AnalyticsEvent = 'Installation Attempted' | 'Project Created' | 'Zip Project Created' | 'Sign In Success';

export interface Analytics {
  track(event: AnalyticsEvent, properties?: Record<string, string | number | boolean>): void;
}

export const noAnalytics: Analytics = { track: () => {} };

let active: Analytics = noAnalytics;

export function setAnalytics(analytics: Analytics): void {
  active = analytics;
}

export function track(event: AnalyticsEvent, properties?: Record<string, string | number | boolean>): void {
  try {
    active.track(event, properties);
  } catch {
    // Analytics never breaks the product.
  }
}
