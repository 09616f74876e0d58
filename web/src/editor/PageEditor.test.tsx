import { describe, expect, it, vi } from 'vitest';
import { render, waitFor } from '@testing-library/react';
import PageEditor from './PageEditor';

// What the page editor hands to the block editor in development mode.
const seen = vi.hoisted(() => ({ props: null as null | { editable: boolean; upload: { local: boolean; slashMenuLocal?: boolean }; provider: unknown } }));
vi.mock('./BlockEditor', () => ({
  BlockEditor: (props: NonNullable<typeof seen.props>) => {
    seen.props = props;
    return <div data-testid="block-editor" />;
  },
}));
vi.mock('../api/devMode', () => ({ isDevelopmentMode: () => true }));
vi.mock('../api/pagesApi', () => ({ getPageContent: vi.fn(async () => null), syncPageName: vi.fn(async () => undefined) }));

describe('development mode', () => {
  it('the page is editable locally, and only the slash-menu image skips the upload', async () => {
    render(<PageEditor projectId={13} pageId={20} pageName="Sample" user={{ name: 'Dev', email: 'dev@example.com', image: null }} signedIn canEdit
      onHeadings={() => {}} onEditor={() => {}} onTitleSynced={() => {}} />);
    await waitFor(() => expect(seen.props).not.toBeNull());
    expect(seen.props!.editable).toBe(true);
    expect(seen.props!.provider).toBeNull();
    expect(seen.props!.upload).toMatchObject({ local: false, slashMenuLocal: true });
  });
});
