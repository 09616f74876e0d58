// The landing page's words (spec section 1).
export const HEADLINE = { first: 'Automate your documentation,', second: 'Accelerate your development.' };

export const BENEFITS = [
  { title: 'Faster onboarding', text: 'New engineers read how the system works on day one instead of reverse-engineering it for weeks.' },
  { title: 'Code quality', text: 'Every module explained next to its code makes gaps, duplication and dead ends easy to see.' },
  { title: 'Legacy support', text: 'Old services nobody remembers get a clear map of their files, entry points and data flow.' },
  { title: 'Team handoffs', text: 'Hand a codebase to another team with documentation that is complete and current.' },
  { title: 'Lower bus factor', text: 'Knowledge lives in shared pages, not in the head of the one person who wrote it.' },
] as const;

export const CORE_FEATURES = [
  { title: 'Deep code understanding', text: 'Symbols, imports, build files and comments become an overview, topics and a page for every file, with links to exact lines.' },
  { title: 'Language-agnostic', text: 'Go, TypeScript, Python, Java, C++, Rust and over a hundred more: one pipeline reads them all.' },
  { title: 'Collaborative editing', text: 'Edit generated pages together in real time in a block editor with diagrams, tables and code.' },
] as const;

export const INTEGRATION_STEPS = [
  { title: 'Connect a repository', text: 'Paste a GitHub URL and install the GitHub App, or upload a ZIP, or start empty.' },
  { title: 'Get your pages', text: 'A project overview, topics, subtopics and file pages are written from the code.' },
  { title: 'Share and refine', text: 'Make the project public, invite your team as viewers, editors or admins, and edit together.' },
] as const;

export const NAV_SECTIONS = [
  { id: 'features', label: 'Features' },
  { id: 'integration', label: 'Integration' },
  { id: 'sync', label: 'Sync' },
  { id: 'contact', label: 'Contact' },
] as const;
