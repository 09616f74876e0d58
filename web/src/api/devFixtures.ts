// Development-mode sample data (spec section 3): repository records in the code host's
// shape, a demo documentation page and a sample page list.
import type { Page, Project } from './types';

const permissions = { admin: true, maintain: true, push: true, triage: true, pull: true };

function repository(id: number, name: string, description: string, language: string) {
  return {
    id,
    name,
    full_name: `acme/${name}`,
    private: false,
    visibility: 'public',
    owner: { login: 'acme', id: 1001, type: 'Organization' },
    description,
    language,
    size: 2048 + id,
    default_branch: 'main',
    created_at: '2025-01-10T09:00:00Z',
    updated_at: '2026-10-01T12:00:00Z',
    pushed_at: '2026-10-01T12:00:00Z',
    stargazers_count: 120 + id,
    watchers_count: 120 + id,
    forks_count: 12,
    open_issues_count: 3,
    archived: false,
    disabled: false,
    has_issues: true,
    has_projects: false,
    has_wiki: false,
    has_pages: false,
    has_downloads: true,
    has_discussions: false,
    topics: ['docs', language.toLowerCase()],
    license: { key: 'mit', name: 'MIT License', spdx_id: 'MIT' },
    permissions,
  };
}

export const SAMPLE_REPOSITORIES = [
  repository(1, 'payments-service', 'Card payments, refunds and ledgers', 'Go'),
  repository(2, 'web-frontend', 'The customer-facing web application', 'TypeScript'),
  repository(3, 'ml-pipeline', 'Feature extraction and model training jobs', 'Python'),
];

export const SAMPLE_PROJECTS: Project[] = SAMPLE_REPOSITORIES.map((repo, index) => ({
  id: repo.id,
  type: 'github',
  name: repo.name,
  git_url: `https://github.com/${repo.full_name}`,
  git_repository_id: repo.id,
  visibility: 'public',
  description: repo.description,
  status: (['DOC_SUCCESS', 'DOC_TOPICS_GENERATING', 'DOC_FILE_PAGES_FAILED'] as const)[index] ?? 'READY',
  rag_status: 'idle',
  default_page_id: 20 + index,
}));

export const DEMO_PAGE = {
  page_id: 13,
  language_code: 'en',
  content: '<h1>Welcome</h1><p>This demo page shows what generated documentation looks like.</p>',
  content_bytea: '',
  created_at: '2026-01-01T00:00:00Z',
  updated_at: '2026-01-01T00:00:00Z',
};

export const SAMPLE_PAGE_LIST: { pages: Page[] } = {
  pages: [
    { id: 20, project_id: 1, parent_id: 0, name: 'Overview', type: 'generated' },
    { id: 21, project_id: 1, parent_id: 20, name: 'Architecture', type: 'generated' },
    { id: 22, project_id: 1, parent_id: 0, name: 'src/ledger.go', type: 'file' },
  ],
};

export const SAMPLE_DELETE_RESULT = { success: true };
