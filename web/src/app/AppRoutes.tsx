// The routes table of spec section 2. The landing page is in the main bundle; every
// other screen is loaded when first visited.
import { lazy, Suspense } from 'react';
import { Route, Routes } from 'react-router';
import { LandingPage } from '../pages/LandingPage';
import { ProtectedRoute } from './ProtectedRoute';

const LoginPage = lazy(() => import('../pages/LoginPage'));
const AuthCallbackPage = lazy(() => import('../pages/AuthCallbackPage'));
const MagicLinkPage = lazy(() => import('../pages/MagicLinkPage'));
const ProjectsPage = lazy(() => import('../pages/ProjectsPage'));
const ProgressPage = lazy(() => import('../pages/ProgressPage'));
const ProjectViewPage = lazy(() => import('../pages/ProjectViewPage'));
const ExamplesPage = lazy(() => import('../pages/ExamplesPage'));
const HelloPage = lazy(() => import('../pages/HelloPage'));
const NotFoundPage = lazy(() => import('../pages/NotFoundPage'));
const ChatPage = lazy(() => import('../pages/ChatPage'));
const TokensPage = lazy(() => import('../pages/TokensPage'));
const EditorSandboxPage = lazy(() => import('../pages/EditorSandboxPage'));
const SourcePage = lazy(() => import('../pages/source/SourcePage'));

function Loading() {
  return (
    <div className="route-loading" role="status" aria-live="polite">
      <span className="spinner" aria-hidden="true" />
      <span className="visually-hidden">Loading</span>
    </div>
  );
}

export function AppRoutes() {
  return (
    <Suspense fallback={<Loading />}>
      <Routes>
        <Route path="/" element={<LandingPage />} />
        <Route path="/login" element={<LoginPage />} />
        <Route path="/login/link" element={<MagicLinkPage />} />
        <Route path="/auth-callback" element={<AuthCallbackPage />} />
        <Route element={<ProtectedRoute />}>
          <Route path="/projects" element={<ProjectsPage />} />
          <Route path="/generate/github" element={<ProgressPage kind="github" />} />
          <Route path="/generate/zip/:id" element={<ProgressPage kind="zip" />} />
          <Route path="/settings/tokens" element={<TokensPage />} />
        </Route>
        <Route path="/projects/:projectId/source" element={<SourcePage />} />
        <Route path="/projects/:projectId/:pageIdParam?" element={<ProjectViewPage by="id" />} />
        <Route path="/github/:projectOwner/:projectName/:pageIdParam?" element={<ProjectViewPage by="github" />} />
        <Route path="/chat" element={<ChatPage />} />
        <Route path="/editor-sandbox" element={<EditorSandboxPage />} />
        <Route path="/examples" element={<ExamplesPage />} />
        <Route path="/hello" element={<HelloPage />} />
        <Route path="/:projectOwner/:projectName/:pageIdParam?" element={<ProjectViewPage by="owner" />} />
        <Route path="*" element={<NotFoundPage />} />
      </Routes>
    </Suspense>
  );
}
