import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { HistoryPanel } from './HistoryPanel';
import { scriptFetch } from '../test/fetchMock';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

const versions = {
  versions: [
    { id: 9, created_at: '2026-11-22T19:00:00.000Z', authors: [{ id: '3', name: 'Ada' }], label: null, kind: 'edit' },
    { id: 4, created_at: '2026-11-22T18:00:00.000Z', authors: [], label: 'Sync to 1a2b3c4d5e6f', kind: 'labelled' },
  ],
  next_cursor: null,
};
const p = (text: string) => ({ type: 'paragraph', content: [{ type: 'text', text }] });
const diff = {
  added: 1, removed: 1, changed: 1,
  blocks: [
    { change: 'same', block: p('kept') },
    { change: 'changed', before: p('alpha delta'), after: p('alpha beta'), text: [{ op: 'equal', text: 'alpha ' }, { op: 'delete', text: 'delta' }, { op: 'insert', text: 'beta' }] },
    { change: 'added', block: p('only in the version') },
    { change: 'removed', block: p('only in the page') },
  ],
};

describe('history panel', () => {
  it('lists versions with authors and labels and shows the chosen one against the current page', async () => {
    const { calls } = scriptFetch({ body: versions }, { body: diff });
    render(<HistoryPanel pageId={12} canRestore={false} onClose={() => {}} />);
    expect(await screen.findByText('Ada')).toBeInTheDocument();
    expect(screen.getByText('Sync to 1a2b3c4d5e6f')).toBeInTheDocument();
    expect(screen.getByText('No recorded author')).toBeInTheDocument();
    fireEvent.click(screen.getAllByRole('button', { pressed: false })[0]!);
    expect(await screen.findByText('only in the version')).toBeInTheDocument();
    expect(screen.getByText('only in the version').tagName).toBe('INS');
    expect(screen.getByText('only in the page').tagName).toBe('DEL');
    expect(screen.getByText('delta').tagName).toBe('DEL');
    expect(screen.getByText('beta').tagName).toBe('INS');
    expect(calls[1]!.url).toContain('/api/page/12/history/9/diff?against=current');
    expect(screen.queryByRole('button', { name: 'Restore this version' })).toBeNull();  // a reader
  });

  it('restores only after the confirmation', async () => {
    const { calls } = scriptFetch({ body: versions }, { body: diff }, { body: { restored: 4, before_version: 10 } }, { body: versions });
    render(<HistoryPanel pageId={12} canRestore onClose={() => {}} />);
    fireEvent.click(await screen.findByText('Sync to 1a2b3c4d5e6f'));
    fireEvent.click(await screen.findByRole('button', { name: 'Restore this version' }));
    expect(calls).toHaveLength(2);
    fireEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(calls).toHaveLength(2);
    fireEvent.click(screen.getByRole('button', { name: 'Restore this version' }));
    fireEvent.click(screen.getByRole('button', { name: 'Restore' }));
    await waitFor(() => expect(calls).toHaveLength(4));
    expect(calls[2]!.url).toContain('/api/page/12/history/4/restore');
    expect(calls[2]!.init.method).toBe('POST');
    expect(await screen.findByText(/Restored the version/)).toBeInTheDocument();
  });

  it('keeps headings and code visible as such, and says when a version cannot be loaded', async () => {
    const code = { type: 'codeBlock', content: [{ type: 'text', text: 'make all' }] };
    const heading = { type: 'heading', attrs: { level: 2 }, content: [{ type: 'text', text: 'Setup' }] };
    scriptFetch({ body: versions }, { body: { added: 0, removed: 0, changed: 0, blocks: [{ change: 'same', block: heading }, { change: 'same', block: code }] } },
      { status: 500, body: { error: { code: 'internal', message: 'boom', request_id: 'r' } } });
    render(<HistoryPanel pageId={12} canRestore onClose={() => {}} />);
    fireEvent.click(await screen.findByText('Ada'));
    expect(await screen.findByText('Same as the current page.')).toBeInTheDocument();
    expect(screen.getByText('make all').tagName).toBe('PRE');
    expect(screen.getByText('Setup')).toHaveClass('history-diff__block--heading');
    fireEvent.click(screen.getByText('Sync to 1a2b3c4d5e6f'));
    expect(await screen.findByText('The version could not be loaded.')).toBeInTheDocument();
  });
});
