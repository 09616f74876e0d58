// React bindings of the small stores.
import { useSyncExternalStore } from 'react';
import { currentToast, subscribeToast } from '../toast/toastStore';
import { sessionUser, subscribeSession } from '../session/sessionStore';
import { preferences, subscribePreferences } from '../preferences/preferences';

export function useToast() {
  return useSyncExternalStore(subscribeToast, currentToast);
}

export function useSessionUser() {
  return useSyncExternalStore(subscribeSession, sessionUser);
}

export function usePreferences() {
  return useSyncExternalStore(subscribePreferences, preferences);
}
