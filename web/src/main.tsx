import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { BrowserRouter } from 'react-router';
import { App } from './app/App';
import { loadRuntimeConfig } from './config/runtimeConfig';
import { applyPreferences, watchSystemTheme } from './preferences/preferences';
import { restoreSession } from './session/sessionStore';
import './styles/base.css';

applyPreferences();
watchSystemTheme();

void loadRuntimeConfig().then(() => {
  void restoreSession();
  createRoot(document.getElementById('root')!).render(
    <StrictMode>
      <BrowserRouter>
        <App />
      </BrowserRouter>
    </StrictMode>,
  );
});
