import { fireEvent, render, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { Modal } from './Modal';

function renderModal(props: Partial<Parameters<typeof Modal>[0]> = {}) {
  const onClose = vi.fn();
  render(
    <>
      <button type="button">outside</button>
      <Modal title="Dialog" onClose={onClose} {...props}>
        <input aria-label="first" />
        <button type="button">last</button>
      </Modal>
    </>,
  );
  return onClose;
}

describe('modal', () => {
  it('is a labelled dialog that takes focus', () => {
    renderModal();
    expect(screen.getByRole('dialog', { name: 'Dialog' })).toHaveAttribute('aria-modal', 'true');
    expect(screen.getByRole('button', { name: 'Close dialog' })).toHaveFocus();
  });

  it('keeps Tab inside', () => {
    renderModal();
    screen.getByRole('button', { name: 'last' }).focus();
    fireEvent.keyDown(screen.getByRole('dialog'), { key: 'Tab' });
    expect(screen.getByRole('button', { name: 'Close dialog' })).toHaveFocus();
    fireEvent.keyDown(screen.getByRole('dialog'), { key: 'Tab', shiftKey: true });
    expect(screen.getByRole('button', { name: 'last' })).toHaveFocus();
  });

  it('does not close on a click outside unless allowed; Escape closes', () => {
    const onClose = renderModal();
    fireEvent.mouseDown(screen.getByTestId('modal-backdrop'));
    expect(onClose).not.toHaveBeenCalled();
    fireEvent.keyDown(screen.getByRole('dialog'), { key: 'Escape' });
    expect(onClose).toHaveBeenCalledTimes(1);
  });

  it('closes on a click outside when dismissOnBackdrop is set', () => {
    const onClose = renderModal({ dismissOnBackdrop: true });
    fireEvent.mouseDown(screen.getByTestId('modal-backdrop'));
    expect(onClose).toHaveBeenCalledTimes(1);
  });
});
