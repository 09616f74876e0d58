// The chat settings as React state, written to local storage on every change.
import { useCallback, useState } from 'react';
import { loadChatSettings, saveChatSettings, type ChatSettings } from './chatSettings';

export function useChatSettings(): [ChatSettings, (next: ChatSettings) => void] {
  const [settings, setSettings] = useState(loadChatSettings);
  const update = useCallback((next: ChatSettings) => {
    setSettings(next);
    saveChatSettings(next);
  }, []);
  return [settings, update];
}
